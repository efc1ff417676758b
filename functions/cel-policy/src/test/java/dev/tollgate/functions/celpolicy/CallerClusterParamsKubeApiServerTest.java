package dev.tollgate.functions.celpolicy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.NamespaceOptions;
import dev.tollgate.testing.AdmissionTester;
import dev.tollgate.testing.KubeApiServer;
import dev.tollgate.testing.Manifests;

/**
 * One cel-policy, two real kube-apiservers (../shared/tools/kube-apiserver) holding the params of its policies,
 * configured as the function is (tollgate.clusters.*, no param in the files): the replica limit is a ConfigMap of a
 * different value in each cluster, so the same review gets each cluster's decision; the trusted registries are a
 * ConfigMap of one cluster only, so the other's reviews are denied with the API server's words for a missing param
 * under {@code parameterNotFoundAction: Deny}, and the first is unaffected. A reader identity without RBAC on the
 * param's resource gets the API server's Forbidden, and the next review passes once the role is applied. Skipped,
 * with a SKIPPED line, where the kit is not set up.
 */
class CallerClusterParamsKubeApiServerTest {

    static KubeApiServer east;
    static KubeApiServer west;

    static final String POLICIES = Policies.deploymentPolicy("replica-limit.example.com", """
            paramKind: {apiVersion: v1, kind: ConfigMap}
            validations:
            - expression: "object.spec.replicas <= int(params.data.maxReplicas)"
              messageExpression: "'at most ' + params.data.maxReplicas + ' replicas in this cluster'"
            """, "[Deny]") + """
              paramRef: {name: replica-limit, parameterNotFoundAction: Deny}
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: registries.example.com}
            spec:
              paramKind: {apiVersion: v1, kind: ConfigMap}
              matchConstraints:
                resourceRules:
                - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
              validations:
              - expression: "object.spec.containers.all(c, params.data.allowed.split(',').exists(r, c.image.startsWith(r + '/')))"
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicyBinding
            metadata: {name: registries-binding}
            spec:
              policyName: registries.example.com
              validationActions: [Deny]
              paramRef:
                namespace: tollgate-params
                selector: {matchLabels: {tollgate.dev/param: registries}}
                parameterNotFoundAction: Deny
            """;

    @BeforeAll
    static void clusters() {
        east = KubeApiServer.start("CallerClusterParamsKubeApiServerTest", "caller-params-cel-east").orElse(null);
        if (east == null) {
            return;
        }
        west = KubeApiServer.start("CallerClusterParamsKubeApiServerTest", "caller-params-cel-west").orElseThrow();
        east.apply(params("3") + """
                ---
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: registries, namespace: tollgate-params, labels: {tollgate.dev/param: registries}}
                data: {allowed: "registry.east.example.com,mirror.example.com"}
                """);
        west.apply(params("10"));
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

    /** The namespaces (labelled as 1.21+ would: the kit is 1.20) and the replica limit of one cluster. */
    static String params(String maxReplicas) {
        return """
                {apiVersion: v1, kind: Namespace, metadata: {name: shop, labels: {kubernetes.io/metadata.name: shop}}}
                ---
                {apiVersion: v1, kind: Namespace, metadata: {name: tollgate-params, labels: {kubernetes.io/metadata.name: tollgate-params}}}
                ---
                {apiVersion: v1, kind: ConfigMap, metadata: {name: replica-limit, namespace: shop}, data: {maxReplicas: "%s"}}
                """.formatted(maxReplicas);
    }

    static com.fasterxml.jackson.databind.node.ObjectNode pod(String image) {
        return Manifests.parse("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web, namespace: shop}
                spec: {containers: [{name: web, image: "%s"}]}
                """.formatted(image));
    }

    @Test
    void eachClustersParamsDecideItsOwnReviews(@TempDir Path dir) throws InterruptedException {
        assumeTrue(east != null);
        // south: west's API server through a reader identity that has no RBAC on configmaps yet.
        String reader = "system:serviceaccount:tollgate:tollgate-reader";
        Map<String, String> settings = Map.of(
                "tollgate.clusters.names", "east,west,south",
                "tollgate.clusters.south.kubeconfig", west.kubeconfigFor(reader, dir).toString(),
                "tollgate.clusters.east.kubeconfig", east.kubeconfig().toString(),
                "tollgate.clusters.west.url", west.url().toString(),
                "tollgate.clusters.west.ca-file", west.caFile().toString(),
                "tollgate.clusters.west.token-file", west.env("KAS_TOKEN_FILE"));
        NamespaceOptions options = NamespaceOptions.read("tollgate.cel-policy",
                key -> Optional.ofNullable(settings.get(key)));
        ValidatingPolicies policies = ValidatingPolicies.load(ConfigFiles.parse(POLICIES, "test.yaml"),
                CelPolicy.environment("none"), options);
        assertEquals(0, policies.compileErrors().size(), policies.compileErrors().toString());
        AdmissionTester t = AdmissionTester.of(new CelPolicy(policies));

        // The same Deployment: 5 replicas are too many in east (at most 3), fine in west (at most 10).
        var five = Policies.deployment("shop", 5, "registry.east.example.com/web:1");
        t.cluster("east").create(five).assertDenied().withCode(422).withMessageContaining(
                "ValidatingAdmissionPolicy 'replica-limit.example.com' with binding "
                        + "'replica-limit.example.com-binding' denied request: at most 3 replicas in this cluster");
        t.cluster("west").create(five).assertAllowed();

        // The registries param exists in east only: east decides by it, west's reviews fail the binding with the
        // API server's words, under the policy's failurePolicy (Fail, the default).
        t.cluster("east").create(pod("mirror.example.com/web:1")).assertAllowed();
        t.cluster("east").create(pod("docker.io/web:1")).assertDenied().withCode(422);
        t.cluster("west").create(pod("mirror.example.com/web:1")).assertDenied().withMessageContaining(
                "ValidatingAdmissionPolicy 'registries.example.com' with binding 'registries-binding' denied request: "
                        + "failed to configure binding: no params found for policy binding with `Deny` "
                        + "parameterNotFoundAction");

        // A cluster the function has no connection to borrows neither cluster's params.
        t.cluster("north").create(five).assertDenied().withMessageContaining("failed to configure policy: no "
                + "connection to cluster \"north\" is configured (known: east, west, south)");

        // Without RBAC on the param's resource: the API server's Forbidden, word for word; not kept, so the same
        // review passes once the role that cluster-registration renders for param_resources is applied.
        t.cluster("south").create(five).assertDenied().withMessageContaining("failed to configure binding: "
                + "configmaps \"replica-limit\" is forbidden: User \"" + reader + "\" cannot get resource "
                + "\"configmaps\" in API group \"\" in the namespace \"shop\"");
        west.apply("""
                apiVersion: rbac.authorization.k8s.io/v1
                kind: ClusterRole
                metadata: {name: tollgate-reader-params}
                rules:
                - {apiGroups: [""], resources: [configmaps], verbs: [get, list, watch]}
                ---
                apiVersion: rbac.authorization.k8s.io/v1
                kind: ClusterRoleBinding
                metadata: {name: tollgate-reader-params}
                roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: tollgate-reader-params}
                subjects:
                - {apiGroup: rbac.authorization.k8s.io, kind: User, name: "%s"}
                """.formatted(reader));
        for (int i = 0; i < 50 && !t.cluster("south").create(five).allowed(); i++) {
            Thread.sleep(100); // RBAC is applied by the API server's authorizer cache shortly after the write
        }
        t.cluster("south").create(five).assertAllowed();
    }
}
