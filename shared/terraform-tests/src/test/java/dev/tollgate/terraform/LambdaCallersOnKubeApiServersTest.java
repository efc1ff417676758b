package dev.tollgate.terraform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * The Lambda way of serving many clusters, with the function itself and two real kube-apiservers v1.20
 * (../shared/tools/kube-apiserver): Terraform renders each cluster's webhook configurations with its own path token
 * (webhook-configurations per cluster, as the lambda-external-cluster example does) and the function's
 * TOLLGATE_AUTH_CLUSTERS_JSON (modules/caller-tokens, which aws-lambda-functions writes verbatim into the function's
 * environment: tests/lambda.tftest.hcl). The packaged require-labels, given that value in its environment as Lambda
 * gives it, serves both clusters: each review is its cluster's in the decision log, and west's enforcement mode
 * (warn) applies to west only. Needs the function packaged ({@code functions/require-labels/target/quarkus-app}) and
 * the kit; without either, SKIPPED and why.
 */
class LambdaCallersOnKubeApiServersTest {

    static final String TEST = "LambdaCallersOnKubeApiServersTest";
    static final ObjectMapper JSON = new ObjectMapper();
    static final String EAST_TOKEN = "lambda-callers-east-0123456789";
    static final String WEST_TOKEN = "lambda-callers-west-0123456789";

    static KubeApiServer east;
    static KubeApiServer west;
    static Path runner;

    @BeforeAll
    static void clusters() {
        runner = ProjectRoot.get().resolve("functions/require-labels/target/quarkus-app/quarkus-run.jar");
        if (!Files.isRegularFile(runner)) {
            System.out.println("SKIPPED " + TEST + ": " + runner + " is not built (./mvnw -B -pl "
                    + "functions/require-labels -am package -DskipTests)");
            return;
        }
        east = KubeApiServer.start(TEST, "lambda-callers-east").orElse(null);
        if (east == null) {
            return;
        }
        west = KubeApiServer.start(TEST, "lambda-callers-west").orElseThrow();
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

    /** A root module: the function's clusters JSON and each cluster's configurations, in a scratch folder. */
    static Path rendering(int port) throws IOException {
        Path dir = Terraform.scratchDir("lambda-callers-kas");
        String tree = dir.relativize(Terraform.workTree()).toString().replace('\\', '/');
        Files.writeString(dir.resolve("main.tf"), """
                locals {
                  path_tokens = {
                    east = { require-labels = "%4$s" }
                    west = { require-labels = "%5$s" }
                  }
                }

                module "tokens" {
                  source      = "%1$s/modules/caller-tokens"
                  path_tokens = local.path_tokens
                }

                module "webhooks" {
                  source              = "%1$s/modules/webhook-configurations"
                  for_each            = toset(["east", "west"])
                  catalog             = jsondecode(file("${path.module}/%1$s/catalog/catalog.json"))
                  kubernetes_version  = "1.20"
                  functions           = ["require-labels"]
                  default_url         = "https://127.0.0.1:%2$d"
                  ca_bundle           = file("%3$s")
                  path_tokens         = local.path_tokens[each.key]
                  excluded_namespaces = []
                  functions_namespace = null
                }

                output "clusters_json" {
                  value     = module.tokens.clusters_json["require-labels"]
                  sensitive = true
                }

                output "manifests" {
                  value     = { for c, m in module.webhooks : c => m.manifests_yaml }
                  sensitive = true
                }
                """.formatted(tree, port, east.env("KAS_WEBHOOK_CA_FILE"), EAST_TOKEN, WEST_TOKEN));
        return dir;
    }

    @Test
    void oneFunctionServesBothClustersAndKnowsWhichCalls() throws Exception {
        assumeTrue(east != null && west != null);
        int port = HttpsFunction.freePort();
        Path dir = rendering(port);
        Terraform.runOk(dir, "init", "-backend=false", "-input=false", "-no-color");
        Terraform.runOk(dir, "apply", "-auto-approve", "-input=false", "-no-color");
        JsonNode outputs = JSON.readTree(Terraform.runOk(dir, "output", "-json", "-no-color").stdout());
        String clustersJson = outputs.path("clusters_json").path("value").asText();
        String eastYaml = outputs.path("manifests").path("value").path("east").asText();
        String westYaml = outputs.path("manifests").path("value").path("west").asText();
        assertTrue(eastYaml.contains("/" + EAST_TOKEN + "/require-labels") && !eastYaml.contains(WEST_TOKEN), eastYaml);
        assertTrue(westYaml.contains("/" + WEST_TOKEN + "/require-labels") && !westYaml.contains(EAST_TOKEN), westYaml);

        // Both instances trust the kit's one webhook CA, so one HTTPS function serves them both.
        try (HttpsFunction function = HttpsFunction.start(runner, east, port, HttpsFunction.freePort(),
                dir.resolve("function.log"), List.of(), Map.of("TOLLGATE_AUTH_CLUSTERS_JSON", clustersJson,
                        "TOLLGATE_ENFORCEMENT_CLUSTER_MODES", "west=warn"))) {
            east.apply(eastYaml);
            west.apply(westYaml);
            for (KubeApiServer cluster : List.of(east, west)) {
                cluster.apply(ExceptionsOnKubeApiServerTest.namespace("shop", ""));
                cluster.apply(ExceptionsOnKubeApiServerTest.deployment("shop", "web", "team: shop"));
            }
            KubeApiServer.Run eastUnlabelled = east.kubectlRun("apply", "-f", Files.writeString(
                    dir.resolve("east.yaml"), ExceptionsOnKubeApiServerTest.deployment("shop", "unlabelled",
                            "app: web")).toString());
            assertEquals(1, eastUnlabelled.exit(), eastUnlabelled.stdout());
            assertTrue(eastUnlabelled.stderr().contains("admission webhook \"require-labels.tollgate.dev\" denied the "
                    + "request"), eastUnlabelled.stderr());
            // West is in warn: the same Deployment is stored, with the warning.
            KubeApiServer.Run westUnlabelled = west.kubectlRun("apply", "-f", Files.writeString(
                    dir.resolve("west.yaml"), ExceptionsOnKubeApiServerTest.deployment("shop", "unlabelled",
                            "app: web")).toString());
            assertEquals(0, westUnlabelled.exit(), westUnlabelled.stderr());
            assertTrue(westUnlabelled.stderr().contains("Validation failed for function 'require-labels'"),
                    westUnlabelled.stderr());

            List<String> seen = new ArrayList<>();
            for (JsonNode d : function.decisions()) {
                seen.add(d.path("cluster").asText() + " " + d.path("name").asText() + " "
                        + d.path("verdict").asText() + " " + d.path("enforcement").asText());
            }
            assertEquals(List.of("east web allowed enforce", "west web allowed warn", "east unlabelled denied enforce",
                    "west unlabelled allowed warn"), seen, "the function's decision log, one line per review");
            assertFalse(Files.readString(function.log()).contains(EAST_TOKEN), "no token in the function's log");
        }
    }
}
