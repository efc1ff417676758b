package dev.tollgate.admission;

/**
 * A decoded review request, of either kind ({@link AdmissionReview}, {@code conversion.ConversionReview}): what the
 * request path, its logs and its metrics need of it whatever it holds.
 */
public interface Review {

    /** The version it arrived in: the answer is written in the same one. */
    ReviewVersion version();

    /** The request's uid, echoed in the answer. */
    String uid();

    /** CREATE, UPDATE, DELETE, CONNECT for admission; CONVERT for a conversion. */
    String operation();

    /** The kind of the reviewed object(s), or "" when there is none. */
    String objectKind();
}
