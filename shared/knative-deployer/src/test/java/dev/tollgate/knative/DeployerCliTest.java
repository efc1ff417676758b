package dev.tollgate.knative;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabric8.knative.client.KnativeClient;
import io.fabric8.knative.serving.v1.Service;
import io.fabric8.knative.serving.v1.ServiceStatus;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/** The command line end to end against the mock API server: arguments in, output file and exit code out. */
@EnableKubernetesMockClient(crud = true)
class DeployerCliTest {

    KubernetesClient client;
    KubernetesMockServer server;
    @TempDir
    Path dir;

    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void setUp() throws Exception {
        // Each command closes its client, so hand out a fresh one on the mock server's configuration.
        DeployerCli.clients = context -> new KubernetesClientBuilder().withConfig(client.getConfiguration()).build();
        KnativeClient knative = client.adapt(KnativeClient.class);
        DeployerCli.ticker = new FakeTicker().onSleep(() -> {
            for (Service svc : knative.services().inNamespace("tollgate").list().getItems()) {
                ServiceStatus status = new ServiceStatus();
                status.setObservedGeneration(svc.getMetadata().getGeneration());
                status.setConditions(List.of(DeployerTest.condition("Ready", "True", "", "")));
                status.setUrl("https://" + svc.getMetadata().getName() + ".tollgate.fn.example.com");
                svc.setStatus(status);
                knative.services().inNamespace("tollgate").resource(svc).updateStatus();
            }
        });
        Files.createDirectories(dir.resolve("knative"));
        for (String name : List.of("require-labels", "always-pull-images")) {
            Files.writeString(dir.resolve("knative/" + name + ".yaml"), Manifests.yaml(name));
        }
    }

    @AfterEach
    void tearDown() {
        DeployerCli.clients = DeployerCli::connect;
        DeployerCli.ticker = Deployer.Ticker.SYSTEM;
    }

    private int run(String... args) {
        return DeployerCli.run(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), args);
    }

    @Test
    void deployWritesTheTerraformInputAndKeepsOtherEntries() throws Exception {
        client.secrets().inNamespace("tollgate").resource(new SecretBuilder().withNewMetadata()
                .withName("tollgate-auth").endMetadata().addToData("path-tokens", "dG9rZW4=").build()).create();
        Path tfvars = dir.resolve("terraform/function-urls.auto.tfvars.json");
        Files.createDirectories(tfvars.getParent());
        Files.writeString(tfvars, "{\"function_urls\": {\"pod-security\": \"https://pod-security.example.com\"}}");

        int code = run("deploy", "--manifests", dir.resolve("knative").toString(), "-n", "tollgate",
                "-f", "require-labels", "--tag", "1.0.0", "-o", tfvars.toString());

        assertEquals(0, code, err.toString());
        assertEquals("""
                {
                  "function_urls" : {
                    "pod-security" : "https://pod-security.example.com",
                    "require-labels" : "https://require-labels.tollgate.fn.example.com"
                  },
                  "images" : {
                    "require-labels" : "ghcr.io/tollgate/require-labels:1.0.0"
                  }
                }
                """, Files.readString(tfvars), "the URLs beside the kept entry, and the image deployed");
        assertTrue(out.toString().contains("require-labels: Ready at https://require-labels.tollgate.fn.example.com"));

        out.reset();
        assertEquals(0, run("status", "--manifests", dir.resolve("knative").toString(), "-n", "tollgate", "-f",
                "require-labels"));
        assertTrue(out.toString().matches("(?s).*require-labels\\s+True\\s+https://require-labels.*"), out.toString());
        out.reset();
        assertEquals(3, run("status", "--manifests", dir.resolve("knative").toString(), "-n", "tollgate"),
                "not every function is Ready: exit 3");
        assertTrue(out.toString().contains("(not deployed)"), out.toString());

        assertEquals(0, run("delete", "--manifests", dir.resolve("knative").toString(), "-n", "tollgate"));
        assertTrue(out.toString().contains("deleted 1 of 2 services in tollgate"), out.toString());
    }

    @Test
    void theBundleBecomesTheDefaultUrl() throws Exception {
        client.secrets().inNamespace("tollgate").resource(new SecretBuilder().withNewMetadata()
                .withName("tollgate-auth").endMetadata().addToData("path-tokens", "dG9rZW4=").build()).create();
        Files.writeString(dir.resolve("knative/all-in-one.yaml"), Manifests.yaml("all-in-one"));
        Path tfvars = dir.resolve("function-urls.auto.tfvars.json");

        assertEquals(0, run("deploy", "--manifests", dir.resolve("knative").toString(), "-n", "tollgate",
                "-f", "all-in-one", "-f", "always-pull-images", "-o", tfvars.toString()), err.toString());

        assertEquals("""
                {
                  "function_urls" : {
                    "always-pull-images" : "https://always-pull-images.tollgate.fn.example.com"
                  },
                  "default_url" : "https://all-in-one.tollgate.fn.example.com",
                  "images" : {
                    "all-in-one" : "ghcr.io/tollgate/all-in-one:0.1.0-SNAPSHOT",
                    "always-pull-images" : "ghcr.io/tollgate/always-pull-images:0.1.0-SNAPSHOT"
                  }
                }
                """, Files.readString(tfvars));
    }

    @Test
    void failuresAreOneLineErrorsWithExitCode1() {
        int code = run("deploy", "--manifests", dir.resolve("knative").toString(), "-n", "tollgate");
        assertEquals(1, code);
        assertTrue(err.toString().startsWith("error: the functions read these secret keys"), err.toString());
        assertTrue(!err.toString().contains("\tat "), "no stack trace");

        err.reset();
        assertEquals(1, run("status", "--manifests", dir.resolve("knative").toString(), "-f", "nope"));
        assertTrue(err.toString().contains("no manifest for function 'nope'"), err.toString());

        err.reset();
        assertEquals(1, run("status", "--manifests", dir.resolve("missing").toString()));
        assertTrue(err.toString().contains("no manifest folder at"), err.toString());
    }

    @Test
    void knAndCheckNeedNoCluster() {
        assertEquals(0, run("kn", "--manifests", dir.resolve("knative").toString(), "-f", "require-labels"));
        assertTrue(out.toString().contains("kn service create require-labels \\\n  --image "
                + "ghcr.io/tollgate/require-labels:0.1.0-SNAPSHOT"), out.toString());
        out.reset();
        assertEquals(0, run("check", "--manifests", dir.resolve("knative").toString()));
        assertTrue(out.toString().contains("require-labels.yaml: ok"), out.toString());
    }
}
