package dev.tollgate.functions.celmutate;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.cel.admission.ClusterConnection;
import dev.tollgate.cel.admission.ClusterContexts;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.NamespaceOptions;
import dev.tollgate.testing.AdmissionTester;
import dev.tollgate.testing.Manifests;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/**
 * cel-mutate with namespaces from the cluster (fabric8's mock API server): the documentation's sidecar bound to
 * namespaces labelled {@code mesh=enabled}, and a label copied from namespaceObject. A namespace that cannot be read
 * fails the request: its Status as is, anything else as NotFound (k8s.io/apiserver
 * pkg/admission/plugin/policy/mutating/dispatcher.go).
 */
@EnableKubernetesMockClient(crud = true, https = false)
class ClusterNamespacesMutateTest {

    static final String POLICY = """
            apiVersion: admissionregistration.k8s.io/v1beta1
            kind: MutatingAdmissionPolicy
            metadata: {name: team-label.example.com}
            spec:
              failurePolicy: Ignore
              matchConstraints:
                resourceRules:
                - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
              mutations:
              - patchType: ApplyConfiguration
                applyConfiguration:
                  expression: "Object{metadata: Object.metadata{labels: {'team': namespaceObject.metadata.labels['team']}}}"
            ---
            apiVersion: admissionregistration.k8s.io/v1beta1
            kind: MutatingAdmissionPolicyBinding
            metadata: {name: team-label-binding.example.com}
            spec:
              policyName: team-label.example.com
              matchResources:
                namespaceSelector: {matchLabels: {mesh: enabled}}
            """;

    KubernetesClient client;
    KubernetesMockServer server;

    AdmissionTester tester(URI api) {
        NamespaceOptions options = NamespaceOptions.read("tollgate.cel-mutate", key -> Optional.empty())
                .withClusters(ClusterContexts.of(Map.of(ClusterContexts.DEFAULT,
                        ClusterConnection.of(api, () -> "token", null))));
        return AdmissionTester.of(new CelMutate(MutatingPolicies.load(ConfigFiles.parse(POLICY, "test.yaml"),
                CelMutate.environment("none"), options)));
    }

    static ObjectNode pod(String namespace) {
        return Manifests.parse("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web, namespace: %s}
                spec: {containers: [{name: app, image: "nginx:1.27"}]}
                """.formatted(namespace));
    }

    @Test
    void theClustersLabelsSelectTheBindingAndFillNamespaceObject() {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("shop")
                .addToLabels("mesh", "enabled").addToLabels("team", "storefront").endMetadata().build()).create();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("lab").endMetadata().build())
                .create();
        AdmissionTester t = tester(URI.create(server.url("/")));
        ObjectNode expected = pod("shop");
        expected.withObject("/metadata").putObject("labels").put("team", "storefront");
        t.create(pod("shop")).assertPatchedTo(expected);
        t.create(pod("lab")).assertAllowed().assertNoPatch();
    }

    @Test
    void anUnreachableApiServerFailsTheRequestAsNotFound() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        // The namespaceSelector cannot be decided: a configuration error, ignored under failurePolicy Ignore.
        tester(URI.create("http://127.0.0.1:" + port)).create(pod("shop")).assertAllowed().assertNoPatch();
        // Unbound, the policy needs namespaceObject: the API server fails the request with NotFound.
        String unbound = POLICY.substring(0, POLICY.indexOf("  matchResources:"));
        NamespaceOptions options = NamespaceOptions.read("tollgate.cel-mutate", key -> Optional.empty())
                .withClusters(ClusterContexts.of(Map.of(ClusterContexts.DEFAULT,
                        ClusterConnection.of(URI.create("http://127.0.0.1:" + port), () -> "token", null))));
        AdmissionTester.of(new CelMutate(MutatingPolicies.load(ConfigFiles.parse(unbound, "test.yaml"),
                CelMutate.environment("none"), options))).create(pod("shop"))
                .assertDenied().withCode(404).withReason("NotFound").withMessageContaining("namespaces \"shop\" not found");
    }
}
