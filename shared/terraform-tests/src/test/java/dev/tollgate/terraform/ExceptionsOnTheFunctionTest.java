package dev.tollgate.terraform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.tollgate.testing.HttpsFunction;
import dev.tollgate.testing.KubeApiServer;

/**
 * The exceptions file end to end with the function itself, not a stand-in: cluster-registration compiles it for a
 * real kube-apiserver v1.20 (../shared/tools/kube-apiserver), and the packaged require-labels serves the cluster over
 * HTTPS behind the cluster's path token, reading the same file. What the selectors except never reaches the function
 * (its decision log has no line for it, the object is stored); what 1.20 cannot express (a user) reaches it and the
 * function excepts it itself; the rest is judged. Needs the function packaged
 * ({@code functions/require-labels/target/quarkus-app}), which the reactor does before this module; without it, or
 * without the kit, the test says SKIPPED and why.
 */
class ExceptionsOnTheFunctionTest {

    static final String TEST = "ExceptionsOnTheFunctionTest";
    static final ObjectMapper JSON = new ObjectMapper();
    static final String TOKEN = "exceptions-on-the-function-path-token";

    static KubeApiServer cluster;
    static HttpsFunction function;
    static int port;

    @BeforeAll
    static void start() throws Exception {
        Path runner = ProjectRoot.get().resolve("functions/require-labels/target/quarkus-app/quarkus-run.jar");
        if (!Files.isRegularFile(runner)) {
            System.out.println("SKIPPED " + TEST + ": " + runner + " is not built (./mvnw -B -pl "
                    + "functions/require-labels -am package -DskipTests)");
            return;
        }
        cluster = KubeApiServer.start(TEST, "exceptions-fn").orElse(null);
        if (cluster == null) {
            return;
        }
        port = HttpsFunction.freePort();
        Path dir = Terraform.scratchDir("exceptions-function");
        function = HttpsFunction.start(runner, cluster, port, HttpsFunction.freePort(), dir.resolve("function.log"),
                List.of("-Dtollgate.auth.clusters.one.path-token.values=" + TOKEN,
                        "-Dtollgate.exceptions.file=" + exceptionsFile(dir)));
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


    static Path exceptionsFile(Path dir) throws IOException {
        return Files.writeString(dir.resolve("exceptions.yaml"), ExceptionsOnKubeApiServerTest.UNEXPIRED_EXCEPTIONS);
    }

    static Path registration() throws IOException {
        Path tree = Terraform.workTree();
        Path dir = Terraform.target().resolve("terraform-work").resolve("exceptions-function");
        String relative = dir.relativize(tree).toString().replace('\\', '/');
        Files.writeString(dir.resolve("main.tf"), """
                module "registration" {
                  source      = "%1$s/modules/cluster-registration"
                  catalog     = jsondecode(file("${path.module}/%1$s/catalog/catalog.json"))
                  functions   = ["require-labels"]
                  default_url = "https://127.0.0.1:%2$d"
                  ca_bundle   = file("%3$s")
                  path_tokens = { one = { "require-labels" = "%6$s" } }
                  clusters = {
                    one = {
                      kubernetes_version    = "1.20"
                      server                = "%4$s"
                      certificate_authority = file("%5$s")
                      namespace_exclusions  = false
                    }
                  }
                  exceptions = yamldecode(file("${path.module}/exceptions.yaml")).exceptions
                }

                output "one" {
                  value     = module.registration.cluster_manifests_yaml["one"]
                  sensitive = true
                }
                """.formatted(relative, port, cluster.env("KAS_WEBHOOK_CA_FILE"), cluster.url(), cluster.caFile(),
                TOKEN));
        return dir;
    }

    @Test
    void exceptedRequestsNeverReachTheFunctionAndTheFunctionExceptsWhatTheClusterCannot() throws Exception {
        assumeTrue(function != null && cluster != null);
        Path dir = registration();
        Terraform.runOk(dir, "init", "-backend=false", "-input=false", "-no-color");
        Terraform.runOk(dir, "apply", "-auto-approve", "-input=false", "-no-color");
        String manifests = JSON.readTree(Terraform.runOk(dir, "output", "-json", "-no-color").stdout()).path("one")
                .path("value").asText();
        assertTrue(manifests.contains("/" + TOKEN + "/require-labels"), "the webhook calls behind the path token");
        cluster.apply(manifests);
        cluster.apply(ExceptionsOnKubeApiServerTest.namespace("shop", "") + "---\n"
                + ExceptionsOnKubeApiServerTest.namespace("play", "tollgate.dev/sandbox: \"true\""));

        cluster.apply(ExceptionsOnKubeApiServerTest.deployment("shop", "web", "team: shop"));
        KubeApiServer.Run unlabelled = cluster.kubectlRun("apply", "-f", Files.writeString(dir.resolve("d.yaml"),
                ExceptionsOnKubeApiServerTest.deployment("shop", "unlabelled", "app: web")).toString());
        assertEquals(1, unlabelled.exit(), unlabelled.stdout());
        assertTrue(unlabelled.stderr().contains("admission webhook \"require-labels.tollgate.dev\" denied the request"),
                unlabelled.stderr());
        cluster.apply(ExceptionsOnKubeApiServerTest.deployment("shop", "nightly", "team: batch")); // objectSelector
        cluster.apply(ExceptionsOnKubeApiServerTest.deployment("play", "web", "app: web"));       // namespaceSelector
        cluster.kubectl("create", "deployment", "redeploy", "-n", "shop", "--image=registry.example.com/web:1",
                "--as=ci-bot", "--as-group=system:masters");                                    // by the function

        List<String> seen = new ArrayList<>();
        for (JsonNode d : function.decisions()) {
            seen.add(d.path("namespace").asText() + "/" + d.path("name").asText() + " " + d.path("cluster").asText()
                    + " " + d.path("decision").asText() + " " + d.path("exception").asText());
        }
        assertEquals(List.of("shop/web one allowed ", "shop/unlabelled one denied ", "shop/redeploy one excepted ci-bot"),
                seen, "the function's decision log: one line per request that reached it");
        String stored = cluster.kubectl("get", "deployments", "-A", "-o", "name");
        for (String name : List.of("web", "nightly", "redeploy")) {
            assertTrue(stored.contains("deployment.apps/" + name), stored);
        }
        assertTrue(!stored.contains("unlabelled"), stored);
    }
}
