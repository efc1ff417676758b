package dev.tollgate.admission;

/** A decoded AdmissionReview request: the version it arrived in and the request it carries. */
public record AdmissionReview(ReviewVersion version, AdmissionRequest request) implements Review {

    @Override
    public String uid() {
        return request.uid();
    }

    @Override
    public String operation() {
        return request.operation().name();
    }

    @Override
    public String objectKind() {
        return request.kind().kind();
    }

    /** The same review, as sent by {@code cluster} (the caller's, which the request carries to its policy). */
    public AdmissionReview withCluster(String cluster) {
        return new AdmissionReview(version, request.withCluster(cluster));
    }
}
