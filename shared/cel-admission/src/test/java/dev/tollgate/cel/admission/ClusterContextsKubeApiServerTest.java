package dev.tollgate.cel.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.testing.KubeApiServer;

/**
 * Two real kube-apiservers (../shared/tools/kube-apiserver) hold a namespace of the same name with different labels:
 * each cluster's reviews get that cluster's namespace, through that cluster's own connection, and a cluster whose
 * connection fails gets the API server's own error, never the other cluster's namespace (ARCHITECTURE.md,
 * decision 12). Skipped, with a SKIPPED line, where the kit is not set up.
 */
class ClusterContextsKubeApiServerTest {

    static KubeApiServer east;
    static KubeApiServer west;

    @BeforeAll
    static void clusters() {
        east = KubeApiServer.start("ClusterContextsKubeApiServerTest", "clusters-cel-east").orElse(null);
        if (east == null) {
            return;
        }
        west = KubeApiServer.start("ClusterContextsKubeApiServerTest", "clusters-cel-west").orElseThrow();
        // v1.20 does not label namespaces with their name (1.21+): the manifests do, as a current API server would.
        east.apply(namespace("shop", "production"));
        west.apply(namespace("shop", "test"));
    }

    @AfterAll
    static void stop() {
        if (east != null) {
            east.stop();
        }
        if (west != null) {
            west.stop();
        }
    }

    static String namespace(String name, String environment) {
        return "{apiVersion: v1, kind: Namespace, metadata: {name: " + name + ", labels: {environment: " + environment
                + ", kubernetes.io/metadata.name: " + name + "}}}\n";
    }

    /** The replica limit's policy, bindings and params without its Namespace objects: namespaces from the API. */
    static PolicyConfig<PolicySpec, BindingSpec> replicaLimit(Map<String, String> settings) {
        String yaml = Configs.REPLICA_LIMIT.substring(0, Configs.REPLICA_LIMIT.indexOf("{apiVersion: v1, kind: "
                + "Namespace"));
        // A lookup waits 30 s, not the 2 s default: on a busy machine a connection to a real API server can take
        // longer, and these tests are about what the API server answers, not how fast.
        Map<String, String> all = new HashMap<>(Map.of("tollgate.cel-policy.namespace-lookup-timeout", "30s"));
        all.putAll(settings);
        NamespaceOptions options = NamespaceOptions.read("tollgate.cel-policy", key -> Optional.ofNullable(all.get(key)));
        return PolicyConfig.load(ConfigFiles.parse(yaml, "test.yaml"), Configs.VAP, options);
    }

