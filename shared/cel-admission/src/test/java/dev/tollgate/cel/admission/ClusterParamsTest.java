package dev.tollgate.cel.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.match.LabelSelector;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/**
 * Params read from the review's cluster (fabric8's mock API server in expectation mode): discovery, a GET by name,
 * a LIST by selector, what is kept and what is asked again, and the API server's words for every failure
 * (k8s.io/apiserver pkg/admission/plugin/policy/generic/policy_dispatcher.go, CollectParams; policy_source.go for
 * an unknown paramKind).
 */
@EnableKubernetesMockClient(https = false)
class ClusterParamsTest {

    KubernetesMockServer server;

    /** The replica limit with its limit in a ConfigMap of the request's namespace, which the files do not hold. */
    static final String POLICY = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: replicas}
            spec:
              paramKind: {apiVersion: v1, kind: ConfigMap}
              matchConstraints:
                resourceRules:
                - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
              validations:
              - expression: object.spec.replicas <= int(params.data.max)
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicyBinding
            metadata: {name: by-name}
            spec:
              policyName: replicas
              validationActions: [Deny]
              paramRef: {name: limits, parameterNotFoundAction: Deny}
            """;

    static final Map<String, Object> CORE_V1 = Map.of("kind", "APIResourceList", "apiVersion", "v1", "groupVersion",
            "v1", "resources", List.of(
                    Map.of("name", "configmaps", "singularName", "configmap", "namespaced", true, "kind", "ConfigMap",
                            "verbs", List.of("get", "list")),
                    Map.of("name", "namespaces", "singularName", "namespace", "namespaced", false, "kind",
                            "Namespace", "verbs", List.of("get", "list")),
                    Map.of("name", "namespaces/status", "singularName", "", "namespaced", false, "kind",
                            "Namespace", "verbs", List.of("get"))));

    static Map<String, Object> configMap(String name, String max, Map<String, String> labels) {
        return Map.of("apiVersion", "v1", "kind", "ConfigMap", "metadata", Map.of("name", name, "namespace", "shop",
                "labels", labels), "data", Map.of("max", max));
    }

    static Map<String, Object> status(int code, String reason, String message) {
        return Map.of("apiVersion", "v1", "kind", "Status", "status", "Failure", "message", message, "reason", reason,
                "code", code);
    }

    ClusterConnection connection() {
        return ClusterConnection.of(URI.create(server.url("/")), () -> "reader-token", null);
    }

    NamespaceOptions options() {
        return NamespaceOptions.read("test", key -> Optional.empty())
                .withClusters(ClusterContexts.of(Map.of("east", connection())));
    }

    static List<String> dispatch(PolicyDispatcher<PolicySpec, BindingSpec> dispatcher, String cluster,
            AdmissionRequest request) {
        List<String> calls = new ArrayList<>();
        dispatcher.dispatch(cluster, request, new PolicyDispatcher.Handler<>() {
            @Override
            public void configError(PolicySpec policy, BindingSpec binding, String message) {
                calls.add("error " + policy.name() + (binding == null ? "" : " " + binding.name()) + ": " + message);
            }

            @Override
            public void evaluate(PolicySpec policy, BindingSpec binding, ObjectNode param) {
                calls.add("evaluate " + binding.name() + " with " + (param == null ? "no param"
                        : param.path("apiVersion").asText() + " " + param.path("kind").asText() + " "
                                + param.path("metadata").path("name").asText() + " max "
                                + param.path("data").path("max").asText()));
            }
        });
        return calls;
    }

    PolicyDispatcher<PolicySpec, BindingSpec> dispatcher(String yaml, NamespaceOptions options) {
        return new PolicyDispatcher<>(PolicyConfig.load(ConfigFiles.parse(yaml, "test.yaml"), Configs.VAP, options),
                p -> p, b -> b);
    }

    @Test
    void aParamByNameComesFromTheReviewsClusterAndIsKeptForTheTtl() throws Exception {
        server.expect().get().withPath("/api/v1").andReturn(200, CORE_V1).always();
        server.expect().get().withPath("/api/v1/namespaces/shop/configmaps/limits")
                .andReturn(200, configMap("limits", "3", Map.of())).always();
        var dispatcher = dispatcher(POLICY, options());
        for (int i = 0; i < 2; i++) {
            assertEquals(List.of("evaluate by-name with v1 ConfigMap limits max 3"),
                    dispatch(dispatcher, "east", Requests.createDeployment("shop", 5)));
        }
        // Discovery once, the ConfigMap once: the second review is answered from the cache.
        assertEquals(2, server.getRequestCount());
        assertEquals("Bearer reader-token", server.getLastRequest().getHeader("Authorization"));
    }

    @Test
    void aParamBySelectorIsOneListWithTheLabelSelector() throws Exception {
        server.expect().get().withPath("/api/v1").andReturn(200, CORE_V1).always();
        String query = "labelSelector=" + java.net.URLEncoder.encode("!legacy,tier in (gold,silver)",
                java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
        server.expect().get().withPath("/api/v1/namespaces/shop/configmaps?" + query).andReturn(200, Map.of(
                "apiVersion", "v1", "kind", "ConfigMapList", "metadata", Map.of(), "items", List.of(
                        configMap("gold", "10", Map.of("tier", "gold")),
                        configMap("silver", "5", Map.of("tier", "silver"))))).always();
        String yaml = POLICY.replace("paramRef: {name: limits, parameterNotFoundAction: Deny}", "paramRef: {selector: "
                + "{matchExpressions: [{key: tier, operator: In, values: [silver, gold]}, {key: legacy, operator: "
                + "DoesNotExist}]}, parameterNotFoundAction: Deny}");
        var dispatcher = dispatcher(yaml, options());
        assertEquals(List.of("evaluate by-name with v1 ConfigMap gold max 10",
                "evaluate by-name with v1 ConfigMap silver max 5"),
                dispatch(dispatcher, "east", Requests.createDeployment("shop", 5)));
        dispatch(dispatcher, "east", Requests.createDeployment("shop", 5));
        assertEquals(2, server.getRequestCount());
    }

    @Test
    void aMissingParamUnderDenyFailsTheBindingAndIsAskedForAgain() {
        server.expect().get().withPath("/api/v1").andReturn(200, CORE_V1).always();
        server.expect().get().withPath("/api/v1/namespaces/shop/configmaps/limits")
                .andReturn(404, status(404, "NotFound", "configmaps \"limits\" not found")).always();
        var dispatcher = dispatcher(POLICY, options());
        for (int i = 0; i < 2; i++) {
            assertEquals(List.of("error replicas by-name: failed to configure binding: no params found for policy "
                    + "binding with `Deny` parameterNotFoundAction"),
                    dispatch(dispatcher, "east", Requests.createDeployment("shop", 5)));
        }
        // Not found is not kept: created a moment later, the param is used by the next review.
        assertEquals(3, server.getRequestCount());
        var allow = dispatcher(POLICY.replace("parameterNotFoundAction: Deny", "parameterNotFoundAction: Allow"),
                options());
        assertEquals(List.of(), dispatch(allow, "east", Requests.createDeployment("shop", 5)));
    }

    @Test
    void aForbiddenListKeepsTheApiServersWordsAndIsNotKept() {
        server.expect().get().withPath("/api/v1").andReturn(200, CORE_V1).always();
        String forbidden = "configmaps is forbidden: User \"system:serviceaccount:tollgate:tollgate-reader\" cannot "
                + "list resource \"configmaps\" in API group \"\" in the namespace \"shop\"";
        server.expect().get().withPath("/api/v1/namespaces/shop/configmaps?labelSelector=tier")
                .andReturn(403, status(403, "Forbidden", forbidden)).always();
        String yaml = POLICY.replace("paramRef: {name: limits, parameterNotFoundAction: Deny}",
                "paramRef: {selector: {matchExpressions: [{key: tier, operator: Exists}]}, "
                        + "parameterNotFoundAction: Allow}");
        var dispatcher = dispatcher(yaml, options());
        for (int i = 0; i < 2; i++) {
            assertEquals(List.of("error replicas by-name: failed to configure binding: " + forbidden),
                    dispatch(dispatcher, "east", Requests.createDeployment("shop", 5)));
        }
        assertEquals(3, server.getRequestCount());
    }

    @Test
    void aParamKindTheClusterDoesNotServeFailsThePolicyAsTheApiServerSays() {
        server.expect().get().withPath("/apis/rules.example.com/v1")
                .andReturn(404, status(404, "NotFound", "the server could not find the requested resource")).always();
        server.expect().get().withPath("/api/v1").andReturn(200, CORE_V1).always();
        String crd = POLICY.replace("{apiVersion: v1, kind: ConfigMap}", "{apiVersion: rules.example.com/v1, kind: "
                + "ReplicaLimit}");
        assertEquals(List.of("error replicas: failed to configure policy: failed to find resource referenced by "
                + "paramKind: 'rules.example.com/v1, Kind=ReplicaLimit'"),
                dispatch(dispatcher(crd, options()), "east", Requests.createDeployment("shop", 5)));
        // A served group/version without the kind: the same.
        String secretish = POLICY.replace("kind: ConfigMap}", "kind: Limit}");
        assertEquals(List.of("error replicas: failed to configure policy: failed to find resource referenced by "
                + "paramKind: '/v1, Kind=Limit'"),
                dispatch(dispatcher(secretish, options()), "east", Requests.createDeployment("shop", 5)));
    }

    @Test
    void aClusterWithoutAConnectionGetsNoOtherClustersParams() {
        server.expect().get().withPath("/api/v1").andReturn(200, CORE_V1).always();
        server.expect().get().withPath("/api/v1/namespaces/shop/configmaps/limits")
                .andReturn(200, configMap("limits", "3", Map.of())).always();
        var dispatcher = dispatcher(POLICY, options());
        assertEquals(List.of("error replicas: failed to configure policy: no connection to cluster \"north\" is "
                + "configured (known: east)"), dispatch(dispatcher, "north", Requests.createDeployment("shop", 5)));
        assertEquals(0, server.getRequestCount());
    }

    @Test
    void anUnreachableApiServerFailsThePolicyNamingTheDiscoveryRequest() throws Exception {
        int port;
        try (var socket = new java.net.ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        ClusterConnection gone = ClusterConnection.of(URI.create("http://127.0.0.1:" + port), () -> "t", null);
        var options = NamespaceOptions.read("test", key -> Optional.empty())
                .withClusters(ClusterContexts.of(Map.of("east", gone)));
        List<String> calls = dispatch(dispatcher(POLICY, options), "east", Requests.createDeployment("shop", 5));
        assertEquals(1, calls.size());
        assertTrue(calls.get(0).startsWith("error replicas: failed to configure policy: failed to find resource "
                + "referenced by paramKind: '/v1, Kind=ConfigMap' (discovery: GET http://127.0.0.1:" + port
                + "/api/v1: "), calls.get(0));
    }

    @Test
    void concurrentReviewsShareOneGet() throws Exception {
        server.expect().get().withPath("/api/v1").andReturn(200, CORE_V1).always();
        server.expect().get().delay(500, TimeUnit.MILLISECONDS)
                .withPath("/api/v1/namespaces/shop/configmaps/limits")
                .andReturn(200, configMap("limits", "3", Map.of())).always();
        var dispatcher = dispatcher(POLICY, options());
        dispatch(dispatcher, "east", Requests.createPod("shop", "{}")); // matches nothing: no request
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<List<String>>> results = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                results.add(pool.submit(() -> {
                    start.await();
                    return dispatch(dispatcher, "east", Requests.createDeployment("shop", 5));
                }));
            }
            start.countDown();
            for (var r : results) {
                assertEquals(List.of("evaluate by-name with v1 ConfigMap limits max 3"), r.get(30, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(2, server.getRequestCount());
    }

    @Test
    void aKindWithObjectsInTheFilesIsAnsweredFromThemEvenWithAConnection() {
        String yaml = POLICY + "---\n{apiVersion: v1, kind: ConfigMap, metadata: {name: limits, namespace: shop}, "
                + "data: {max: '7'}}\n";
        assertEquals(List.of("evaluate by-name with v1 ConfigMap limits max 7"),
                dispatch(dispatcher(yaml, options()), "east", Requests.createDeployment("shop", 5)));
        // params=config keeps the files the only source: a kind they do not hold is not known.
        assertEquals(List.of("error replicas by-name: failed to configure binding: paramKind kind `ConfigMap.v1` not "
                + "known: no object of that kind is configured"),
                dispatch(dispatcher(POLICY, options().withParams(NamespaceOptions.Source.CONFIG)), "east",
                        Requests.createDeployment("shop", 5)));
        assertEquals(0, server.getRequestCount());
    }

    @Test
    void aClusterScopedKindRefusesAParamRefNamespaceAsUpstream() {
        server.expect().get().withPath("/api/v1").andReturn(200, CORE_V1).always();
        String yaml = POLICY.replace("kind: ConfigMap}", "kind: Namespace}")
                .replace("{name: limits, parameterNotFoundAction", "{name: limits, namespace: shop, "
                        + "parameterNotFoundAction");
        assertEquals(List.of("error replicas by-name: failed to configure binding: paramRef.namespace must not be "
                + "provided for a cluster-scoped `paramKind`"),
                dispatch(dispatcher(yaml, options()), "east", Requests.createDeployment("shop", 5)));
    }

    @Test
    void theSettingsAreCheckedAndNamedByKey() {
        assertEquals("test.params must be auto, config or cluster, got 'api'", assertThrows(
                IllegalArgumentException.class, () -> NamespaceOptions.read("test",
                        key -> Optional.ofNullable(Map.of("test.params", "api").get(key)))).getMessage());
        assertEquals("test.param-cache-size must be a whole number, got 'many'", assertThrows(
                IllegalArgumentException.class, () -> NamespaceOptions.read("test",
                        key -> Optional.ofNullable(Map.of("test.param-cache-size", "many").get(key)))).getMessage());
        assertEquals("test.param-lookup-timeout must be a duration such as 30s, 500ms or PT1M, got 'soon'",
                assertThrows(IllegalArgumentException.class, () -> NamespaceOptions.read("test",
                        key -> Optional.ofNullable(Map.of("test.param-lookup-timeout", "soon").get(key))))
                        .getMessage());
        String withParam = POLICY + "---\n{apiVersion: v1, kind: ConfigMap, metadata: {name: limits, namespace: shop}}\n";
        var e = assertThrows(PolicyConfig.InvalidConfigException.class, () -> dispatcher(withParam,
                options().withParams(NamespaceOptions.Source.CLUSTER)));
        assertTrue(e.getMessage().contains("params=cluster reads every param from the Kubernetes API, but the "
                + "configuration files hold 1 param objects"), e.getMessage());
        var none = assertThrows(PolicyConfig.InvalidConfigException.class, () -> dispatcher(POLICY,
                options().withParams(NamespaceOptions.Source.CLUSTER).withClusters(ClusterContexts.none())));
        assertTrue(none.getMessage().contains("params=cluster, but no cluster connection is configured"),
                none.getMessage());
    }

    @Test
    void aSelectorBecomesOneQueryWhateverTheOrderItWasWrittenIn() {
        LabelSelector a = LabelSelector.parse(Requests.json("{'matchLabels': {'tier': 'gold'}, 'matchExpressions': "
                + "[{'key': 'zone', 'operator': 'NotIn', 'values': ['b', 'a']}, {'key': 'beta', 'operator': "
                + "'Exists'}]}"));
        LabelSelector b = LabelSelector.parse(Requests.json("{'matchExpressions': [{'key': 'beta', 'operator': "
                + "'Exists'}, {'key': 'zone', 'operator': 'NotIn', 'values': ['a', 'b']}, {'key': 'tier', "
                + "'operator': 'In', 'values': ['gold']}]}"));
        assertEquals("beta,tier in (gold),zone notin (a,b)", ClusterParams.selector(a));
        assertEquals(ClusterParams.selector(a), ClusterParams.selector(b));
        assertEquals("", ClusterParams.selector(LabelSelector.everything()));
    }

    @Test
    void theCacheIsBoundedAndExpires() {
        server.expect().get().withPath("/api/v1").andReturn(200, CORE_V1).always();
        for (String name : List.of("a", "b")) {
            server.expect().get().withPath("/api/v1/namespaces/shop/configmaps/" + name)
                    .andReturn(200, configMap(name, "1", Map.of())).always();
        }
        long[] now = { 0 };
        ClusterParams params = new ClusterParams(connection(), new ClusterParams.Settings(Duration.ofSeconds(30), 1,
                Duration.ofSeconds(2)), () -> now[0]);
        Params.Kind kind = new Params.Kind("v1", "ConfigMap");
        var request = Requests.createDeployment("shop", 1);
        java.util.function.Function<String, Params.Ref> ref = n -> new Params.Ref(n, "", null,
                Params.NotFoundAction.Deny);
        params.collect(kind, ref.apply("a"), request); // discovery + a
        params.collect(kind, ref.apply("a"), request);
        assertEquals(2, params.apiCalls());
        params.collect(kind, ref.apply("b"), request); // at most one object kept: b pushes a out
        params.collect(kind, ref.apply("a"), request);
        assertEquals(4, params.apiCalls());
        now[0] += Duration.ofSeconds(31).toNanos();
        params.collect(kind, ref.apply("a"), request); // expired: discovery and a again
        assertEquals(6, params.apiCalls());
    }
}
