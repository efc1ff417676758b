package dev.tollgate.runtime;

import dev.tollgate.admission.Review;
import dev.tollgate.admission.ReviewHandler;
import dev.tollgate.admission.Verdict;

/**
 * A review decoded for the policy that serves its path, ready to run, whatever its kind: the handler of its kind
 * runs the policy, or answers for it at the deadline.
 */
record DecodedReview<R extends Review, P>(ReviewHandler<R, P, ?> handler, String name, P policy, R review) {

    String uid() {
        return review.uid();
    }

    /** Runs the policy: the library's answer (200, or 500 when the policy threw). */
    CallResult run() {
        return new CallResult.Reviewed(handler.handle(review, name, policy));
    }

    /**
     * The answer when the policy did not finish within the deadline: the configured verdict where the review has
     * verdicts (admission), otherwise an error (failurePolicy decides).
     */
    CallResult timedOut(DeadlineConfig.OnTimeout onTimeout, String message) {
        Verdict verdict = switch (onTimeout) {
            case ERROR -> null;
            case ALLOW -> Verdict.allow().withWarning(message + "; allowed by the configured deadline verdict");
            case DENY -> Verdict.deny(403, message + "; denied by the configured deadline verdict");
        };
        return new CallResult.Reviewed(handler.timedOut(review, verdict, message));
    }
}
