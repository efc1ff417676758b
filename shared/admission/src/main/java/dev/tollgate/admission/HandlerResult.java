package dev.tollgate.admission;

/**
 * What one call produced: the HTTP status and body to send, and what happened, for logs and metrics.
 *
 * @param status     HTTP status: 200 for any answered review, 4xx for bad input, 500 for a policy failure
 * @param body       the response body (an AdmissionReview, or a JSON error)
 * @param outcome    the kind of result
 * @param review     the decoded review, or null when the body could not be decoded
 * @param verdict    the policy's verdict, or null when no verdict was reached
 * @param patchOps   the number of JSON Patch operations sent (0 when none)
 * @param error      the error message for 4xx/5xx outcomes, otherwise empty
 */
public record HandlerResult(int status, byte[] body, Outcome outcome, AdmissionReview review, Verdict verdict,
        int patchOps, String error) {

    public enum Outcome {
        ALLOWED, DENIED, PATCHED, BAD_REQUEST, ERROR;

        public String label() {
            return name().toLowerCase();
        }
    }
}
