package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;

import dev.tollgate.simulator.cli.ReviewCommand;
import picocli.CommandLine;

/**
 * {@code tollgate review --webhook functions/<name>/webhook.yaml --url URL}: a function that is not bundled (one just
 * generated from the template) is reviewed against where it runs, from its own registration.
 */
class WebhookOptionTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private HttpServer server;
    private String url;
    private Path webhook;
    private Path pod;

    /** A stand-in for the new function: denies pods whose image has the latest tag, at /deny-latest-tag. */
    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/deny-latest-tag", exchange -> {
            JsonNode review = JSON.readTree(exchange.getRequestBody());
            boolean latest = review.at("/request/object/spec/containers/0/image").asText().endsWith(":latest");
            ObjectNode answer = JSON.createObjectNode().put("apiVersion", "admission.k8s.io/v1")
                    .put("kind", "AdmissionReview");
            ObjectNode response = answer.putObject("response").put("uid", review.at("/request/uid").asText())
                    .put("allowed", !latest);
            if (latest) {
                response.putObject("status").put("code", 403).put("message", "image tag latest is not allowed");
            }
            byte[] body = JSON.writeValueAsBytes(answer);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        url = "http://127.0.0.1:" + server.getAddress().getPort();
        Path function = Files.createDirectories(dir.resolve("functions/deny-latest-tag"));
        webhook = Files.writeString(function.resolve("webhook.yaml"), """
                name: deny-latest-tag.tollgate.dev
                type: validating
                path: /deny-latest-tag
                rules:
                  - operations: ["CREATE", "UPDATE"]
                    apiGroups: [""]
                    apiVersions: ["v1"]
                    resources: ["pods"]
                    scope: Namespaced
                failurePolicy: Fail
                sideEffects: None
                timeoutSeconds: 10
                admissionReviewVersions: ["v1"]
                """);
        pod = Files.writeString(dir.resolve("pod.yaml"), """
                apiVersion: v1
                kind: Pod
                metadata: {name: web, namespace: shop}
                spec: {containers: [{name: app, image: "nginx:latest"}]}
                """);
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private record Run(int exit, String printed) {
    }

    private static Run review(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream both = new PrintStream(buffer, true, StandardCharsets.UTF_8);
        System.setOut(both);
        System.setErr(both);
        try {
            int exit = new CommandLine(new ReviewCommand(() -> {
                throw new AssertionError("the in-process bundle is not used with --webhook");
            })).execute(args);
            return new Run(exit, buffer.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    @Test
    void aFunctionThatIsNotBundledIsReviewedFromItsWebhookYaml() {
        Run r = review("--webhook", webhook.toString(), "--url", url, "-o", "json", pod.toString());
        assertEquals(1, r.exit(), r.printed());
        assertTrue(r.printed().contains("admission webhook \\\"deny-latest-tag.tollgate.dev\\\" denied the request: "
                + "image tag latest is not allowed"), r.printed());
        // Only that function's webhooks: none of the bundled ones was called.
        assertTrue(!r.printed().contains("require-labels.tollgate.dev"), r.printed());

        Run named = review("--webhook", webhook.toString(), "--url", "deny-latest-tag=" + url, pod.toString());
        assertEquals(1, named.exit(), named.printed());
    }

    @Test
    void badCombinationsAreToldInOneLine() {
        Run noUrl = review("--webhook", webhook.toString(), pod.toString());
        assertEquals(2, noUrl.exit(), noUrl.printed());
        assertEquals(List.of("tollgate review: --webhook needs --url: where its function is served (only the bundled "
                + "functions are served in-process), e.g. --url http://127.0.0.1:8080"), noUrl.printed().lines().toList());

        Run other = review("--webhook", webhook.toString(), "--url", "require-labels=" + url, pod.toString());
        assertEquals(2, other.exit(), other.printed());
        assertEquals(List.of("tollgate review: --url names functions that no --webhook file declares: [require-labels] "
                + "(declared: [deny-latest-tag])"), other.printed().lines().toList());

        Run notBundled = review("--url", "deny-latest-tag=" + url, pod.toString());
        assertEquals(2, notBundled.exit(), notBundled.printed());
        assertEquals(List.of("tollgate review: --url names functions that are not bundled: [deny-latest-tag]; give "
                + "another function's webhook.yaml with --webhook"), notBundled.printed().lines().toList());

        Run missing = review("--webhook", dir.resolve("nope/webhook.yaml").toString(), "--url", url, pod.toString());
        assertEquals(2, missing.exit(), missing.printed());
        assertEquals(List.of("tollgate review: --webhook " + dir.resolve("nope/webhook.yaml") + ": no such file"),
                missing.printed().lines().toList());
    }
}
