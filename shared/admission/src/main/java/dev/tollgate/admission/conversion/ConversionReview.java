package dev.tollgate.admission.conversion;

/** A decoded ConversionReview request and the version it arrived in (the answer uses the same version). */
public record ConversionReview(ConversionVersion version, ConversionRequest request) {
}
