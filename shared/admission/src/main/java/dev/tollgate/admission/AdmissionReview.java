package dev.tollgate.admission;

/** A decoded AdmissionReview request: the version it arrived in and the request it carries. */
public record AdmissionReview(AdmissionVersion version, AdmissionRequest request) {
}
