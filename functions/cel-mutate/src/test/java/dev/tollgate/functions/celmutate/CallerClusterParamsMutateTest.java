package dev.tollgate.functions.celmutate;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
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
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/**
 * One cel-mutate serving two clusters (a mock API server each) whose policy takes its param, a ConfigMap the files
 * do not hold, from the cluster that sent the review: the same pod gets each cluster's label, and a cluster without
 * the param is denied with the API server's words under {@code parameterNotFoundAction: Deny}.
 */
class CallerClusterParamsMutateTest {

    static final String POLICY = """
            apiVersion: admissionregistration.k8s.io/v1beta1
            kind: MutatingAdmissionPolicy
            metadata: {name: cost-center.example.com}
            spec:
              paramKind: {apiVersion: v1, kind: ConfigMap}
              matchConstraints:
                resourceRules:
                - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
              mutations:
              - patchType: ApplyConfiguration
                applyConfiguration:
                  expression: "Object{metadata: Object.metadata{labels: {'cost-center': params.data.costCenter}}}"
            ---
            apiVersion: admissionregistration.k8s.io/v1beta1
            kind: MutatingAdmissionPolicyBinding
            metadata: {name: cost-center-binding.example.com}
            spec:
              policyName: cost-center.example.com
              paramRef: {name: cost-center, namespace: platform, parameterNotFoundAction: Deny}
            """;

    private final Map<String, KubernetesMockServer> servers = new LinkedHashMap<>();

    @AfterEach
    void stop() {
        servers.values().forEach(KubernetesMockServer::destroy);
    }

    private void cluster(String name, String costCenter) {
        KubernetesMockServer server = new KubernetesMockServer(false);
        server.init();
        server.expect().get().withPath("/api/v1").andReturn(200, Map.of("kind", "APIResourceList", "groupVersion",
                "v1", "resources", List.of(Map.of("name", "configmaps", "namespaced", true, "kind", "ConfigMap",
                        "verbs", List.of("get", "list"))))).always();
        String path = "/api/v1/namespaces/platform/configmaps/cost-center";
        if (costCenter == null) {
            server.expect().get().withPath(path).andReturn(404, Map.of("apiVersion", "v1", "kind", "Status", "status",
                    "Failure", "reason", "NotFound", "code", 404, "message", "configmaps \"cost-center\" not found"))
                    .always();
        } else {
            server.expect().get().withPath(path).andReturn(200, Map.of("apiVersion", "v1", "kind", "ConfigMap",
                    "metadata", Map.of("name", "cost-center", "namespace", "platform"), "data",
                    Map.of("costCenter", costCenter))).always();
        }
        servers.put(name, server);
    }

    @Test
    void theSamePodGetsItsClustersParam() {
        cluster("east", "cc-100");
        cluster("west", "cc-200");
        cluster("south", null);
        Map<String, ClusterConnection> connections = new LinkedHashMap<>();
        servers.forEach((name, server) -> connections.put(name, ClusterConnection.of(URI.create(server.url("/")),
                () -> "token", null)));
        NamespaceOptions options = NamespaceOptions.read("tollgate.cel-mutate", key -> Optional.empty())
                .withClusters(ClusterContexts.of(connections));
        AdmissionTester t = AdmissionTester.of(new CelMutate(MutatingPolicies.load(
                ConfigFiles.parse(POLICY, "test.yaml"), CelMutate.environment("none"), options)));
        for (var c : List.of(List.of("east", "cc-100"), List.of("west", "cc-200"))) {
            ObjectNode expected = ClusterNamespacesMutateTest.pod("shop");
            expected.withObject("/metadata").putObject("labels").put("cost-center", c.get(1));
            t.cluster(c.get(0)).create(ClusterNamespacesMutateTest.pod("shop")).assertPatchedTo(expected);
        }
        t.cluster("south").create(ClusterNamespacesMutateTest.pod("shop")).assertDenied().withCode(422)
                .withMessageContaining("MutatingAdmissionPolicy 'cost-center.example.com' with binding "
                        + "'cost-center-binding.example.com' denied request: failed to configure binding: no params "
                        + "found for policy binding with `Deny` parameterNotFoundAction");
    }
}
