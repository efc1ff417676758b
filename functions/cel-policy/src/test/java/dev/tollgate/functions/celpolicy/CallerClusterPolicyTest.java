package dev.tollgate.functions.celpolicy;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.tollgate.cel.admission.ClusterConnection;
import dev.tollgate.cel.admission.ClusterContexts;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.NamespaceOptions;
import dev.tollgate.testing.AdmissionTester;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/**
 * One cel-policy serving two clusters (fabric8's mock API servers, one per cluster): the same review gets, from each
 * cluster, the decision that cluster's namespace labels make, because the request carries the caller's cluster (the
 * runtime's, from its credential) and the policy reads namespaces through that cluster's connection.
 */
class CallerClusterPolicyTest {

    private final Map<String, KubernetesMockServer> servers = new LinkedHashMap<>();

    @BeforeEach
    void clusters() {
        // The same namespace name, labelled differently in each cluster.
        servers.put("east", cluster("registry.east.example.com"));
        servers.put("west", cluster("registry.west.example.com"));
    }

    @AfterEach
    void stop() {
        servers.values().forEach(KubernetesMockServer::destroy);
    }

    private static KubernetesMockServer cluster(String registry) {
        KubernetesMockServer server = new KubernetesMockServer(false);
        server.init();
        server.expect().get().withPath("/api/v1/namespaces/shop").andReturn(200, new NamespaceBuilder()
                .withNewMetadata().withName("shop").addToLabels("registry", registry)
                .addToLabels("kubernetes.io/metadata.name", "shop").endMetadata().build()).always();
        return server;
    }

    private AdmissionTester tester() {
        Map<String, ClusterConnection> connections = new LinkedHashMap<>();
        servers.forEach((name, server) -> connections.put(name, ClusterConnection.of(URI.create(server.url("/")),
                () -> "token", null)));
        NamespaceOptions options = NamespaceOptions.read("tollgate.cel-policy", key -> Optional.empty())
                .withClusters(ClusterContexts.of(connections));
        return AdmissionTester.of(new CelPolicy(ValidatingPolicies.load(
                ConfigFiles.parse(ClusterNamespacesPolicyTest.POLICY, "test.yaml"), CelPolicy.environment("none"),
                options)));
    }

    @Test
    void theSameReviewGetsEachClustersDecision() {
        AdmissionTester t = tester();
        var east = Policies.deployment("shop", 1, "registry.east.example.com/web:1");
        t.cluster("east").create(east).assertAllowed();
        t.cluster("west").create(east).assertDenied().withCode(422)
                .withMessageContaining("namespace shop runs images from registry.west.example.com only");
        var west = Policies.deployment("shop", 1, "registry.west.example.com/web:1");
        t.cluster("west").create(west).assertAllowed();
        t.cluster("east").create(west).assertDenied()
                .withMessageContaining("namespace shop runs images from registry.east.example.com only");
    }

    @Test
    void aClusterWithoutAConnectionNeverGetsAnothersNamespaces() {
        // Bound without a selector: namespaceObject must be read, and the unknown cluster's lookup fails the request.
        String unbound = ClusterNamespacesPolicyTest.POLICY.substring(0,
                ClusterNamespacesPolicyTest.POLICY.indexOf("  matchResources:"));
        Map<String, ClusterConnection> connections = new LinkedHashMap<>();
        servers.forEach((name, server) -> connections.put(name, ClusterConnection.of(URI.create(server.url("/")),
                () -> "token", null)));
        NamespaceOptions options = NamespaceOptions.read("tollgate.cel-policy", key -> Optional.empty())
                .withClusters(ClusterContexts.of(connections));
        AdmissionTester.of(new CelPolicy(ValidatingPolicies.load(ConfigFiles.parse(unbound, "test.yaml"),
                CelPolicy.environment("none"), options))).cluster("north")
                .create(Policies.deployment("shop", 1, "registry.east.example.com/web:1"))
                .assertDenied().withMessageContaining("no connection to cluster \"north\" is configured");
    }
}
