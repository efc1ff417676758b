package dev.tollgate.simulator;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;

/**
 * The outcome of one manifest's admission: the API server's answer, every webhook's part, and the object as it
 * would be stored.
 *
 * @param code     200 when allowed, otherwise the status code the client would see
 * @param message  the message the client would see when rejected (e.g. {@code admission webhook "x" denied the
 *                 request: ...}); empty when allowed
 * @param notes    assumptions the simulator made (unknown kinds, namespaces not given)
 * @param submitted the object as the API server decoded it before admission: as submitted (for DELETE, the object
 *                 being deleted) with the namespace set, unknown fields dropped and the type's defaults applied
 * @param result   the object after all mutations (equal to submitted when nothing changed; null for DELETE)
 * @param patch    the overall change from submitted to result as JSON Patch (empty when none): the webhooks' part
 * @param defaulted the fields the API server's defaulting set before admission ({@link Defaulting}), as paths
 */
public record ManifestReport(String source, String kind, String namespace, String name, String operation,
        boolean dryRun, boolean allowed, int code, String message, List<CallRecord> calls, List<String> warnings,
        Map<String, String> auditAnnotations, List<String> notes, JsonNode submitted, JsonNode result,
        ArrayNode patch, List<String> defaulted) {

    public String objectRef() {
        return kind + " " + (namespace.isEmpty() || kind.equals("Namespace") ? "" : namespace + "/") + name;
    }
}
