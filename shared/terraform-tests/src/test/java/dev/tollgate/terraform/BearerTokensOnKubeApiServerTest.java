package dev.tollgate.terraform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.tollgate.testing.HttpsFunction;
import dev.tollgate.testing.KubeApiServer;

/**
 * A governed cluster whose API server the operator configures calls with a bearer token from its admission
 * kubeconfig, as cluster-registration renders it: a real kube-apiserver v1.20 (../shared/tools/kube-apiserver) started
 * with the rendered AdmissionConfiguration and kubeconfig, the packaged require-labels checking the path token and the
 * bearer token from the files Terraform wrote for it. The API server's calls are judged (so it sent the token), a
 * caller with the path token alone is refused, and the decision log names the cluster. Needs the function packaged
 * ({@code functions/require-labels/target/quarkus-app}), which the reactor does before this module; without it, or
 * without the kit, the test says SKIPPED and why.
 */
class BearerTokensOnKubeApiServerTest {

    static final String TEST = "BearerTokensOnKubeApiServerTest";
    static final ObjectMapper JSON = new ObjectMapper();
    static final String PATH_TOKEN = "bearer-test-path-token-0123";
    static final String BEARER = "bearer-test-bearer-token-4567";

    static Path dir;
    static KubeApiServer cluster;
    static HttpsFunction function;

    @BeforeAll
    static void start() throws Exception {
        Path runner = ProjectRoot.get().resolve("functions/require-labels/target/quarkus-app/quarkus-run.jar");
        if (!Files.isRegularFile(runner)) {
            System.out.println("SKIPPED " + TEST + ": " + runner + " is not built (./mvnw -B -pl "
                    + "functions/require-labels -am package -DskipTests)");
            return;
        }
        if (KubeApiServer.missing().isPresent()) {
            System.out.println("SKIPPED " + TEST + ": " + KubeApiServer.missing().get());
            return;
        }
        int port = HttpsFunction.freePort();
        dir = Terraform.scratchDir("bearer-tokens");
        registration(port);
        // The control plane's files come first (they hold no CA), then the API server that reads them.
        Terraform.runOk(dir, "init", "-backend=false", "-input=false", "-no-color");
        Terraform.runOk(dir, "apply", "-auto-approve", "-input=false", "-no-color");
        JsonNode out = outputs();
        Files.writeString(dir.resolve("admission-kubeconfig.yaml"), out.path("kubeconfig").path("value").asText());
        Path admissionConfig = Files.writeString(dir.resolve("admission-configuration.yaml"),
                out.path("admission_configuration").path("value").asText());
        cluster = KubeApiServer.start(TEST, "bearer-tokens",
                List.of("--", "--admission-control-config-file=" + admissionConfig)).orElse(null);
        if (cluster == null) {
            return;
        }
        Path callers = Files.createDirectories(dir.resolve("callers"));
        for (String files : List.of("path_files", "bearer_files")) {
            out.path(files).path("value").fields().forEachRemaining(f -> write(callers.resolve(f.getKey()),
                    f.getValue().asText()));
        }
        function = HttpsFunction.start(runner, cluster, port, HttpsFunction.freePort(), dir.resolve("function.log"),
                List.of("-Dtollgate.auth.clusters-dir=" + callers));
    }

    @AfterAll
    static void stop() {
        if (function != null) {
            function.close();
        }
        if (cluster != null) {
            cluster.stop();
        }
    }

    static void registration(int port) throws IOException {
        String relative = dir.relativize(Terraform.workTree()).toString().replace('\\', '/');
        Files.writeString(dir.resolve("main.tf"), """
                variable "ca_file" {
                  type    = string
                  default = ""
                }

                module "registration" {
                  source        = "%1$s/modules/cluster-registration"
                  catalog       = jsondecode(file("${path.module}/%1$s/catalog/catalog.json"))
                  functions     = ["require-labels"]
                  default_url   = "https://127.0.0.1:%2$d"
                  ca_bundle     = var.ca_file == "" ? null : file(var.ca_file)
                  path_tokens   = { one = { "require-labels" = "%3$s" } }
                  bearer_tokens = { one = { "require-labels" = "%4$s" } }
                  clusters = {
                    one = { kubernetes_version = "1.20", server = "https://127.0.0.1:1", namespace_exclusions = false }
                  }
                  admission_kubeconfig_path = "${abspath(path.module)}/admission-kubeconfig.yaml"
                }

                output "kubeconfig" {
                  value     = module.registration.admission_kubeconfigs["one"]
                  sensitive = true
                }
                output "admission_configuration" {
                  value = module.registration.admission_configuration_yaml
                }
                output "manifests" {
                  value     = module.registration.cluster_manifests_yaml["one"]
                  sensitive = true
                }
                output "path_files" {
                  value     = module.registration.path_token_files["require-labels"]
                  sensitive = true
                }
                output "bearer_files" {
                  value     = module.registration.bearer_token_files["require-labels"]
                  sensitive = true
                }
                """.formatted(relative, port, PATH_TOKEN, BEARER));
    }

    static JsonNode outputs() throws IOException {
        return JSON.readTree(Terraform.runOk(dir, "output", "-json", "-no-color").stdout());
    }

    static void write(Path file, String content) {
        try {
            Files.writeString(file, content);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void theApiServerCallsWithTheBearerTokenOfItsAdmissionKubeconfig() throws Exception {
        assumeTrue(function != null && cluster != null);
        Terraform.runOk(dir, "apply", "-auto-approve", "-input=false", "-no-color",
                "-var=ca_file=" + cluster.env("KAS_WEBHOOK_CA_FILE"));
        String manifests = outputs().path("manifests").path("value").asText();
        assertTrue(manifests.contains("/" + PATH_TOKEN + "/require-labels"), "the webhook calls behind the path token");
        assertTrue(!manifests.contains(BEARER), "the bearer token is in no object of the governed cluster");
        cluster.apply(manifests);
        cluster.apply(ExceptionsOnKubeApiServerTest.namespace("shop", ""));

        cluster.apply(ExceptionsOnKubeApiServerTest.deployment("shop", "web", "team: shop"));
        KubeApiServer.Run unlabelled = cluster.kubectlRun("apply", "-f", Files.writeString(dir.resolve("d.yaml"),
                ExceptionsOnKubeApiServerTest.deployment("shop", "unlabelled", "app: web")).toString());
        assertEquals(1, unlabelled.exit(), unlabelled.stdout());
        assertTrue(unlabelled.stderr().contains("admission webhook \"require-labels.tollgate.dev\" denied the request"),
                unlabelled.stderr());

        List<String> seen = new ArrayList<>();
        for (JsonNode d : function.decisions()) {
            seen.add(d.path("name").asText() + " " + d.path("cluster").asText() + " " + d.path("decision").asText());
        }
        assertEquals(List.of("web one allowed", "unlabelled one denied"), seen, "the function's decision log");

        // The function does check the bearer token: the path token alone, or with another token, is refused.
        String review = "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\"}";
        String path = "/" + PATH_TOKEN + "/require-labels";
        assertEquals(401, function.post(path, review, Map.of()));
        assertEquals(401, function.post(path, review, Map.of("Authorization", "Bearer not-" + BEARER)));
        assertEquals(400, function.post(path, review, Map.of("Authorization", "Bearer " + BEARER)),
                "with both credentials the caller is admitted and the incomplete review refused");
    }
}
