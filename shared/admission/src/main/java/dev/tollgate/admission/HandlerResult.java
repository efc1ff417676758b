package dev.tollgate.admission;

/**
 * What one call produced, for either kind of review: the HTTP status and body to send, and what happened, for logs
 * and metrics.
 *
 * @param kind     the kind of review the call was for (also when its body could not be decoded)
 * @param status   HTTP status: 200 for any answered review (a verdict, converted objects or a conversion Failure),
 *                 4xx for bad input, 500 for a policy failure
 * @param body     the response body (the review's answer, or a {@code Status} error)
 * @param outcome  the kind of result
 * @param review   the decoded review, or null when the body could not be decoded
 * @param verdict  the admission policy's verdict, or null when none was reached (and for conversions)
 * @param patchOps the number of JSON Patch operations sent (0 when none)
 * @param error    the message for 4xx/5xx outcomes and failed conversions, otherwise empty
 * @param decision what the policy decided; differs from {@code outcome} only where the enforcement mode changed
 *                 the answer ({@link EnforcedVerdict})
 * @param enforcement the enforcement mode of the call (errors and conversions are answered as they are whatever it
 *                 is)
 */
public record HandlerResult<R extends Review>(ReviewKind kind, int status, byte[] body, Outcome outcome, R review,
        Verdict verdict, int patchOps, String error, Outcome decision, EnforcementMode enforcement) {

    /** A result answered as decided, in enforce mode. */
    public HandlerResult(ReviewKind kind, int status, byte[] body, Outcome outcome, R review, Verdict verdict,
            int patchOps, String error) {
        this(kind, status, body, outcome, review, verdict, patchOps, error, outcome, EnforcementMode.ENFORCE);
    }

    /**
     * Admission: ALLOWED, DENIED, PATCHED (allowed with a patch). Conversion: CONVERTED (result Success), FAILED (the
     * policy refused an object) and INVALID (it returned one the API server would refuse), both result Failure. Either:
     * BAD_REQUEST (400 or 413: no usable review), ERROR (500: the policy threw or did not answer in time).
     */
    public enum Outcome {
        ALLOWED, DENIED, PATCHED, CONVERTED, FAILED, INVALID, BAD_REQUEST, ERROR,
        /** A decision only: the request matched an exception, so the policy was not run and it was allowed. */
        EXCEPTED;

        public String label() {
            return name().toLowerCase();
        }
    }

    /** The request's uid, or "" when it was not decoded. */
    public String uid() {
        return review == null ? "" : review.uid();
    }

    /** The review's operation ({@link Review#operation()}), or "" when it was not decoded. */
    public String operation() {
        return review == null ? "" : review.operation();
    }

    /** The kind of the reviewed object(s), or "". */
    public String objectKind() {
        return review == null ? "" : review.objectKind();
    }
}
