package dev.tollgate.admission;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One admission call ({@link ReviewHandler}): the policy validates, or mutates a deep copy of the object and the
 * patch is computed from its edits; the verdict is encoded in the version received. A policy that throws gets a 500
 * and is never turned into an allow.
 */
public final class AdmissionHandler extends ReviewHandler<AdmissionReview, AdmissionPolicy, AdmissionCodec> {

    public AdmissionHandler(AdmissionCodec codec) {
        super(codec);
    }

    @Override
    protected HandlerResult<AdmissionReview> run(AdmissionReview review, String function, AdmissionPolicy policy) {
        AdmissionRequest request = review.request();
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
        return answer(review, verdict, patch);
    }

    /** The configured verdict in the review's version, or (null) an error. */
    @Override
    public HandlerResult<AdmissionReview> timedOut(AdmissionReview review, Verdict verdict, String message) {
        return verdict == null ? super.timedOut(review, null, message) : answer(review, verdict, null);
    }

    private HandlerResult<AdmissionReview> answer(AdmissionReview review, Verdict verdict, ArrayNode patch) {
        byte[] out = codec().encode(review.version(), review.uid(), verdict, patch);
        int ops = patch == null ? 0 : patch.size();
        HandlerResult.Outcome outcome = !verdict.allowed() ? HandlerResult.Outcome.DENIED
                : ops > 0 ? HandlerResult.Outcome.PATCHED : HandlerResult.Outcome.ALLOWED;
        return result(200, out, outcome, review, verdict, ops, "");
    }
}
