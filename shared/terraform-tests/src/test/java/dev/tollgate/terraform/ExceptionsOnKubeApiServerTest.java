package dev.tollgate.terraform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

import dev.tollgate.testing.KubeApiServer;

/**
 * The exceptions file through cluster-registration on a real kube-apiserver v1.20 (../shared/tools/kube-apiserver;
 * absent: SKIPPED): the selector-compiled exceptions are accepted by the API server, a request they except never
 * reaches the webhook while the others do, and what 1.20 cannot express (a user, a namespace name) is listed per
 * cluster and function and does reach the webhook. The webhook here is a recorder of the AdmissionReviews the API
 * server sends, answering allowed (the functions themselves are not the subject).
 */
class ExceptionsOnKubeApiServerTest {

    /** Three unexpired exceptions of require-labels: by namespace label, by object label, by user. */
    static final String UNEXPIRED_EXCEPTIONS = """
                exceptions:
                  - name: sandboxes
                    functions: [require-labels]
                    match:
                      namespace_labels: {matchLabels: {tollgate.dev/sandbox: "true"}}
                    reason: sandboxes are deleted nightly
                    expires: "2099-12-31T00:00:00Z"
                  - name: batch-jobs
                    functions: [require-labels]
                    match:
                      object_labels: {matchExpressions: [{key: team, operator: In, values: [batch]}]}
                    reason: the batch team's pipeline checks its own labels
                    expires: "2099-12-31T00:00:00Z"
                  - name: ci-bot
                    functions: [require-labels]
                    match: {users: [ci-bot]}
                    reason: CI redeploys
                    expires: "2099-12-31T00:00:00Z"
                """;

    static final String TEST = "ExceptionsOnKubeApiServerTest";
    static final ObjectMapper JSON = new ObjectMapper();
    static final List<String> received = new CopyOnWriteArrayList<>();

    static KubeApiServer cluster;
    static HttpsServer webhook;

