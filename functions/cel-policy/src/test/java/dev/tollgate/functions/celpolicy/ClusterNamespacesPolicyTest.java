package dev.tollgate.functions.celpolicy;

import java.net.URI;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.tollgate.cel.admission.ClusterConnection;
import dev.tollgate.cel.admission.ClusterContexts;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.NamespaceOptions;
import dev.tollgate.testing.AdmissionTester;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/**
 * cel-policy with no Namespace objects in its files, in a cluster (fabric8's mock API server): the binding's
 * namespaceSelector and namespaceObject see the cluster's namespaces; a namespaceObject that cannot be read fails
 * the request whatever the failurePolicy (k8s.io/apiserver pkg/admission/plugin/policy/validating/dispatcher.go).
 */
@EnableKubernetesMockClient(crud = true, https = false)
class ClusterNamespacesPolicyTest {

    static final String POLICY = Policies.deploymentPolicy("env-images.example.com", """
            failurePolicy: Ignore
            validations:
            - expression: "object.spec.template.spec.containers.all(c, c.image.startsWith(namespaceObject.metadata.labels['registry'] + '/'))"
              messageExpression: "'namespace ' + namespaceObject.metadata.name + ' runs images from ' + namespaceObject.metadata.labels['registry'] + ' only'"
            """, "[Deny]") + """
              matchResources:
                namespaceSelector: {matchExpressions: [{key: registry, operator: Exists}]}
            """;

    KubernetesClient client;
    KubernetesMockServer server;

    @BeforeEach
    void namespaces() {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("shop")
                .addToLabels("registry", "registry.example.com").endMetadata().build()).create();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("lab").endMetadata().build())
                .create();
    }

    AdmissionTester tester() {
        NamespaceOptions options = NamespaceOptions.read("tollgate.cel-policy", key -> Optional.empty())
                .withClusters(ClusterContexts.of(Map.of(ClusterContexts.DEFAULT,
                        ClusterConnection.of(URI.create(server.url("/")), () -> "token", null))));
        return AdmissionTester.of(new CelPolicy(ValidatingPolicies.load(ConfigFiles.parse(POLICY, "test.yaml"),
                CelPolicy.environment("none"), options)));
    }

    @Test
    void theClustersLabelsSelectTheBindingAndFillNamespaceObject() {
        AdmissionTester t = tester();
        t.create(Policies.deployment("shop", 1, "registry.example.com/web:1")).assertAllowed();
        t.create(Policies.deployment("shop", 1, "docker.io/web:1")).assertDenied().withCode(422)
                .withMessageContaining("namespace shop runs images from registry.example.com only");
        t.create(Policies.deployment("lab", 1, "docker.io/web:1")).assertAllowed(); // no registry label: not bound
    }

    @Test
    void aNamespaceObjectThatCannotBeReadFailsTheRequestEvenUnderIgnore() {
        // Bound (no selector), but the namespace does not exist: the API server returns the lookup's NotFound.
        String unbound = POLICY.substring(0, POLICY.indexOf("  matchResources:"));
        NamespaceOptions options = NamespaceOptions.read("tollgate.cel-policy", key -> Optional.empty())
                .withClusters(ClusterContexts.of(Map.of(ClusterContexts.DEFAULT,
                        ClusterConnection.of(URI.create(server.url("/")), () -> "token", null))));
        AdmissionTester.of(new CelPolicy(ValidatingPolicies.load(ConfigFiles.parse(unbound, "test.yaml"),
                CelPolicy.environment("none"), options)))
                .create(Policies.deployment("gone", 1, "docker.io/web:1"))
                .assertDenied().withCode(404).withReason("NotFound").withMessageContaining("namespaces \"gone\" not found");
    }
}
