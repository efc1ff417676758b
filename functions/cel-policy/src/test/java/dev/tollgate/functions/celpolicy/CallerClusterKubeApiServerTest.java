package dev.tollgate.functions.celpolicy;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.NamespaceOptions;
import dev.tollgate.testing.AdmissionTester;
import dev.tollgate.testing.KubeApiServer;

/**
 * One cel-policy, two real kube-apiservers (../shared/tools/kube-apiserver) holding a namespace of the same name with
 * different labels, configured as the function is (tollgate.clusters.*): the same review gets each cluster's
 * decision by the cluster the request names, which the runtime takes from the caller's credential. Skipped, with a
 * SKIPPED line, where the kit is not set up.
 */
class CallerClusterKubeApiServerTest {

    static KubeApiServer east;
    static KubeApiServer west;

    @BeforeAll
    static void clusters() {
        east = KubeApiServer.start("CallerClusterKubeApiServerTest", "caller-cluster-cel-east").orElse(null);
        if (east == null) {
            return;
        }
        west = KubeApiServer.start("CallerClusterKubeApiServerTest", "caller-cluster-cel-west").orElseThrow();
        east.apply(namespace("registry.east.example.com"));
        west.apply(namespace("registry.west.example.com"));
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

    /** v1.20 does not label namespaces with their name (1.21+): the manifest does, as a current API server would. */
    static String namespace(String registry) {
        return "{apiVersion: v1, kind: Namespace, metadata: {name: shop, labels: {registry: " + registry
                + ", kubernetes.io/metadata.name: shop}}}\n";
    }

    @Test
    void theSameReviewGetsEachClustersDecision() {
        assumeTrue(east != null);
        Map<String, String> settings = Map.of(
                "tollgate.clusters.names", "east,west",
                "tollgate.clusters.east.kubeconfig", east.kubeconfig().toString(),
                "tollgate.clusters.west.url", west.url().toString(),
                "tollgate.clusters.west.ca-file", west.caFile().toString(),
                "tollgate.clusters.west.token-file", west.env("KAS_TOKEN_FILE"));
        NamespaceOptions options = NamespaceOptions.read("tollgate.cel-policy",
                key -> Optional.ofNullable(settings.get(key)));
        AdmissionTester t = AdmissionTester.of(new CelPolicy(ValidatingPolicies.load(
                ConfigFiles.parse(ClusterNamespacesPolicyTest.POLICY, "test.yaml"), CelPolicy.environment("none"),
                options)));
        var image = Policies.deployment("shop", 1, "registry.east.example.com/web:1");
        t.cluster("east").create(image).assertAllowed();
        t.cluster("west").create(image).assertDenied().withCode(422)
                .withMessageContaining("namespace shop runs images from registry.west.example.com only");
        // A cluster the function has no connection to: its lookups fail, never served from east or west.
        t.cluster("north").create(image).assertAllowed(); // failurePolicy Ignore: the selector cannot be decided
    }
}
