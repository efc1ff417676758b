package dev.tollgate.cel.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/**
 * Namespaces from the Kubernetes API (fabric8's mock API server in CRUD mode stands in for it): labels for
 * namespaceSelector, namespaceObject, the cache, and lookups that fail as they do in the API server
 * (k8s.io/apiserver pkg/admission/plugin/webhook/predicates/namespace/matcher.go and the policy dispatchers).
 */
@EnableKubernetesMockClient(crud = true, https = false)
class ClusterNamespacesTest {

    static final String TOKEN = "sa-token-for-tests";

    KubernetesClient client;
    KubernetesMockServer server;
    AtomicLong clock;

    @BeforeEach
    void namespaces() {
        clock = new AtomicLong();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("staging")
                .addToLabels("environment", "test").addToAnnotations("owner", "qa").endMetadata().build()).create();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("shop")
                .addToLabels("environment", "production").endMetadata().build()).create();
    }

    ClusterConnection connection() {
        return ClusterConnection.of(URI.create(server.url("/")), () -> TOKEN, null);
    }

    ClusterNamespaces source(Duration ttl, int size) {
        return new ClusterNamespaces(connection(), new ClusterNamespaces.Settings(ttl, size, Duration.ofSeconds(2)),
                clock::get);
    }

    /** The replica limit with no Namespace objects in the files: namespaces come from the API (auto). */
    PolicyConfig<PolicySpec, BindingSpec> fromTheApi() {
        String yaml = Configs.REPLICA_LIMIT.substring(0, Configs.REPLICA_LIMIT.indexOf("{apiVersion: v1, kind: Namespace"));
        NamespaceOptions options = NamespaceOptions.read("test", key -> Optional.empty())
                .withClusters(ClusterContexts.of(Map.of(ClusterContexts.DEFAULT, connection())));
        return PolicyConfig.load(ConfigFiles.parse(yaml, "test.yaml"), Configs.VAP, options);
    }

    static List<String> dispatch(PolicyConfig<PolicySpec, BindingSpec> config, AdmissionRequest request) {
        List<String> calls = new ArrayList<>();
        new PolicyDispatcher<>(config, p -> p, b -> b).dispatch(request, new PolicyDispatcher.Handler<>() {
            @Override
            public void configError(PolicySpec policy, BindingSpec binding, String message) {
                calls.add("error " + (binding == null ? "" : binding.name()) + ": " + message);
            }

            @Override
            public void evaluate(PolicySpec policy, BindingSpec binding, ObjectNode param) {
                calls.add("evaluate " + binding.name());
            }
        });
        return calls;
    }

    @Test
    void labelsFromTheApiDriveTheBindingsNamespaceSelector() {
        PolicyConfig<PolicySpec, BindingSpec> config = fromTheApi();
        assertTrue(config.summary("policies").contains("namespaces: per cluster from the Kubernetes API, 1 cluster (default: http"),
                config.summary("policies"));
        assertEquals(List.of("evaluate replicalimit-binding-test.example.com"),
                dispatch(config, Requests.createDeployment("staging", 5)));
        assertEquals(List.of("evaluate replicalimit-binding-prod.example.com"),
                dispatch(config, Requests.createDeployment("shop", 5)));
        // A label changed in the cluster is seen once the cached copy expires (a new source: nothing cached).
        client.namespaces().withName("shop").edit(ns -> new NamespaceBuilder(ns).editMetadata()
                .addToLabels("environment", "test").endMetadata().build());
        assertEquals(List.of("evaluate replicalimit-binding-test.example.com"),
                dispatch(fromTheApi(), Requests.createDeployment("shop", 5)));
    }

    @Test
    void namespaceObjectIsTheApisNamespaceTrimmedAsTheApiServerDoes() throws InterruptedException {
        Namespaces namespaces = Namespaces.from(source(Duration.ofSeconds(30), 10));
        ObjectNode ns = namespaces.namespaceObject(Requests.createPod("staging", "{}"));
        assertEquals("staging", ns.path("metadata").path("name").asText());
        assertEquals("test", ns.path("metadata").path("labels").path("environment").asText());
        assertEquals("qa", ns.path("metadata").path("annotations").path("owner").asText());
        assertFalse(ns.has("apiVersion"), "built without type metadata, as the API server's namespaceObject");
        assertTrue(ns.path("metadata").has("uid"));
        assertEquals("Bearer " + TOKEN, server.getLastRequest().getHeader("Authorization"));
        assertEquals("/api/v1/namespaces/staging", server.getLastRequest().getPath());
    }

    @Test
    void aSecondReviewInTheSameNamespaceSendsNoSecondGet() {
        ClusterNamespaces source = source(Duration.ofSeconds(30), 10);
        Namespaces namespaces = Namespaces.from(source);
        int before = server.getRequestCount();
        namespaces.labelsFor(Requests.createDeployment("staging", 1));
        namespaces.namespaceObject(Requests.createDeployment("staging", 1));
        assertEquals(1, server.getRequestCount() - before);
        assertEquals(1, source.apiCalls());
        clock.addAndGet(Duration.ofSeconds(29).toNanos());
        namespaces.labelsFor(Requests.createDeployment("staging", 1));
        assertEquals(1, source.apiCalls(), "still within the TTL");
        clock.addAndGet(Duration.ofSeconds(2).toNanos());
        namespaces.labelsFor(Requests.createDeployment("staging", 1));
        assertEquals(2, source.apiCalls(), "expired: read again");
        assertEquals(2, server.getRequestCount() - before);
    }

    @Test
    void theCacheKeepsAtMostItsSizeDroppingTheLeastRecentlyUsed() {
        ClusterNamespaces source = source(Duration.ofMinutes(5), 1);
        source.get("staging");
        source.get("shop");     // staging dropped
        source.get("shop");     // cached
        source.get("staging");  // read again
        assertEquals(3, source.apiCalls());
    }

    @Test
    void aNamespaceThatDoesNotExistIsNotFoundAsInTheApiServer() {
        PolicyConfig<PolicySpec, BindingSpec> config = fromTheApi();
        String error = "error %s: failed to configure binding: namespaces \"nowhere\" not found";
        assertEquals(List.of(error.formatted("replicalimit-binding-prod.example.com"),
                error.formatted("replicalimit-binding-test.example.com")),
                dispatch(config, Requests.createDeployment("nowhere", 5)));
        NamespaceLookupException e = assertThrows(NamespaceLookupException.class,
                () -> config.namespaces().namespaceObject(Requests.createPod("nowhere", "{}")));
        assertEquals(404, e.code());
        assertEquals("namespaces \"nowhere\" not found", e.getMessage());
        assertEquals(404, e.denial().code());
        assertEquals("NotFound", e.denial().reason());
    }

    @Test
    void failuresAreNotCached() {
        ClusterNamespaces source = source(Duration.ofMinutes(5), 10);
        assertThrows(NamespaceLookupException.class, () -> source.get("later"));
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("later").endMetadata()
                .build()).create();
        assertEquals("later", source.get("later").path("metadata").path("name").asText());
        assertEquals(2, source.apiCalls());
    }

    @Test
    void aNameThatCannotBeANamespaceIsNotFoundWithoutACall() {
        ClusterNamespaces source = source(Duration.ofMinutes(5), 10);
        assertEquals(404, assertThrows(NamespaceLookupException.class, () -> source.get("../pods")).code());
        assertEquals(0, source.apiCalls());
    }

    @Test
    void clusterScopedRequestsAndNamespacesThemselvesNeedNoLookup() {
        ClusterNamespaces source = source(Duration.ofMinutes(5), 10);
        Namespaces namespaces = Namespaces.from(source);
        assertNull(namespaces.namespaceObject(Requests.createPod("", "{}")));
        assertEquals(0, source.apiCalls());
    }

    @Test
    void theFilesWinOverTheApiAndTheDefaultIsWhatTheSimulatorAssumes() {
        NamespaceOptions auto = NamespaceOptions.read("test", key -> Optional.empty())
                .withClusters(ClusterContexts.of(Map.of(ClusterContexts.DEFAULT, connection())));
        // 1. Namespace objects in the files: those, the rest as unknown-namespace says (default: name label only).
        Namespaces files = PolicyConfig.load(ConfigFiles.parse(Configs.REPLICA_LIMIT, "t.yaml"), Configs.VAP, auto)
                .namespaces();
        assertEquals(Map.of("kubernetes.io/metadata.name", "elsewhere"),
                files.labelsFor(Requests.createDeployment("elsewhere", 1)));
        assertEquals(Map.of("environment", "test", "kubernetes.io/metadata.name", "staging"),
                files.labelsFor(Requests.createDeployment("staging", 1)));
        // 2. none in the files, in a cluster: the API (see labelsFromTheApi...); 3. neither: the simulator's default.
        Namespaces neither = auto.withClusters(ClusterContexts.none()).choose(Namespaces.of(Map.of(),
                Namespaces.Unknown.EMPTY)).of(ClusterContexts.DEFAULT);
        assertEquals(Map.of("kubernetes.io/metadata.name", "staging"),
                neither.labelsFor(Requests.createDeployment("staging", 1)));
        int before = server.getRequestCount();
        files.labelsFor(Requests.createDeployment("shop", 1));
        neither.labelsFor(Requests.createDeployment("shop", 1));
        assertEquals(before, server.getRequestCount(), "no API call when the files or the default decide");
    }

    @Test
    void clusterModeRefusesWhatItCannotHonour() {
        NamespaceOptions cluster = NamespaceOptions.read("tollgate.cel-policy",
                key -> key.endsWith(".namespaces") ? Optional.of("cluster") : Optional.empty());
        PolicyConfig.InvalidConfigException withFiles = assertThrows(PolicyConfig.InvalidConfigException.class,
                () -> PolicyConfig.load(ConfigFiles.parse(Configs.REPLICA_LIMIT, "t.yaml"), Configs.VAP,
                        cluster.withClusters(ClusterContexts.of(Map.of(ClusterContexts.DEFAULT, connection())))));
        assertTrue(withFiles.getMessage().contains("the configuration files hold 3 Namespace objects"),
                withFiles.getMessage());
        IllegalArgumentException outside = assertThrows(IllegalArgumentException.class,
                () -> cluster.withClusters(ClusterContexts.none()).choose(Namespaces.of(Map.of(),
                        Namespaces.Unknown.EMPTY)));
        assertTrue(outside.getMessage().contains("not running in a cluster"), outside.getMessage());
    }

    @Test
    void badSettingsNameTheirKey() {
        assertEquals("tollgate.cel-policy.namespaces must be auto, config or cluster, got 'api'",
                assertThrows(IllegalArgumentException.class, () -> NamespaceOptions.read("tollgate.cel-policy",
                        key -> key.endsWith(".namespaces") ? Optional.of("api") : Optional.empty())).getMessage());
        assertEquals("tollgate.cel-mutate.namespace-cache-ttl must be a duration such as 30s, 500ms or PT1M, got "
                + "'soon'", assertThrows(IllegalArgumentException.class, () -> NamespaceOptions.read(
                        "tollgate.cel-mutate", key -> key.endsWith("-ttl") ? Optional.of("soon") : Optional.empty()))
                        .getMessage());
        NamespaceOptions tuned = NamespaceOptions.read("p", key -> Optional.ofNullable(Map.of(
                "p.namespace-cache-ttl", "500ms", "p.namespace-cache-size", "5", "p.namespace-lookup-timeout", "PT1S",
                "p.unknown-namespace", "error").get(key)));
        assertEquals(new ClusterNamespaces.Settings(Duration.ofMillis(500), 5, Duration.ofSeconds(1)), tuned.cluster());
        assertEquals(Namespaces.Unknown.ERROR, tuned.unknown());
        assertEquals(NamespaceOptions.Source.AUTO, tuned.source());
    }
}
