package dev.tollgate.admission;

import java.lang.System.Logger.Level;
import java.util.Objects;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One admission call, without HTTP: decode the review, run the policy, compute the patch for a mutation, encode
 * the answer in the version received. Bad input never reaches the policy; a policy that throws gives a 500 (so the
 * API server applies the webhook's failurePolicy) and is never turned into an allow.
 */
public final class AdmissionHandler {

    private static final System.Logger LOG = System.getLogger(AdmissionHandler.class.getName());

    private final AdmissionCodec codec;

    public AdmissionHandler(AdmissionCodec codec) {
        this.codec = Objects.requireNonNull(codec, "codec");
    }

    public AdmissionCodec codec() {
        return codec;
    }

    /** Decodes {@code body} and runs {@code policy}, the function named {@code function}, on it. */
    public HandlerResult handle(byte[] body, String function, AdmissionPolicy policy) {
        AdmissionReview review;
        try {
            review = codec.decode(body);
        } catch (ReviewDecodeException e) {
            return badRequest(e.status(), e.getMessage());
        }
        return handle(review, function, policy);
    }

    /** Runs {@code policy} on an already decoded review. */
    public HandlerResult handle(AdmissionReview review, String function, AdmissionPolicy policy) {
        AdmissionRequest request = review.request();
        try {
            Verdict verdict;
            ArrayNode patch = null;
            if (policy instanceof ValidatingPolicy validating) {
                verdict = validating.validate(request);
            } else {
                MutatingPolicy mutating = (MutatingPolicy) policy;
                ObjectNode edited = request.object() == null ? null : request.object().json().deepCopy();
                verdict = mutating.mutate(request, edited);
                if (verdict != null && verdict.allowed() && edited != null) {
                    patch = JsonPatches.diff(request.object().json(), edited);
                }
            }
            if (verdict == null) {
                throw new IllegalStateException("policy returned no verdict");
            }
            byte[] out = codec.encode(review.version(), request.uid(), verdict, patch);
            int ops = patch == null ? 0 : patch.size();
            HandlerResult.Outcome outcome = !verdict.allowed() ? HandlerResult.Outcome.DENIED
                    : ops > 0 ? HandlerResult.Outcome.PATCHED : HandlerResult.Outcome.ALLOWED;
            return new HandlerResult(200, out, outcome, review, verdict, ops, "");
        } catch (RuntimeException | StackOverflowError e) {
            return policyFailed(review, function, e);
        }
    }

    /** The answer to a request whose body is not a usable AdmissionReview. */
    public HandlerResult badRequest(int status, String message) {
        return new HandlerResult(status, codec.errorBody(status, message), HandlerResult.Outcome.BAD_REQUEST, null,
                null, 0, message);
    }

    /** The answer when the policy failed: HTTP 500 with a short message, so failurePolicy applies. */
    public HandlerResult policyFailed(AdmissionReview review, String function, Throwable e) {
        String uid = review == null ? "" : review.request().uid();
        LOG.log(Level.ERROR, "policy " + function + " failed on request uid=" + uid, e);
        String message = "policy " + function + " failed: " + e.getClass().getSimpleName();
        return new HandlerResult(500, codec.errorBody(500, message), HandlerResult.Outcome.ERROR, review, null, 0,
                message);
    }
}
