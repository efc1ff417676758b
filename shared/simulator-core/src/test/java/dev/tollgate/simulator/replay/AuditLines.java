package dev.tollgate.simulator.replay;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Audit events and decision-log lines as the API server and the function runtime write them, for the tests. */
final class AuditLines {

    static final ObjectMapper JSON = new ObjectMapper();

    private AuditLines() {
    }

    static ObjectNode pod(String name, String image) {
        ObjectNode pod = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Pod");
        pod.putObject("metadata").put("name", name).put("namespace", "shop");
        pod.putObject("spec").putArray("containers").addObject().put("name", "app").put("image", image);
        return pod;
    }

    /**
     * A ResponseComplete event of {@code verb} on pod {@code name} in shop, at {@code level}: the request object
     * (Request and up) and the response object (RequestResponse) are {@code object}; code 201/200 unless
     * {@code status} (a responseStatus) is given.
     */
    static ObjectNode event(String level, String verb, String name, ObjectNode object, ObjectNode status) {
        ObjectNode e = JSON.createObjectNode();
        e.put("kind", "Event").put("apiVersion", "audit.k8s.io/v1").put("level", level)
                .put("auditID", "id-" + name + "-" + verb).put("stage", "ResponseComplete")
                .put("requestURI", "/api/v1/namespaces/shop/pods" + (verb.equals("create") ? "" : "/" + name))
                .put("verb", verb);
        e.putObject("user").put("username", "alice").putArray("groups").add("devs").add("system:authenticated");
        e.putObject("objectRef").put("resource", "pods").put("namespace", "shop").put("name", name)
                .put("apiVersion", "v1");
        if (status == null) {
            e.putObject("responseStatus").putObject("metadata");
            ((ObjectNode) e.get("responseStatus")).put("code", verb.equals("create") ? 201 : 200);
        } else {
            e.set("responseStatus", status);
        }
        if (object != null && !level.equals("Metadata") && !verb.equals("delete")) {
            e.set("requestObject", object);
        }
        if (object != null && level.equals("RequestResponse") && (status == null)) {
            ObjectNode stored = object.deepCopy();
            stored.with("metadata").put("uid", "uid-" + name).put("resourceVersion", "7");
            e.set("responseObject", stored);
        }
        return e;
    }

    static ObjectNode denied(String webhook, String message) {
        ObjectNode s = JSON.createObjectNode();
        s.putObject("metadata");
        s.put("status", "Failure").put("message", "admission webhook \"" + webhook + "\" denied the request: "
                + message).put("reason", "Forbidden").put("code", 403);
        return s;
    }

    static ObjectNode patchAnnotation(ObjectNode event, int round, int index, String webhook, String patch) {
        ObjectNode a = event.with("annotations");
        a.put("mutation.webhook.admission.k8s.io/round_" + round + "_index_" + index,
                "{\"configuration\":\"c\",\"webhook\":\"" + webhook + "\",\"mutated\":true}");
        if (!event.path("level").asText().equals("Metadata")) {
            a.put("patch.webhook.admission.k8s.io/round_" + round + "_index_" + index,
                    "{\"configuration\":\"c\",\"webhook\":\"" + webhook + "\",\"patch\":" + patch
                            + ",\"patchType\":\"JSONPatch\"}");
        }
        return event;
    }
}
