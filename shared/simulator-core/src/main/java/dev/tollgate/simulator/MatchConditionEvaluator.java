package dev.tollgate.simulator;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.admission.AdmissionRequest;

/**
 * Evaluates a webhook's matchConditions (CEL) as the API server does: any condition false means the webhook is not
 * called; all true means it is; an evaluation error with none false is an error, handled by the webhook's
 * failurePolicy. The seam between the simulator and the CEL library.
 */
public interface MatchConditionEvaluator {

    enum Outcome { MATCH, NO_MATCH, ERROR }

    /** @param detail for NO_MATCH the condition that was false, for ERROR the error */
    record Result(Outcome outcome, String detail) {

        public static final Result MATCH = new Result(Outcome.MATCH, "");
    }

    /**
     * @param namespaceObject the request's Namespace object, or null for cluster-scoped requests
     */
    Result evaluate(Webhook webhook, AdmissionRequest request, JsonNode namespaceObject);
}
