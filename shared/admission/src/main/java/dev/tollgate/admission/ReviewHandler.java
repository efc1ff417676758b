package dev.tollgate.admission;

import java.lang.System.Logger.Level;
import java.util.Objects;

/**
 * One call, without HTTP, for either kind of review: decode the body with the codec, run the policy, answer in the
 * version received. The way is the same for both kinds; a subclass only says how its policy is called and what its
 * answer holds ({@link #run}).
 *
 * <ul>
 * <li>Bad input (400/413, a {@code Status} body naming the problem) never reaches the policy.</li>
 * <li>A policy that throws gets a 500 with a short message (logged with the uid, on this handler's class's logger),
 * so the API server applies the webhook's failurePolicy; it is never turned into an answer.</li>
 * </ul>
 *
 * @param <R> the review
 * @param <P> the policy
 * @param <C> the codec of the review
 */
public abstract class ReviewHandler<R extends Review, P, C extends ReviewCodec<R>> {

    private final System.Logger log = System.getLogger(getClass().getName());
    private final C codec;

    protected ReviewHandler(C codec) {
        this.codec = Objects.requireNonNull(codec, "codec");
    }

    public C codec() {
        return codec;
    }

    /** Decodes {@code body} and runs {@code policy}, the function named {@code function}, on it. */
    public HandlerResult<R> handle(byte[] body, String function, P policy) {
        R review;
        try {
            review = codec.decode(body);
        } catch (ReviewDecodeException e) {
            return badRequest(e.status(), e.getMessage());
        }
        return handle(review, function, policy);
    }

    /** Runs {@code policy} on an already decoded review. */
    public HandlerResult<R> handle(R review, String function, P policy) {
        try {
            return run(review, function, policy);
        } catch (RuntimeException | StackOverflowError e) {
            return policyFailed(review, function, e);
        }
    }

    /**
     * Calls {@code policy} on {@code review} and encodes its answer (200). Anything it throws is the policy's
     * failure.
     */
    protected abstract HandlerResult<R> run(R review, String function, P policy);

    /** The answer to a request whose body is not a usable review. */
    public HandlerResult<R> badRequest(int status, String message) {
        return result(status, codec.errorBody(status, message), HandlerResult.Outcome.BAD_REQUEST, null, null, 0,
                message);
    }

    /** The answer when the policy failed: HTTP 500 with a short message; the details go to the log. */
    public HandlerResult<R> policyFailed(R review, String function, Throwable e) {
        String policy = codec.kind().policyNoun() + " " + function;
        log.log(Level.ERROR, policy + " failed on request uid=" + (review == null ? "" : review.uid()), e);
        return error(review, policy + " failed: " + e.getClass().getSimpleName());
    }

    /**
     * The answer when the policy did not finish in time: {@code verdict} in the review's version where this kind of
     * review has verdicts (admission), otherwise (or when {@code verdict} is null) an error, so the webhook's
     * failurePolicy decides.
     */
    public HandlerResult<R> timedOut(R review, Verdict verdict, String message) {
        return error(review, message);
    }

    /** HTTP 500 with {@code message} in a {@code Status} body. */
    protected final HandlerResult<R> error(R review, String message) {
        return result(500, codec.errorBody(500, message), HandlerResult.Outcome.ERROR, review, null, 0, message);
    }

    protected final HandlerResult<R> result(int status, byte[] body, HandlerResult.Outcome outcome, R review,
            Verdict verdict, int patchOps, String error) {
        return result(status, body, outcome, review, verdict, patchOps, error, outcome);
    }

    /** A result whose policy decided {@code decision}, answered as {@code outcome} under the review's mode. */
    protected final HandlerResult<R> result(int status, byte[] body, HandlerResult.Outcome outcome, R review,
            Verdict verdict, int patchOps, String error, HandlerResult.Outcome decision) {
        return result(status, body, outcome, review, verdict, patchOps, error, decision,
                review == null ? EnforcementMode.ENFORCE : enforcement(review));
    }

    /** As above, under the call's {@code mode}. */
    protected final HandlerResult<R> result(int status, byte[] body, HandlerResult.Outcome outcome, R review,
            Verdict verdict, int patchOps, String error, HandlerResult.Outcome decision, EnforcementMode mode) {
        return new HandlerResult<>(codec.kind(), status, body, outcome, review, verdict, patchOps, error, decision,
                mode);
    }

    /** The enforcement mode of {@code review}'s call: enforce, unless the kind of review has modes (admission). */
    protected EnforcementMode enforcement(R review) {
        return EnforcementMode.ENFORCE;
    }
}