    @BeforeAll
    static void start() throws Exception {
        cluster = KubeApiServer.start(TEST, "exceptions-tf").orElse(null);
        if (cluster == null) {
            return;
        }
        KeyStore keys = KeyStore.getInstance("PKCS12");
        char[] password = cluster.env("KAS_WEBHOOK_P12_PASSWORD").toCharArray();
        try (InputStream in = Files.newInputStream(Path.of(cluster.env("KAS_WEBHOOK_P12_FILE")))) {
            keys.load(in, password);
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, password);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), null, null);
        webhook = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        webhook.setHttpsConfigurator(new HttpsConfigurator(tls));
        webhook.createContext("/", exchange -> {
            JsonNode review = JSON.readTree(exchange.getRequestBody());
            JsonNode request = review.path("request");
            received.add(request.path("operation").asText() + " " + request.path("namespace").asText() + "/"
                    + request.path("name").asText() + " by " + request.path("userInfo").path("username").asText()
                    + " at " + exchange.getRequestURI().getPath());
            ObjectNode answer = JSON.createObjectNode().put("apiVersion", review.path("apiVersion").asText())
                    .put("kind", "AdmissionReview");
            answer.putObject("response").put("uid", request.path("uid").asText()).put("allowed", true);
            byte[] body = JSON.writeValueAsBytes(answer);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        webhook.start();
    }

    @AfterAll
    static void stop() {
        if (webhook != null) {
            webhook.stop(0);
        }
        if (cluster != null) {
            cluster.stop();
        }
    }

    static Path registration() throws IOException {
        Path dir = Terraform.scratchDir("exceptions-kas");
        Path tree = Terraform.workTree();
        Files.writeString(dir.resolve("exceptions.yaml"), UNEXPIRED_EXCEPTIONS + """
                  - name: old-shop
                    functions: [require-labels]
                    match: {namespaces: [shop]}
                    reason: migrated
                    expires: "2021-01-31T00:00:00Z"
                """);
        String relative = dir.relativize(tree).toString().replace('\\', '/');
        Files.writeString(dir.resolve("main.tf"), """
                module "registration" {
                  source      = "%1$s/modules/cluster-registration"
                  catalog     = jsondecode(file("${path.module}/%1$s/catalog/catalog.json"))
                  functions   = ["require-labels"]
                  default_url = "https://127.0.0.1:%2$d"
                  ca_bundle   = file("%3$s")
                  clusters = {
                    one = {
                      kubernetes_version    = "1.20"
                      server                = "%4$s"
                      certificate_authority = file("%5$s")
                      namespace_exclusions  = false
                    }
                    # Planned only: a current cluster, where the same exceptions are matchConditions.
                    two = { kubernetes_version = "1.30", server = "https://two.example.com" }
                  }
                  exceptions = yamldecode(file("${path.module}/exceptions.yaml")).exceptions
                }

                output "one" {
                  value     = module.registration.cluster_manifests_yaml["one"]
                  sensitive = true
                }
                output "applied_by_function" {
                  value = module.registration.exceptions_applied_by_function
                }
                output "compiled" {
                  value = module.registration.exceptions_compiled
                }
                output "expired" {
                  value = module.registration.exceptions_expired
                }
                output "advice" {
                  value = module.registration.exceptions_advice
                }
                """.formatted(relative, webhook.getAddress().getPort(), cluster.env("KAS_WEBHOOK_CA_FILE"), cluster.url(),
                cluster.caFile()));
        return dir;
    }

    @Test
    void selectorCompiledExceptionsAreAcceptedAndKeepExceptedRequestsAwayFromTheWebhook() throws IOException {
        assumeTrue(cluster != null);
        Path dir = registration();
        Terraform.runOk(dir, "init", "-backend=false", "-input=false", "-no-color");
        Terraform.Result applied = Terraform.runOk(dir, "apply", "-auto-approve", "-input=false", "-no-color");
        // The plan says what 1.20 leaves to the function, and what expired.
        assertTrue(applied.flat().contains("so the API server sends their requests to the function (output exceptions_applied_by_function): require-labels: ci-bot"), applied.output());
        assertTrue(applied.flat().contains("Expired exceptions, no longer applied"), applied.output());
        JsonNode out = JSON.readTree(Terraform.runOk(dir, "output", "-json", "-no-color").stdout());
        assertEquals(JSON.readTree("{\"require-labels.tollgate.dev\":{\"batch-jobs\":\"objectSelector\","
                + "\"ci-bot\":\"function\",\"sandboxes\":\"namespaceSelector\"}}"),
                out.path("compiled").path("value").path("one"));
        assertEquals(JSON.readTree("{\"require-labels\":[\"ci-bot\"]}"),
                out.path("applied_by_function").path("value").path("one"));
        assertEquals(JSON.readTree("{\"old-shop\":{\"expires\":\"2021-01-31T00:00:00Z\",\"functions\":[\"require-labels\"],"
                + "\"reason\":\"migrated\"}}"), out.path("expired").path("value"));
        // Issue 45: said per cluster (one, 1.20; not two, 1.30), where the user decides, with the label form that
        // keeps the requests away; the requests reaching the function is shown below (ci-bot's redeploy).
        String advice = "ci-bot (require-labels) excepts by user: on Kubernetes 1.20 (older than 1.28, no "
                + "matchConditions) the function applies it and the requests still reach it. To keep them away, "
                + "except by label instead, which a selector applies on every version: match.namespace_labels with "
                + "one requirement on labelled namespaces (namespaceSelector), or match.object_labels with one "
                + "requirement (objectSelector).";
        assertEquals(JSON.readTree("{\"one\":{\"ci-bot\":" + JSON.writeValueAsString(advice) + "}}"),
                out.path("advice").path("value"));
        assertTrue(applied.flat().contains(advice), applied.output());

        // The API server validates and stores the selectors Terraform rendered.
        String result = cluster.apply(out.path("one").path("value").asText());
        assertTrue(result.contains("validatingwebhookconfiguration.admissionregistration.k8s.io/tollgate created"), result);
        JsonNode stored = JSON.readTree(cluster.kubectl("get", "validatingwebhookconfiguration", "tollgate", "-o",
                "json")).path("webhooks").get(0);
        assertEquals(JSON.readTree("{\"matchExpressions\":[{\"key\":\"tollgate.dev/sandbox\",\"operator\":\"NotIn\","
                + "\"values\":[\"true\"]}]}"), stored.path("namespaceSelector"));
        assertEquals(JSON.readTree("{\"matchExpressions\":[{\"key\":\"team\",\"operator\":\"NotIn\","
                + "\"values\":[\"batch\"]}]}"), stored.path("objectSelector"));

        cluster.apply(namespace("shop", "") + "---\n" + namespace("play", "tollgate.dev/sandbox: \"true\""));
        received.clear();
        cluster.apply(deployment("shop", "web", "app: web"));
        cluster.apply(deployment("shop", "nightly", "team: batch"));  // excepted: batch-jobs (objectSelector)
        cluster.apply(deployment("play", "web", "app: web"));         // excepted: sandboxes (namespaceSelector)
        cluster.kubectl("create", "deployment", "redeploy", "-n", "shop", "--image=registry.example.com/web:1",
                "--as=ci-bot", "--as-group=system:masters");           // ci-bot: not expressible on 1.20
        assertEquals(List.of("CREATE shop/web by admin at /require-labels",
                "CREATE shop/redeploy by ci-bot at /require-labels"), received.stream()
                .map(r -> r.replaceFirst(" by [^ ]*admin[^ ]* at", " by admin at")).toList());
        // The excepted ones were admitted without the webhook: they are stored.
        assertTrue(cluster.kubectl("get", "deployments", "-A", "-o", "name").contains("deployment.apps/nightly"));
    }

    static String namespace(String name, String labels) {
        return "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + name + "\n  labels: {" + labels + "}\n"
                + "---\napiVersion: v1\nkind: ServiceAccount\nmetadata: {name: default, namespace: " + name + "}\n"
                + "automountServiceAccountToken: false\n";
    }

    static String deployment(String namespace, String name, String label) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: %2$s
                  namespace: %1$s
                  labels: {%3$s}
                spec:
                  selector: {matchLabels: {run: %2$s}}
                  template:
                    metadata: {labels: {run: %2$s}}
                    spec:
                      containers: [{name: app, image: registry.example.com/%2$s:1}]
                """.formatted(namespace, name, label);
    }
}
