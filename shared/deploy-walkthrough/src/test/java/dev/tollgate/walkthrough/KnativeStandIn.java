package dev.tollgate.walkthrough;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What Knative Serving's controller would do for the walk-through, on the functions' kube-apiserver (which serves
 * the Service API from Knative's own CRD but runs no controller): each Service whose spec the status has not caught
 * up with is reported Ready for its generation, at the URL where the test serves that function
 * ({@code https://127.0.0.1:<port>}, the stand-in for the Knative domain). The revision itself is started by
 * {@link RevisionProcess} from the Service as applied.
 */
final class KnativeStandIn extends PollingStandIn {

    private final KubeApi api;
    private final String namespace;
    private final Map<String, Integer> ports;
    private final List<String> reported = new CopyOnWriteArrayList<>();

    KnativeStandIn(KubeApi api, String namespace, Map<String, Integer> ports) {
        super("knative-stand-in");
        this.api = api;
        this.namespace = namespace;
        this.ports = Map.copyOf(ports);
        start();
    }

    @Override
    void reconcile() {
        String list = "/apis/serving.knative.dev/v1/namespaces/" + namespace + "/services";
        for (JsonNode svc : api.get(list).path("items")) {
            String name = svc.path("metadata").path("name").asText();
            long generation = svc.path("metadata").path("generation").asLong();
            if (svc.path("status").path("observedGeneration").asLong(-1) >= generation) {
                continue;
            }
            ObjectNode status = KubeApi.JSON.createObjectNode();
            status.put("observedGeneration", generation);
            Integer port = ports.get(name);
            ArrayNode conditions = status.putArray("conditions");
            if (port == null) {
                condition(conditions, "Ready", "False", "NoStandIn", "the walk-through serves no function named " + name);
                problem("a Service the walk-through does not serve was deployed: " + name);
            } else {
                String revision = name + String.format("-%05d", generation);
                status.put("url", "https://127.0.0.1:" + port);
                status.put("latestReadyRevisionName", revision);
                status.put("latestCreatedRevisionName", revision);
                condition(conditions, "ConfigurationsReady", "True", "", "");
                condition(conditions, "RoutesReady", "True", "", "");
                condition(conditions, "Ready", "True", "", "");
            }
            ObjectNode patch = KubeApi.JSON.createObjectNode();
            patch.set("status", status);
            api.mergePatch(list + "/" + name + "/status", patch);
            reported.add(name + "@" + generation);
        }
    }

    /** Services reported Ready, as {@code name@generation}, in order. */
    List<String> reported() {
        return new ArrayList<>(reported);
    }

    private static void condition(ArrayNode conditions, String type, String status, String reason, String message) {
        ObjectNode c = conditions.addObject();
        c.put("type", type);
        c.put("status", status);
        if (!reason.isEmpty()) {
            c.put("reason", reason);
        }
        if (!message.isEmpty()) {
            c.put("message", message);
        }
    }
}
