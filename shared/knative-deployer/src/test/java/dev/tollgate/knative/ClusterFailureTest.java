package dev.tollgate.knative;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/** The failures a user meets before any service exists: no cluster, no Knative, no permission. */
@EnableKubernetesMockClient
class ClusterFailureTest {

    KubernetesClient client;
    KubernetesMockServer server;

    private Deployer deployer(KubernetesClient c) {
        return new Deployer(c, "tollgate", new PrintWriter(new StringWriter()), new FakeTicker());
    }

    @Test
    void unreachableCluster() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        try (KubernetesClient offline = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                .withMasterUrl("http://127.0.0.1:" + port).withRequestRetryBackoffLimit(0).build()).build()) {
            DeployException e = assertThrows(DeployException.class, () -> deployer(offline).deploy(
                    List.of(Manifests.manifest("require-labels")), null, null, DeployerTest.FAST));
            assertTrue(e.getMessage().startsWith("cannot reach the cluster at http://127.0.0.1:" + port),
                    e.getMessage());
        }
    }

    @Test
    void knativeNotInstalled() {
        server.expect().get().withPath("/apis/serving.knative.dev/v1/namespaces/tollgate/services")
                .andReturn(404, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":"
                        + "\"the server could not find the requested resource\",\"reason\":\"NotFound\",\"code\":404}")
                .always();
        DeployException e = assertThrows(DeployException.class, () -> deployer(client).status(
                List.of(Manifests.manifest("require-labels"))));
        assertTrue(e.getMessage().startsWith("Knative Serving is not installed in the cluster at"), e.getMessage());
    }

    @Test
    void forbidden() {
        server.expect().get().withPath("/apis/serving.knative.dev/v1/namespaces/tollgate/services")
                .andReturn(403, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":"
                        + "\"services.serving.knative.dev is forbidden: User \\\"dev\\\" cannot list resource\","
                        + "\"reason\":\"Forbidden\",\"code\":403}")
                .always();
        DeployException e = assertThrows(DeployException.class, () -> deployer(client).delete(
                List.of(Manifests.manifest("require-labels"))));
        assertTrue(e.getMessage().startsWith("not allowed to list Knative services in namespace tollgate (HTTP 403): "
                + "services.serving.knative.dev is forbidden"), e.getMessage());
    }

    @Test
    void refusedCredentials() {
        server.expect().get().withPath("/apis/serving.knative.dev/v1/namespaces/tollgate/services")
                .andReturn(401, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":"
                        + "\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}")
                .always();
        DeployException e = assertThrows(DeployException.class, () -> deployer(client).status(
                List.of(Manifests.manifest("require-labels"))));
        assertTrue(e.getMessage().contains("refused the credentials"), e.getMessage());
    }
}
