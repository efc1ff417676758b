package dev.tollgate.admission.conversion;

import dev.tollgate.admission.Review;
import dev.tollgate.admission.ReviewVersion;

/** A decoded ConversionReview request and the version it arrived in (the answer uses the same version). */
public record ConversionReview(ReviewVersion version, ConversionRequest request) implements Review {

    /** The {@code operation} of every conversion review, for logs and metrics. */
    public static final String OPERATION = "CONVERT";

    @Override
    public String uid() {
        return request.uid();
    }

    @Override
    public String operation() {
        return OPERATION;
    }

    /** One review converts objects of one CRD, so of one kind: the first object's ("" when there are none). */
    @Override
    public String objectKind() {
        return request.objects().isEmpty() ? "" : request.objects().get(0).path("kind").asText("");
    }
}
