package dev.tollgate.functions.celmutate;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.cel.admission.ClusterConnection;
import dev.tollgate.cel.admission.ClusterContexts;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.NamespaceOptions;
import dev.tollgate.testing.AdmissionTester;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/**
 * One cel-mutate serving two clusters (a mock API server each): the same pod review is mutated as the namespace
 * labels of the cluster that sent it say, the binding's namespaceSelector and namespaceObject both read from that
 * cluster.
 */
class CallerClusterMutateTest {

    private final Map<String, KubernetesMockServer> servers = new LinkedHashMap<>();

    @AfterEach
    void stop() {
        servers.values().forEach(KubernetesMockServer::destroy);
    }

    private void cluster(String name, Map<String, String> labels) {
        KubernetesMockServer server = new KubernetesMockServer(false);
        server.init();
        server.expect().get().withPath("/api/v1/namespaces/shop").andReturn(200, new NamespaceBuilder()
                .withNewMetadata().withName("shop").addToLabels(labels).endMetadata().build()).always();
        servers.put(name, server);
    }

    @Test
    void theSamePodIsMutatedAsItsClustersNamespaceSays() {
        cluster("east", Map.of("mesh", "enabled", "team", "storefront"));
        cluster("west", Map.of("team", "storefront")); // not in the mesh: not bound
        cluster("north", Map.of("mesh", "enabled", "team", "payments"));
        Map<String, ClusterConnection> connections = new LinkedHashMap<>();
        servers.forEach((name, server) -> connections.put(name, ClusterConnection.of(URI.create(server.url("/")),
                () -> "token", null)));
        NamespaceOptions options = NamespaceOptions.read("tollgate.cel-mutate", key -> Optional.empty())
                .withClusters(ClusterContexts.of(connections));
        AdmissionTester t = AdmissionTester.of(new CelMutate(MutatingPolicies.load(
                ConfigFiles.parse(ClusterNamespacesMutateTest.POLICY, "test.yaml"), CelMutate.environment("none"),
                options)));
        ObjectNode east = ClusterNamespacesMutateTest.pod("shop");
        east.withObject("/metadata").putObject("labels").put("team", "storefront");
        t.cluster("east").create(ClusterNamespacesMutateTest.pod("shop")).assertPatchedTo(east);
        t.cluster("west").create(ClusterNamespacesMutateTest.pod("shop")).assertAllowed().assertNoPatch();
        ObjectNode north = ClusterNamespacesMutateTest.pod("shop");
        north.withObject("/metadata").putObject("labels").put("team", "payments");
        t.cluster("north").create(ClusterNamespacesMutateTest.pod("shop")).assertPatchedTo(north);
    }
}
