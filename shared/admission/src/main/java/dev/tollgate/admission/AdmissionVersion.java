package dev.tollgate.admission;

import java.util.Optional;

/** The AdmissionReview API versions the API server may send. Only the codec should care which one arrived. */
public enum AdmissionVersion {
    V1("admission.k8s.io/v1", "v1"),
    V1BETA1("admission.k8s.io/v1beta1", "v1beta1");

    private final String apiVersion;
    private final String shortName;

    AdmissionVersion(String apiVersion, String shortName) {
        this.apiVersion = apiVersion;
        this.shortName = shortName;
    }

    /** Full apiVersion string, e.g. {@code admission.k8s.io/v1}. */
    public String apiVersion() {
        return apiVersion;
    }

    /** The name used in {@code admissionReviewVersions}, e.g. {@code v1}. */
    public String shortName() {
        return shortName;
    }

    public static Optional<AdmissionVersion> fromApiVersion(String apiVersion) {
        for (AdmissionVersion v : values()) {
            if (v.apiVersion.equals(apiVersion)) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }

    public static Optional<AdmissionVersion> fromShortName(String name) {
        for (AdmissionVersion v : values()) {
            if (v.shortName.equals(name)) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }
}
