package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.tollgate.testing.KubeApiServer;

/**
 * The packaged CLI against a real kube-apiserver (../shared/tools/kube-apiserver): the bundled cel-mutate, served
 * in-process, takes its namespaces from the audited cluster, not from the shipped policies/namespaces.yaml. The
 * namespace {@code orders} exists only in the cluster, labelled {@code mesh=enabled}, which binds the shipped
 * mesh-sidecar MutatingAdmissionPolicy: {@code audit --as-create} and {@code review --kubeconfig} must predict its
 * sidecar, as the cluster itself would add it. Params likewise: a ValidatingAdmissionPolicy whose ConfigMap param
 * exists only in the cluster is decided by that ConfigMap.
 */
class ClusterNamespacesIT {

    static KubeApiServer cluster;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        cluster = KubeApiServer.start("ClusterNamespacesIT", "clusters-audit").orElse(null);
        if (cluster == null) {
            return;
        }
        cluster.apply("""
                {apiVersion: v1, kind: Namespace, metadata: {name: orders, labels: {mesh: enabled,
                 kubernetes.io/metadata.name: orders}}}
                ---
                {apiVersion: v1, kind: ServiceAccount, metadata: {name: default, namespace: orders},
                 automountServiceAccountToken: false}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: web, namespace: orders, labels: {app: web}}
                spec:
                  containers: [{name: app, image: "registry.example.com/shop/web:1.4"}]
                ---
                {apiVersion: v1, kind: ConfigMap, metadata: {name: registries, namespace: orders},
                 data: {allowed: "mirror.example.com/"}}
                """);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.stop();
        }
    }

    private PackagedCli.Result tollgate(String... args) throws Exception {
        return PackagedCli.run(dir, Duration.ofSeconds(300), List.of(args));
    }

    @Test
    void auditAsCreatePredictsTheMutationTheClustersNamespaceBinds() throws Exception {
        assumeTrue(cluster != null);
        PackagedCli.Result r = tollgate("audit", "--kubeconfig", cluster.kubeconfig().toString(), "-n", "orders", "--as-create",
                "-o", "json");
        JsonNode findings = new ObjectMapper().readTree(r.stdout()).path("findings");
        JsonNode web = null;
        for (JsonNode f : findings) {
            if (f.path("kind").asText().equals("Pod") && f.path("name").asText().equals("web")) {
                web = f;
            }
        }
        assertTrue(web != null, r.stdout() + r.stderr());
        assertTrue(web.path("patch").toString().contains("registry.example.com/mesh/proxy:1.2.0"), web.toString());
    }

    @Test
    void auditDecidesWithTheClustersParams() throws Exception {
        assumeTrue(cluster != null);
        Path policy = dir.resolve("registries.yaml");
        Files.writeString(policy, """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: registries.example.com}
                spec:
                  paramKind: {apiVersion: v1, kind: ConfigMap}
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [pods]}
                  validations:
                  - expression: "object.spec.containers.all(c, c.image.startsWith(params.data.allowed))"
                    messageExpression: "'images come from ' + params.data.allowed + ' only'"
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: registries-binding}
                spec:
                  policyName: registries.example.com
                  validationActions: [Deny]
                  paramRef: {name: registries, parameterNotFoundAction: Deny}
                """);
        PackagedCli.Result r = PackagedCli.run(dir, Duration.ofSeconds(300), List.of("-Dtollgate.cel-policy.config="
                + policy), List.of("audit", "--kubeconfig", cluster.kubeconfig().toString(), "-n", "orders",
                        "--as-create", "-o", "json"));
        JsonNode web = null;
        for (JsonNode f : new ObjectMapper().readTree(r.stdout()).path("findings")) {
            if (f.path("kind").asText().equals("Pod") && f.path("name").asText().equals("web")) {
                web = f;
            }
        }
        assertTrue(web != null, r.stdout() + r.stderr());
        // The param is in the audited cluster only: its value is in the denial.
        assertTrue(!web.path("allowed").asBoolean(true) && web.path("message").asText().contains(
                "images come from mirror.example.com/ only"), web.toString());
    }

    @Test
    void reviewWithAKubeconfigTakesTheClustersNamespaces() throws Exception {
        assumeTrue(cluster != null);
        Path pod = dir.resolve("pod.yaml");
        Files.writeString(pod, """
                apiVersion: v1
                kind: Pod
                metadata: {name: api, namespace: orders}
                spec:
                  containers: [{name: app, image: "registry.example.com/shop/api:2"}]
                """);
        PackagedCli.Result without = tollgate("review", "-o", "json", pod.toString());
        assertTrue(!without.stdout().contains("mesh/proxy"), "the shipped namespaces do not hold orders: "
                + without.stdout());
        PackagedCli.Result with = tollgate("review", "--kubeconfig", cluster.kubeconfig().toString(), "-o", "json",
                pod.toString());
        assertTrue(with.stdout().contains("registry.example.com/mesh/proxy:1.2.0"), with.stdout() + with.stderr());
        PackagedCli.Result badContext = tollgate("review", "--kubeconfig", cluster.kubeconfig().toString(), "--context", "nope",
                pod.toString());
        assertEquals(2, badContext.exit(), badContext.stdout() + badContext.stderr());
    }
}
