package dev.tollgate.walkthrough;

import java.util.HashSet;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What kube-controller-manager's service account controller does (kubernetes/kubernetes
 * pkg/controller/serviceaccount/serviceaccounts_controller.go: every namespace gets a ServiceAccount
 * {@code default}), on a kit kube-apiserver, which runs no controllers: without it, the ServiceAccount admission
 * plugin refuses every pod of a namespace created during the walk-through. The account gets no token
 * ({@code automountServiceAccountToken: false}): no token controller runs here either.
 */
final class ServiceAccountStandIn extends PollingStandIn {

    private final KubeApi api;
    private final Set<String> done = new HashSet<>();

    ServiceAccountStandIn(KubeApi api) {
        super("service-account-stand-in");
        this.api = api;
        start();
    }

    @Override
    void reconcile() {
        for (JsonNode ns : api.get("/api/v1/namespaces").path("items")) {
            String name = ns.path("metadata").path("name").asText();
            if (done.contains(name) || !ns.path("status").path("phase").asText("Active").equals("Active")) {
                continue;
            }
            String accounts = "/api/v1/namespaces/" + name + "/serviceaccounts";
            if (api.find(accounts + "/default") == null) {
                ObjectNode sa = KubeApi.JSON.createObjectNode();
                sa.put("apiVersion", "v1");
                sa.put("kind", "ServiceAccount");
                sa.putObject("metadata").put("name", "default").put("namespace", name);
                sa.put("automountServiceAccountToken", false);
                api.post(accounts, sa);
            }
            done.add(name);
        }
    }
}
