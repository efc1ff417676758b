package dev.tollgate.admission;

import java.util.Optional;

/**
 * The two reviews the API server sends a webhook: what tells them apart on the wire (the group of their apiVersion
 * and their kind) and in messages. Everything else about them, from the body's limits to the error bodies, is the
 * same ({@link ReviewCodec}, {@link ReviewHandler}).
 */
public enum ReviewKind {
    ADMISSION("admission.k8s.io", "AdmissionReview", "an AdmissionReview", "policy"),
    CONVERSION("apiextensions.k8s.io", "ConversionReview", "a ConversionReview", "conversion policy");

    private final String kind;
    private final String expected;
    private final String policyNoun;
    private final String[] apiVersions;

    ReviewKind(String group, String kind, String expected, String policyNoun) {
        this.kind = kind;
        this.expected = expected;
        this.policyNoun = policyNoun;
        ReviewVersion[] versions = ReviewVersion.values();
        this.apiVersions = new String[versions.length];
        for (ReviewVersion v : versions) {
            apiVersions[v.ordinal()] = group + "/" + v.shortName();
        }
    }

    /** The review's {@code kind}, e.g. {@code AdmissionReview}. */
    public String kind() {
        return kind;
    }

    /** What a request body must hold, for messages: "an AdmissionReview" or "a ConversionReview". */
    public String expected() {
        return expected;
    }

    /** What its policies are called in messages and logs: "policy" or "conversion policy". */
    public String policyNoun() {
        return policyNoun;
    }

    /** The full apiVersion of this review in {@code version}, e.g. {@code admission.k8s.io/v1}. */
    public String apiVersion(ReviewVersion version) {
        return apiVersions[version.ordinal()];
    }

    /** The version an apiVersion of this review names, or empty when it names none (another group, version). */
    public Optional<ReviewVersion> version(String apiVersion) {
        for (ReviewVersion v : ReviewVersion.values()) {
            if (apiVersions[v.ordinal()].equals(apiVersion)) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }

    /** The apiVersions of this review, for messages: "admission.k8s.io/v1 or admission.k8s.io/v1beta1". */
    String apiVersions() {
        return String.join(" or ", apiVersions);
    }
}
