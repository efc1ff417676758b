package dev.tollgate.simulator;

import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;

/**
 * What happened with one webhook for one request.
 *
 * @param phase         mutating or validating
 * @param round         0, or 1 for a reinvocation of a mutating webhook
 * @param index         the webhook's index in calling order (as in the API server's annotations)
 * @param configuration the configuration's name
 * @param webhook       the webhook's name
 * @param result        the outcome
 * @param detail        why it was skipped, the denial or error message; empty otherwise
 * @param latencyMicros time from sending the review to having the answer (or giving up); 0 when not called
 * @param patch         the JSON Patch it returned and the simulator applied, or null
 * @param warnings      the warnings it returned
 */
public record CallRecord(String phase, int round, int index, String configuration, String webhook, Result result,
        String detail, long latencyMicros, ArrayNode patch, List<String> warnings) {

    public enum Result {
        /** Called, allowed, no change. */
        ALLOWED,
        /** Called, allowed, and its patch changed the object. */
        PATCHED,
        /** Called and denied the request. */
        DENIED,
        /** The call failed and failurePolicy Fail rejected the request. */
        FAILED_CLOSED,
        /** The call failed and failurePolicy Ignore let the request through. */
        FAILED_OPEN,
        /** Rejected without failurePolicy applying (dry run unsupported, patch that does not apply). */
        REJECTED,
        /** Not called: the reason is in the detail. */
        SKIPPED;

        public boolean called() {
            return this != SKIPPED;
        }
    }
}
