package dev.tollgate.runtime;

/**
 * The declared output of every policy's {@code @Funq} method: the answer to one review, which the gate writes. The
 * gate sends it from the worker thread that ran the policy, with its status (an AdmissionReview or ConversionReview
 * in the version received, or a Kubernetes {@code Status} error), so the {@code Uni<ReviewAnswer>} the function
 * returns completes without an item and Funqy writes nothing. Funqy HTTP 3.34.1 would write an emitted item only
 * after one more hop to another worker thread (its handler always emits with {@code emitOn(executor)}), and always
 * with status 200.
 */
public final class ReviewAnswer {

    private ReviewAnswer() {
    }
}
