package dev.tollgate.runtime;

import jakarta.inject.Inject;

import dev.tollgate.admission.ReviewDecodeException;
import io.quarkus.funqy.Funq;
import io.smallrye.mutiny.Uni;

/**
 * The one Funqy function of every Tollgate function: the edge ({@link ReviewEdge}) routes each admitted review here
 * (Funqy serves it at {@code /}{@value #NAME}), Funqy binds the body to a {@link ReviewInput} and writes the
 * {@link Answer} this returns. Policies declare no entry point of their own.
 */
public class ReviewFunction {

    /** The function's name, which no policy may take; the edge answers 404 for it from outside. */
    public static final String NAME = "tollgate-review";

    @Inject
    PolicyRunner runner;

    @Funq(NAME)
    public Uni<Answer> review(ReviewInput input) {
        if (input == null) {
            // An empty body, which the edge refuses before Funqy; should one get here, the failure handler answers it.
            return Uni.createFrom().failure(new ReviewDecodeException("empty body"));
        }
        return runner.answer(input);
    }
}
