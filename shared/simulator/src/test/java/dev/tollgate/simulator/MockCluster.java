package dev.tollgate.simulator;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicBoolean;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

/**
 * A stand-in API server: fabric8's mock server in CRUD mode for the objects, plus what CRUD mode does not do and
 * audit relies on, played as the API server does it: discovery documents for a chosen set of resources
 * ({@code /api}, {@code /api/v1}, {@code /apis}, {@code /apis/<group>/<version>}), and chunked lists ({@code limit},
 * {@code continue}, {@code remainingItemCount} only without a selector, items in key order, as
 * k8s.io/apiserver/pkg/storage/etcd3/store.go GetList). It can also forbid a path (403) or expire the next continue
 * token (410), and it records every list request.
 */
final class MockCluster implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();

    /** One served resource. */
    record Resource(String group, String version, String plural, String kind, boolean namespaced) {
        String groupVersion() {
            return group.isEmpty() ? version : group + "/" + version;
        }

        ResourceDefinitionContext context() {
            return new ResourceDefinitionContext.Builder().withGroup(group).withVersion(version).withPlural(plural)
                    .withKind(kind).withNamespaced(namespaced).build();
        }
    }

    static final List<Resource> BUILT_IN = List.of(
            new Resource("", "v1", "namespaces", "Namespace", false),
            new Resource("", "v1", "pods", "Pod", true),
            new Resource("", "v1", "services", "Service", true),
            new Resource("", "v1", "configmaps", "ConfigMap", true),
            new Resource("", "v1", "replicationcontrollers", "ReplicationController", true),
            new Resource("", "v1", "podtemplates", "PodTemplate", true),
            new Resource("apps", "v1", "deployments", "Deployment", true),
            new Resource("apps", "v1", "statefulsets", "StatefulSet", true),
            new Resource("apps", "v1", "daemonsets", "DaemonSet", true),
            new Resource("apps", "v1", "replicasets", "ReplicaSet", true),
            new Resource("batch", "v1", "jobs", "Job", true),
            new Resource("batch", "v1", "cronjobs", "CronJob", true),
            new Resource("admissionregistration.k8s.io", "v1", "mutatingwebhookconfigurations",
                    "MutatingWebhookConfiguration", false),
            new Resource("admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations",
                    "ValidatingWebhookConfiguration", false));

    static final List<Resource> POLICY_REPORTS = List.of(
            new Resource("wgpolicyk8s.io", "v1alpha2", "policyreports", "PolicyReport", true),
            new Resource("wgpolicyk8s.io", "v1alpha2", "clusterpolicyreports", "ClusterPolicyReport", false));

    private final List<Resource> served;
    private final KubernetesMockServer server;
    private final KubernetesClient client;
    final List<String> listRequests = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, Integer> forbidden = new HashMap<>();
    private final AtomicBoolean expireNextContinue = new AtomicBoolean();

    MockCluster(List<Resource> served) {
        this.served = List.copyOf(served);
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        KubernetesMixedDispatcher crud = new KubernetesMixedDispatcher(responses);
        server = new KubernetesMockServer(new Context(), new MockWebServer(), responses, new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                return MockCluster.this.dispatch(request, crud);
            }
        }, false);
        server.init();
        client = server.createClient();
    }

    KubernetesClient client() {
        return client;
    }

    String url() {
        return server.url("/").replaceAll("/$", "");
    }

    /** GET requests whose path starts with this answer 403 Forbidden, as RBAC would. */
    MockCluster forbid(String pathPrefix) {
        forbidden.put(pathPrefix, 403);
        return this;
    }

    /** The next request that carries a continue token gets 410 Gone (the token expired). */
    MockCluster expireNextContinue() {
        expireNextContinue.set(true);
        return this;
    }

    /** A kubeconfig for this server (plain HTTP, a token nobody checks). */
    Path kubeconfig(Path dir) throws java.io.IOException {
        return Files.writeString(dir.resolve("kubeconfig"), """
                apiVersion: v1
                kind: Config
                clusters:
                - name: mock
                  cluster: {server: "%s"}
                users:
                - name: auditor
                  user: {token: audit-token}
                contexts:
                - name: mock
                  context: {cluster: mock, user: auditor}
                current-context: mock
                """.formatted(url()));
    }

    /** Stores an object (YAML or JSON) through the CRUD dispatcher. */
    void create(Resource r, ObjectNode object) {
        GenericKubernetesResource res = client.getKubernetesSerialization().convertValue(object,
                GenericKubernetesResource.class);
        var op = client.genericKubernetesResources(r.context());
        if (r.namespaced()) {
            op.inNamespace(object.path("metadata").path("namespace").asText()).resource(res).create();
        } else {
            op.resource(res).create();
        }
    }

    List<GenericKubernetesResource> list(Resource r) {
        var op = client.genericKubernetesResources(r.context());
        return r.namespaced() ? op.inAnyNamespace().list().getItems() : op.list().getItems();
    }

    Resource resource(String kind) {
        return served.stream().filter(r -> r.kind().equals(kind)).findFirst()
                .orElseGet(() -> BUILT_IN.stream().filter(r -> r.kind().equals(kind)).findFirst().orElseThrow());
    }

    @Override
    public void close() {
        client.close();
        server.destroy();
    }

    // ---- the server side -----------------------------------------------------------------------------------

    private MockResponse dispatch(RecordedRequest request, KubernetesMixedDispatcher crud) {
        String full = request.getPath();
        int q = full.indexOf('?');
        String path = q < 0 ? full : full.substring(0, q);
        Map<String, String> query = query(q < 0 ? "" : full.substring(q + 1));
        boolean get = request.getMethod().equals("GET");
        for (var f : forbidden.entrySet()) {
            if (get && path.startsWith(f.getKey())) {
                return status(403, "Forbidden", resourceName(path) + " is forbidden: User \"system:serviceaccount:"
                        + "tollgate:tollgate-audit\" cannot list resource \"" + resourceName(path) + "\" at the "
                        + "cluster scope");
            }
        }
        if (get) {
            MockResponse discovery = discovery(path);
            if (discovery != null) {
                return discovery;
            }
        }
        if (get && query.containsKey("limit") && !query.containsKey("watch")) {
            listRequests.add(full);
            if (query.containsKey("continue") && expireNextContinue.getAndSet(false)) {
                return status(410, "Expired", "The provided continue parameter is too old to display a consistent "
                        + "list result. You can start a new list without the continue parameter.");
            }
            return page(request, path, query, crud);
        }
        return crud.dispatch(request);
    }

    private MockResponse page(RecordedRequest request, String path, Map<String, String> query,
            KubernetesMixedDispatcher crud) {
        StringBuilder rest = new StringBuilder();
        query.forEach((k, v) -> {
            if (!k.equals("limit") && !k.equals("continue")) {
                rest.append(rest.length() == 0 ? "?" : "&").append(k).append('=')
                        .append(java.net.URLEncoder.encode(v, StandardCharsets.UTF_8));
            }
        });
        RecordedRequest all = new RecordedRequest(request.getHttpVersion(), request.method(), path + rest,
                request.getHeaders(), request.getBody());
        MockResponse whole = crud.dispatch(all);
        if (whole.code() != 200) {
            return whole;
        }
        try {
            ObjectNode list = (ObjectNode) JSON.readTree(whole.getBody().readUtf8());
            List<JsonNode> items = new ArrayList<>();
            list.path("items").forEach(items::add);
            items.sort(Comparator.comparing(MockCluster::key));
            int limit = Integer.parseInt(query.get("limit"));
            int from = query.containsKey("continue")
                    ? Integer.parseInt(new String(Base64.getDecoder().decode(query.get("continue")),
                            StandardCharsets.UTF_8)) : 0;
            int to = Math.min(items.size(), from + limit);
            ArrayNode page = list.putArray("items");
            items.subList(Math.min(from, items.size()), to).forEach(page::add);
            ObjectNode meta = list.withObject("/metadata");
            meta.remove("continue");
            meta.remove("remainingItemCount");
            if (to < items.size()) {
                meta.put("continue", Base64.getEncoder().encodeToString(String.valueOf(to)
                        .getBytes(StandardCharsets.UTF_8)));
                if (!query.containsKey("labelSelector") && !query.containsKey("fieldSelector")) {
                    meta.put("remainingItemCount", items.size() - to);
                }
            }
            return json(200, list);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String key(JsonNode item) {
        String ns = item.path("metadata").path("namespace").asText("");
        String name = item.path("metadata").path("name").asText("");
        return ns.isEmpty() ? name : ns + "/" + name;
    }

    private MockResponse discovery(String path) {
        if (path.equals("/api")) {
            ObjectNode v = JSON.createObjectNode().put("kind", "APIVersions");
            v.putArray("versions").add("v1");
            return json(200, v);
        }
        if (path.equals("/apis")) {
            ObjectNode list = JSON.createObjectNode().put("kind", "APIGroupList").put("apiVersion", "v1");
            ArrayNode groups = list.putArray("groups");
            Map<String, List<String>> versions = new LinkedHashMap<>();
            for (Resource r : served) {
                if (!r.group().isEmpty()) {
                    List<String> vs = versions.computeIfAbsent(r.group(), k -> new ArrayList<>());
                    if (!vs.contains(r.version())) {
                        vs.add(r.version());
                    }
                }
            }
            versions.forEach((g, vs) -> {
                ObjectNode group = groups.addObject().put("name", g);
                ArrayNode gv = group.putArray("versions");
                vs.forEach(v -> gv.addObject().put("groupVersion", g + "/" + v).put("version", v));
                group.putObject("preferredVersion").put("groupVersion", g + "/" + vs.get(0)).put("version", vs.get(0));
            });
            return json(200, list);
        }
        String gv = path.startsWith("/api/") ? path.substring(5) : path.startsWith("/apis/") ? path.substring(6) : null;
        if (gv == null || gv.chars().filter(c -> c == '/').count() > (path.startsWith("/api/") ? 0 : 1)) {
            return null;
        }
        List<Resource> in = served.stream().filter(r -> r.groupVersion().equals(gv)).toList();
        if (in.isEmpty()) {
            return status(404, "NotFound", "the server could not find the requested resource");
        }
        ObjectNode list = JSON.createObjectNode().put("kind", "APIResourceList").put("apiVersion", "v1")
                .put("groupVersion", gv);
        ArrayNode resources = list.putArray("resources");
        for (Resource r : in) {
            ObjectNode res = resources.addObject().put("name", r.plural()).put("singularName", "")
                    .put("namespaced", r.namespaced()).put("kind", r.kind());
            ArrayNode verbs = res.putArray("verbs");
            List.of("create", "delete", "get", "list", "patch", "update", "watch").forEach(verbs::add);
            if (r.kind().equals("Pod")) {
                resources.addObject().put("name", "pods/status").put("singularName", "").put("namespaced", true)
                        .put("kind", "Pod").putArray("verbs").add("get").add("patch").add("update");
            }
        }
        return json(200, list);
    }

    private static String resourceName(String path) {
        String[] parts = path.split("/");
        return parts[parts.length - 1];
    }

    private static MockResponse status(int code, String reason, String message) {
        ObjectNode s = JSON.createObjectNode().put("kind", "Status").put("apiVersion", "v1").put("status", "Failure")
                .put("message", message).put("reason", reason).put("code", code);
        return json(code, s);
    }

    private static MockResponse json(int code, JsonNode body) {
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json")
                .setBody(body.toString());
    }

    private static Map<String, String> query(String q) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String part : q.split("&")) {
            if (part.isEmpty()) {
                continue;
            }
            int eq = part.indexOf('=');
            String k = eq < 0 ? part : part.substring(0, eq);
            String v = eq < 0 ? "" : URLDecoder.decode(part.substring(eq + 1), StandardCharsets.UTF_8);
            out.put(k, v);
        }
        return out;
    }
}
