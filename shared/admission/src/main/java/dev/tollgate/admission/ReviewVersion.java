package dev.tollgate.admission;

import java.util.Optional;

/**
 * The versions of a review the API server may send: {@code v1} and {@code v1beta1}, for AdmissionReviews
 * ({@code admissionReviewVersions}) and ConversionReviews ({@code conversionReviewVersions}; the API server uses the
 * first one it knows) alike. The group comes from the kind of review ({@link ReviewKind#apiVersion}). Only the codecs
 * should care which one arrived: the answer is written in the same version.
 */
public enum ReviewVersion {
    V1("v1"),
    V1BETA1("v1beta1");

    private final String shortName;

    ReviewVersion(String shortName) {
        this.shortName = shortName;
    }

    /** The name used in {@code admissionReviewVersions} and {@code conversionReviewVersions}, e.g. {@code v1}. */
    public String shortName() {
        return shortName;
    }

    public static Optional<ReviewVersion> fromShortName(String name) {
        for (ReviewVersion v : values()) {
            if (v.shortName.equals(name)) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }
}
