package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
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

import dev.tollgate.simulator.cli.ReplayCommand;

/**
 * {@code tollgate replay} (the picocli command) against a function that is not bundled ({@code --webhook}), served by
 * an HTTP server of the test in two versions: {@code /v1} trusts images under registry.example.com/, {@code /v2}
 * only under registry.example.com/shop/ and warns about the latest tag.
 */
class ReplayCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private HttpServer server;
    private String url;
    private Path webhook;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        for (String version : List.of("v1", "v2")) {
            server.createContext("/" + version + "/registry", exchange -> {
                JsonNode review = JSON.readTree(exchange.getRequestBody());
                String image = review.at("/request/object/spec/containers/0/image").asText();
                String trusted = version.equals("v1") ? "registry.example.com/" : "registry.example.com/shop/";
                ObjectNode answer = JSON.createObjectNode().put("apiVersion", "admission.k8s.io/v1")
                        .put("kind", "AdmissionReview");
                ObjectNode response = answer.putObject("response").put("uid", review.at("/request/uid").asText())
                        .put("allowed", image.startsWith(trusted));
                if (!image.startsWith(trusted)) {
                    response.putObject("status").put("code", 403).put("message", image + " is not trusted");
                }
                if (version.equals("v2") && image.endsWith(":latest")) {
                    response.putArray("warnings").add("the latest tag moves");
                }
                byte[] body = JSON.writeValueAsBytes(answer);
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
        }
        server.start();
        url = "http://127.0.0.1:" + server.getAddress().getPort();
        webhook = Files.writeString(Files.createDirectories(dir.resolve("functions/registry")).resolve("webhook.yaml"),
                """
                name: registry.tollgate.dev
                type: validating
                path: /registry
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
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    /** A create of pod {@code name} as the API server logs it, allowed or denied by registry.tollgate.dev. */
    private static String create(String name, String image, boolean allowed) {
        ObjectNode e = JSON.createObjectNode().put("kind", "Event").put("apiVersion", "audit.k8s.io/v1")
                .put("level", "Request").put("stage", "ResponseComplete").put("verb", "create")
                .put("requestURI", "/api/v1/namespaces/shop/pods");
        e.putObject("user").put("username", "alice");
        e.putObject("objectRef").put("resource", "pods").put("namespace", "shop").put("name", name)
                .put("apiVersion", "v1");
        ObjectNode status = e.putObject("responseStatus").put("code", allowed ? 201 : 403);
        if (!allowed) {
            status.put("message", "admission webhook \"registry.tollgate.dev\" denied the request: " + image
                    + " is not trusted");
        }
        ObjectNode pod = e.putObject("requestObject").put("apiVersion", "v1").put("kind", "Pod");
        pod.putObject("metadata").put("name", name).put("namespace", "shop");
        pod.putObject("spec").putArray("containers").addObject().put("name", "app").put("image", image);
        return e.toString();
    }

    private Path log() throws Exception {
        return Files.write(dir.resolve("audit.log"), List.of(
                create("web", "registry.example.com/shop/web:latest", true),
                create("tools", "registry.example.com/tools/kit:2", true),
                create("evil", "evil.example.com/x:1", false),
                "not json"));
    }

    private static CapturedCommand.Output replay(String... args) {
        return CapturedCommand.run(new ReplayCommand(() -> {
            throw new AssertionError("the in-process bundle is not used with --webhook");
        }), args);
    }

    @Test
    void theRecordedOutcomesAgainstTheSameVersionAreNoChange() throws Exception {
        CapturedCommand.Output r = replay("--webhook", webhook.toString(), "--url", url + "/v1", "--no-progress",
                log().toString());
        assertEquals(0, r.exit(), r.stdout() + r.stderr());
        assertTrue(r.stdout().contains("0 of 3 replayed requests changed; 0 not replayed, 1 unreadable lines"),
                r.stdout());
        assertTrue(r.stdout().contains("audit.log:4: not JSON"), r.stdout());
        assertTrue(r.stderr().startsWith("replay: 4 lines in "), r.stderr());
    }

    @Test
    void aCandidateVersionAgainstARecordedAndAServedBaseline() throws Exception {
        CapturedCommand.Output recorded = replay("--webhook", webhook.toString(), "--url", url + "/v2",
                "--no-progress", "-o", "json", log().toString());
        assertEquals(1, recorded.exit(), recorded.stdout() + recorded.stderr());
        JsonNode r = JSON.readTree(recorded.stdout());
        JsonNode changes = r.path("functions").path("registry").path("changes");
        assertEquals("Pod shop/tools (CREATE)", changes.path("allowedToDenied").path("examples").path(0)
                .path("object").asText());
        assertEquals(1, changes.path("allowedToDenied").path("count").asInt());
        assertEquals(0, changes.path("warningsAdded").path("count").asInt(), "the log holds no warnings");
        assertEquals(false, r.path("warningsCompared").asBoolean());

        CapturedCommand.Output served = replay("--webhook", webhook.toString(), "--url", url + "/v2",
                "--baseline-url", url + "/v1", "--no-progress", "-o", "json", log().toString());
        assertEquals(1, served.exit(), served.stdout() + served.stderr());
        JsonNode s = JSON.readTree(served.stdout());
        assertEquals("served by " + url + "/v1", s.path("baseline").asText());
        JsonNode both = s.path("functions").path("registry").path("changes");
        assertEquals(1, both.path("allowedToDenied").path("count").asInt());
        assertEquals("Pod shop/web (CREATE)", both.path("warningsAdded").path("examples").path(0).path("object")
                .asText());
        assertEquals("the latest tag moves", both.path("warningsAdded").path("examples").path(0).path("after")
                .asText());
        assertEquals(true, s.path("warningsCompared").asBoolean());
    }

    @Test
    void badInputIsOneLineAndExitStatus2() throws Exception {
        Path log = log();
        CapturedCommand.Output missing = replay("--webhook", webhook.toString(), "--url", url + "/v1",
                dir.resolve("nosuch.log").toString());
        assertEquals(2, missing.exit());
        assertEquals(List.of("tollgate replay: " + dir.resolve("nosuch.log") + ": no such file"),
                missing.stderr().lines().toList());
        CapturedCommand.Output served = replay("--webhook", webhook.toString(), "--url", url + "/v1", "--baseline",
                "served", log.toString());
        assertEquals(2, served.exit());
        assertEquals(List.of("tollgate replay: --baseline served needs --baseline-url: where the baseline set is "
                + "served"), served.stderr().lines().toList());
        CapturedCommand.Output word = replay("--webhook", webhook.toString(), "--url", url + "/v1", "--baseline",
                "yesterday", log.toString());
        assertEquals(List.of("tollgate replay: --baseline must be recorded or served, got 'yesterday'"),
                word.stderr().lines().toList());
        CapturedCommand.Output cache = replay("--webhook", webhook.toString(), "--url", url + "/v1",
                "--cache-size", "0", log.toString());
        assertEquals(2, cache.exit());
        assertEquals(List.of("tollgate replay: --cache-size must be at least 1, got 0"),
                cache.stderr().lines().toList());
    }
}
