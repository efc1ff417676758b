package dev.tollgate.knative;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.fabric8.knative.client.KnativeClient;
import io.fabric8.knative.pkg.apis.Condition;
import io.fabric8.knative.serving.v1.Service;
import io.fabric8.knative.serving.v1.ServiceStatus;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/** The deployer against the fabric8 mock API server in CRUD mode; the test plays the Knative controller. */
@EnableKubernetesMockClient(crud = true)
class DeployerTest {

    static final String NS = "tollgate";
    static final Deployer.WaitOptions FAST = new Deployer.WaitOptions(Duration.ofSeconds(30), Duration.ofSeconds(1),
            Duration.ofSeconds(5));

    KubernetesClient client;
    KubernetesMockServer server;
    KnativeClient knative;
    StringWriter progress;
    FakeTicker ticker;
    Deployer deployer;

    @BeforeEach
    void setUp() {
        knative = client.adapt(KnativeClient.class);
        progress = new StringWriter();
        ticker = new FakeTicker();
        deployer = new Deployer(client, NS, new PrintWriter(progress, true), ticker);
    }

    void createAuthSecret() {
        client.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName("tollgate-auth")
                .endMetadata().addToData("path-tokens", "dG9rZW4=").build()).create();
    }

    /** What Knative's controller would do: report a status for every service in the namespace. */
    void report(String ready, String reason, String message, String scheme) {
        for (Service svc : knative.services().inNamespace(NS).list().getItems()) {
            ServiceState current = ServiceState.of(svc.getMetadata().getName(), svc);
            if (current.isReady() && "True".equals(ready)) {
                continue; // already reported for this generation
            }
            String name = svc.getMetadata().getName();
            ServiceStatus status = new ServiceStatus();
            status.setObservedGeneration(svc.getMetadata().getGeneration());
            status.setConditions(List.of(condition("Ready", ready, reason, message),
                    condition("ConfigurationsReady", ready, reason, message), condition("RoutesReady", ready, "", "")));
            if ("True".equals(ready)) {
                status.setUrl(scheme + "://" + name + "." + NS + ".fn.example.com");
                status.setLatestReadyRevisionName(name + "-00001");
            }
            svc.setStatus(status);
            knative.services().inNamespace(NS).resource(svc).updateStatus();
        }
    }

    static Condition condition(String type, String status, String reason, String message) {
        Condition c = new Condition();
        c.setType(type);
        c.setStatus(status);
        c.setReason(reason);
        c.setMessage(message);
        return c;
    }

    @Test
    void deploysWaitsForReadyAndReturnsTheHttpsUrls() {
        createAuthSecret();
        ticker.onSleep(() -> {
            if (ticker.sleeps < 3) {
                report("Unknown", "RevisionMissing", "Configuration is waiting for a Revision to become ready.",
                        "https");
            } else {
                report("True", "", "", "https");
            }
        });
        Map<String, String> urls = deployer.deploy(List.of(Manifests.manifest("require-labels"),
                Manifests.manifest("always-pull-images")), "registry.example.com/platform", "1.2.3", FAST);

        assertEquals(Map.of("always-pull-images", "https://always-pull-images.tollgate.fn.example.com",
                "require-labels", "https://require-labels.tollgate.fn.example.com"), urls);
        Service stored = knative.services().inNamespace(NS).withName("require-labels").get();
        assertEquals("registry.example.com/platform/require-labels:1.2.3",
                stored.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
        assertEquals(10L, stored.getSpec().getTemplate().getSpec().getTimeoutSeconds());
        String out = progress.toString();
        assertTrue(out.contains("require-labels: created in tollgate"), out);
        assertTrue(out.contains("Ready=Unknown (RevisionMissing: Configuration is waiting"), out);
        assertTrue(out.contains("require-labels: Ready at https://require-labels.tollgate.fn.example.com"), out);
    }

    @Test
    void updatesAnExistingServiceAndWaitsForTheNewGeneration() {
        createAuthSecret();
        ticker.onSleep(() -> report("True", "", "", "https"));
        deployer.deploy(List.of(Manifests.manifest("require-labels")), null, null, FAST);
        Service first = knative.services().inNamespace(NS).withName("require-labels").get();

        int sleepsBefore = ticker.sleeps;
        deployer.deploy(List.of(Manifests.manifest("require-labels")), null, "2.0.0", FAST);
        Service second = knative.services().inNamespace(NS).withName("require-labels").get();
        assertEquals("ghcr.io/tollgate/require-labels:2.0.0",
                second.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
        assertTrue(progress.toString().contains("require-labels: updated in tollgate"));
        if (first.getMetadata().getGeneration() != null) {
            // The old Ready status described generation 1: the deployer must have waited for the controller.
            assertTrue(second.getMetadata().getGeneration() > first.getMetadata().getGeneration());
            assertTrue(ticker.sleeps > sleepsBefore, "did not wait for the new generation");
        }
    }

    @Test
    void aServiceThatNeverBecomesReadyFailsAtTheDeadlineWithItsConditions() {
        createAuthSecret();
        ticker.onSleep(() -> report("Unknown", "RevisionMissing", "Configuration is waiting for a Revision", "https"));
        DeployException e = assertThrows(DeployException.class, () -> deployer.deploy(
                List.of(Manifests.manifest("require-labels")), null, null, FAST));
        assertTrue(e.getMessage().startsWith("timed out after 30s waiting for Ready"), e.getMessage());
        assertTrue(e.getMessage().contains("ConfigurationsReady=Unknown (RevisionMissing: Configuration is waiting"),
                e.getMessage());
        assertTrue(progress.toString().contains("still waiting for [require-labels]"), progress.toString());
    }

    @Test
    void aServiceThatStaysNotReadyFailsWithItsConditions() {
        createAuthSecret();
        ticker.onSleep(() -> report("False", "RevisionFailed", "Revision \"require-labels-00001\" failed with "
                + "message: Back-off pulling image", "https"));
        DeployException e = assertThrows(DeployException.class, () -> deployer.deploy(
                List.of(Manifests.manifest("require-labels")), null, null, FAST));
        assertTrue(e.getMessage().startsWith("require-labels failed to become Ready: Ready=False (RevisionFailed: "
                + "Revision \"require-labels-00001\" failed with message: Back-off pulling image)"), e.getMessage());
        assertTrue(e.getMessage().contains("kubectl describe ksvc require-labels -n tollgate"));
    }

    @Test
    void aPlainHttpUrlIsRefused() {
        createAuthSecret();
        ticker.onSleep(() -> report("True", "", "", "http"));
        DeployException e = assertThrows(DeployException.class, () -> deployer.deploy(
                List.of(Manifests.manifest("require-labels")), null, null, FAST));
        assertTrue(e.getMessage().contains("not https: [require-labels -> http://require-labels.tollgate"),
                e.getMessage());
        assertTrue(e.getMessage().contains("external-domain TLS"));
    }

    @Test
    void aMissingSecretStopsTheDeployBeforeAnythingIsCreated() {
        DeployException e = assertThrows(DeployException.class, () -> deployer.deploy(
                List.of(Manifests.manifest("require-labels")), null, null, FAST));
        assertTrue(e.getMessage().contains("[tollgate-auth/path-tokens]"), e.getMessage());
        assertTrue(e.getMessage().contains("kubectl create secret generic tollgate-auth -n tollgate"));
        assertEquals(0, knative.services().inNamespace(NS).list().getItems().size());
    }

    @Test
    void aMissingPolicyConfigMapStopsTheDeploy() {
        createAuthSecret();
        ServiceManifest celPolicy = ServiceManifest.parse(Manifests.yaml("cel-policy")
                .replace("            - mountPath: /var/run/tollgate/auth\n",
                        "            - mountPath: /etc/tollgate/cel-policy\n"
                                + "              name: cel-policy-config\n"
                                + "              readOnly: true\n"
                                + "            - mountPath: /var/run/tollgate/auth\n")
                .replace("      volumes:\n", "      volumes:\n"
                        + "        - name: cel-policy-config\n"
                        + "          configMap:\n"
                        + "            name: tollgate-cel-policy\n"), "cel-policy.yaml");
        DeployException e = assertThrows(DeployException.class, () -> deployer.deploy(List.of(celPolicy), null, null,
                FAST));
        assertTrue(e.getMessage().contains("config maps, which do not exist in namespace tollgate: "
                + "[tollgate-cel-policy]"), e.getMessage());
        assertEquals(0, knative.services().inNamespace(NS).list().getItems().size());
    }

    @Test
    void aMissingServiceAccountStopsTheDeploy() {
        createAuthSecret();
        ServiceManifest celPolicy = ServiceManifest.parse(Manifests.yaml("cel-policy")
                .replace("      containerConcurrency: 100\n",
                        "      containerConcurrency: 100\n      serviceAccountName: tollgate-cel-policy\n"),
                "cel-policy.yaml");
        DeployException e = assertThrows(DeployException.class, () -> deployer.deploy(List.of(celPolicy), null, null,
                FAST));
        assertTrue(e.getMessage().contains("service accounts, which do not exist in namespace tollgate: "
                + "[tollgate-cel-policy]. Create them and their RBAC first: kubectl apply -f "
                + "knative/rbac/cel-policy.yaml"), e.getMessage());
        assertEquals(0, knative.services().inNamespace(NS).list().getItems().size());
        client.serviceAccounts().inNamespace(NS).resource(new io.fabric8.kubernetes.api.model.ServiceAccountBuilder()
                .withNewMetadata().withName("tollgate-cel-policy").endMetadata().build()).create();
        deployer.checkServiceAccounts(List.of(celPolicy)); // present now: no complaint
    }

    @Test
    void aSecretWithoutTheMountedFileIsMissingToo() {
        client.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName("tollgate-auth")
                .endMetadata().addToData("other", "eA==").build()).create();
        DeployException e = assertThrows(DeployException.class, () -> deployer.deploy(
                List.of(Manifests.manifest("require-labels")), null, null, FAST));
        assertTrue(e.getMessage().contains("[tollgate-auth/path-tokens]"), e.getMessage());
    }

    @Test
    void aManifestBreakingKnativeRulesIsNotDeployed() {
        createAuthSecret();
        ServiceManifest bad = ServiceManifest.parse(Manifests.yaml("require-labels").replace("name: http1",
                "name: web"), "bad.yaml");
        DeployException e = assertThrows(DeployException.class, () -> deployer.deploy(List.of(bad), null, null,
                FAST));
        assertTrue(e.getMessage().contains("bad.yaml spec.template.spec.containers[0].ports[0].name"), e.getMessage());
        assertEquals(0, knative.services().inNamespace(NS).list().getItems().size());
    }

    @Test
    void statusListsReadinessUrlAndRevisionAndDeleteRemoves() {
        createAuthSecret();
        ticker.onSleep(() -> report("True", "", "", "https"));
        deployer.deploy(List.of(Manifests.manifest("require-labels")), null, null, FAST);

        List<ServiceState> states = deployer.status(List.of(Manifests.manifest("require-labels"),
                Manifests.manifest("pod-security")));
        assertTrue(states.get(0).isReady());
        assertEquals("https://require-labels.tollgate.fn.example.com", states.get(0).url());
        assertEquals("require-labels-00001", states.get(0).latestRevision());
        assertEquals("not deployed", states.get(1).summary());

        assertEquals(List.of("require-labels"), deployer.delete(List.of(Manifests.manifest("require-labels"),
                Manifests.manifest("pod-security"))));
        assertNull(knative.services().inNamespace(NS).withName("require-labels").get());
    }
}