    static List<String> dispatch(PolicyConfig<PolicySpec, BindingSpec> config, String cluster,
            AdmissionRequest request) {
        List<String> calls = new ArrayList<>();
        new PolicyDispatcher<>(config, p -> p, b -> b).dispatch(cluster, request, new PolicyDispatcher.Handler<>() {
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
    void eachClusterGetsItsOwnNamespaceOfTheSameName() {
        assumeTrue(east != null);
        PolicyConfig<PolicySpec, BindingSpec> config = replicaLimit(Map.of(
                "tollgate.clusters.names", "east,west",
                "tollgate.clusters.east.kubeconfig", east.kubeconfig().toString(),
                // the other form: URL, CA and token files, as a mounted Secret gives them
                "tollgate.clusters.west.url", west.url().toString(),
                "tollgate.clusters.west.ca-file", west.caFile().toString(),
                "tollgate.clusters.west.token-file", west.env("KAS_TOKEN_FILE")));
        assertTrue(config.summary("policies").contains("2 clusters (east: kubeconfig " + east.kubeconfig()
                + "; west: " + west.url() + ")"), config.summary("policies"));
        AdmissionRequest shop = Requests.createDeployment("shop", 5);
        assertEquals(List.of("evaluate replicalimit-binding-prod.example.com"), dispatch(config, "east", shop));
        assertEquals(List.of("evaluate replicalimit-binding-test.example.com"), dispatch(config, "west", shop));
        assertEquals("production", config.namespacesPerCluster().of("east").namespaceObject(shop).path("metadata")
                .path("labels").path("environment").asText());
        // Relabelled in one cluster: the other's cached answer is not touched, and neither cluster sees the other.
        west.kubectl("label", "namespace", "shop", "environment=staging", "--overwrite");
        assertEquals(List.of("evaluate replicalimit-binding-prod.example.com"), dispatch(config, "east", shop));
        // A namespace only one cluster has is NotFound in the other, worded as its API server does.
        east.apply(namespace("payments", "production"));
        AdmissionRequest payments = Requests.createDeployment("payments", 5);
        assertEquals(List.of("evaluate replicalimit-binding-prod.example.com"), dispatch(config, "east", payments));
        String notFound = "failed to configure binding: namespaces \"payments\" not found";
        assertEquals(List.of("error replicalimit-binding-prod.example.com: " + notFound,
                "error replicalimit-binding-test.example.com: " + notFound), dispatch(config, "west", payments));
        // A review from a cluster without a connection never gets another cluster's namespaces.
        NamespaceLookupException none = assertThrows(NamespaceLookupException.class,
                () -> config.namespacesPerCluster().of("north").require("shop"));
        assertEquals("no connection to cluster \"north\" is configured (known: east, west)", none.getMessage());
    }

    @Test
    void aFailingConnectionGetsItsApiServersOwnError(@TempDir Path dir) throws Exception {
        assumeTrue(east != null);
        // A read-only identity without its RBAC yet: the API server's Forbidden, word for word.
        String reader = "system:serviceaccount:tollgate:namespace-reader";
        Path asReader = east.kubeconfigFor(reader, dir);
        Path badToken = dir.resolve("token");
        Files.writeString(badToken, "not-a-token");
        PolicyConfig<PolicySpec, BindingSpec> config = replicaLimit(Map.of(
                "tollgate.clusters.names", "east,west",
                "tollgate.clusters.east.kubeconfig", asReader.toString(),
                "tollgate.clusters.west.url", west.url().toString(),
                "tollgate.clusters.west.ca-file", west.caFile().toString(),
                "tollgate.clusters.west.token-file", badToken.toString()));
        AdmissionRequest shop = Requests.createDeployment("shop", 5);
        String forbidden = "namespaces \"shop\" is forbidden: User \"" + reader + "\" cannot get resource "
                + "\"namespaces\" in API group \"\" in the namespace \"shop\"";
        NamespaceLookupException e = assertThrows(NamespaceLookupException.class,
                () -> config.namespacesPerCluster().of("east").require("shop"));
        assertEquals(forbidden, e.getMessage());
        assertEquals(403, e.code());
        assertEquals("Forbidden", e.reason());
        String internal = "failed to configure binding: Internal error occurred: " + forbidden;
        assertEquals(List.of("error replicalimit-binding-prod.example.com: " + internal,
                "error replicalimit-binding-test.example.com: " + internal), dispatch(config, "east", shop));
        // A wrong token: the API server's Unauthorized.
        NamespaceLookupException unauthorized = assertThrows(NamespaceLookupException.class,
                () -> config.namespacesPerCluster().of("west").require("shop"));
        assertEquals(401, unauthorized.code());
        assertEquals("Unauthorized", unauthorized.getMessage());
        // The RBAC the Terraform module renders for each governed cluster: get on namespaces is enough; failures
        // are not cached, so the next review of the same namespace succeeds.
        east.apply("""
                apiVersion: rbac.authorization.k8s.io/v1
                kind: ClusterRole
                metadata: {name: tollgate-namespace-reader}
                rules:
                - {apiGroups: [""], resources: [namespaces], verbs: [get, list, watch]}
                ---
                apiVersion: rbac.authorization.k8s.io/v1
                kind: ClusterRoleBinding
                metadata: {name: tollgate-namespace-reader}
                roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: tollgate-namespace-reader}
                subjects:
                - {kind: User, apiGroup: rbac.authorization.k8s.io, name: "%s"}
                """.formatted(reader));
        for (int i = 0; i < 50 && !ready(config); i++) {
            Thread.sleep(100); // RBAC is applied by the API server's authorizer cache shortly after the write
        }
        assertEquals(List.of("evaluate replicalimit-binding-prod.example.com"), dispatch(config, "east", shop));
        assertFalse(dispatch(config, "west", shop).get(0).contains("production"), "west never gets east's answer");
    }

    private static boolean ready(PolicyConfig<PolicySpec, BindingSpec> config) {
        try {
            config.namespacesPerCluster().of("east").require("shop");
            return true;
        } catch (NamespaceLookupException e) {
            return false;
        }
    }
}
