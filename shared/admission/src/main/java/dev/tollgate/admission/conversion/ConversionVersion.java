package dev.tollgate.admission.conversion;

import java.util.Optional;

/**
 * The ConversionReview API versions the API server may send (a CRD's {@code conversionReviewVersions}; the API
 * server uses the first one it knows). Only the codec should care which one arrived.
 */
public enum ConversionVersion {
    V1("apiextensions.k8s.io/v1", "v1"),
    V1BETA1("apiextensions.k8s.io/v1beta1", "v1beta1");

    private final String apiVersion;
    private final String shortName;

    ConversionVersion(String apiVersion, String shortName) {
        this.apiVersion = apiVersion;
        this.shortName = shortName;
    }

    /** Full apiVersion string, e.g. {@code apiextensions.k8s.io/v1}. */
    public String apiVersion() {
        return apiVersion;
    }

    /** The name used in {@code conversionReviewVersions}, e.g. {@code v1}. */
    public String shortName() {
        return shortName;
    }

    public static Optional<ConversionVersion> fromApiVersion(String apiVersion) {
        for (ConversionVersion v : values()) {
            if (v.apiVersion.equals(apiVersion)) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }

    public static Optional<ConversionVersion> fromShortName(String name) {
        for (ConversionVersion v : values()) {
            if (v.shortName.equals(name)) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }
}
