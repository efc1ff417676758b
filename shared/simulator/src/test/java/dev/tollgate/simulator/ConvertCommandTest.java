package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;

import dev.tollgate.admission.HandlerResult;
import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.admission.conversion.ConversionCodec;
import dev.tollgate.admission.conversion.ConversionHandler;
import dev.tollgate.admission.conversion.ConversionReview;
import dev.tollgate.admission.registration.WebhookRegistration;
import dev.tollgate.functions.crdconversion.DatabaseConversion;
import dev.tollgate.simulator.cli.ConvertCommand;

/** {@code tollgate convert}: in-process and over HTTP, the API server's checks on answers, bad input. */
class ConvertCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path EXAMPLES = ProjectRootHolder.root().resolve("functions/crd-conversion/examples");

    /** The repository root: the simulator module's parent's parent. */
    static final class ProjectRootHolder {
        static Path root() {
            String root = System.getProperty("tollgate.root.dir");
            return root != null ? Path.of(root) : Path.of("../..").toAbsolutePath().normalize();
        }
    }

    private static CapturedCommand.Output run(String... args) {
        return run(new ConvertCommand(() -> Map.of("crd-conversion", new DatabaseConversion())), args);
    }

    /** Runs the command with its stdout and stderr captured (its error lines are the tests' to check, not printed). */
    private static CapturedCommand.Output run(ConvertCommand command, String... args) {
        return CapturedCommand.run(command, args);
    }

    /** Bad input: exit status 2 and the one error line (the first) naming the problem. */
    private static void assertBadInput(CapturedCommand.Output out, String expected) {
        assertEquals(2, out.exit(), out.stderr());
        assertEquals("tollgate convert: " + expected, out.stderr().lines().findFirst().orElse(""), out.stderr());
    }

    /** The bundled conversion entry is a CRD's spec.conversion: never rendered as an admission webhook. */
    @Test
    void theBundledConversionEntryIsNoAdmissionWebhook() {
        List<WebhookRegistration> conversions = BundleCatalog.conversions();
        assertEquals(List.of("databases.data.tollgate.dev"), conversions.stream().map(WebhookRegistration::name)
                .toList());
        assertTrue(BundleCatalog.registrations().stream().noneMatch(WebhookRegistration::conversion));
        List<WebhookRegistration> everything = new java.util.ArrayList<>(BundleCatalog.registrations());
        everything.addAll(conversions);
        Configurations rendered = Configurations.render(everything, f -> "https://functions.example", "", List.of());
        int webhooks = 0;
        for (JsonNode config : rendered.objects()) {
            for (JsonNode w : config.path("webhooks")) {
                webhooks++;
                assertTrue(!w.path("clientConfig").path("url").asText().endsWith("/crd-conversion"), w.toString());
            }
        }
        assertEquals(BundleCatalog.registrations().size(), webhooks, "one webhook per admission entry");
    }

    @Test
    void convertsTheExamplesInProcess() {
        CapturedCommand.Output out = run("--to", "data.tollgate.dev/v1", EXAMPLES.toString());
        assertEquals(0, out.exit(), out.stdout());
        assertTrue(out.stdout().contains("Database shop/orders (data.tollgate.dev/v1alpha1 -> data.tollgate.dev/v1)"),
                out.stdout());
        assertTrue(out.stdout().contains("CONVERTED by crd-conversion (in-process)"), out.stdout());
        assertTrue(out.stdout().contains("tlsMode: disable"), out.stdout());
        assertTrue(out.stdout().contains("version: \"16.2\""), "a version string stays a string: " + out.stdout());
        assertTrue(out.stdout().contains("UNCHANGED: already data.tollgate.dev/v1: the API server does not call the "
                + "webhook"), out.stdout());
        assertTrue(out.stdout().endsWith("3 objects: 2 converted, 1 unchanged, 0 failed\n"), out.stdout());
    }

    @Test
    void jsonShowsEveryObjectAndTheReviewSent() throws IOException {
        CapturedCommand.Output out = run("--to", "data.tollgate.dev/v1alpha1", "--review-version", "v1beta1", "-o", "json",
                EXAMPLES.toString());
        assertEquals(0, out.exit(), out.stdout());
        JsonNode report = JSON.readTree(out.stdout());
        assertEquals(3, report.path("objects").size());
        JsonNode search = report.path("objects").get(2).path("object");
        assertEquals("opensearch:2.13", search.path("spec").path("engine").asText());
        assertTrue(search.path("metadata").path("annotations").path(DatabaseConversion.STASH).asText()
                .contains("\"tlsMode\":\"require\""));
        assertEquals(1, report.path("reviews").size(), "one review per kind, as for a list");
        assertEquals("apiextensions.k8s.io/v1beta1", report.path("reviews").get(0).path("request").path("apiVersion")
                .asText());
        assertEquals(2, report.path("reviews").get(0).path("request").path("request").path("objects").size(),
                "the object already in v1alpha1 is not sent");
    }

    @Test
    void aFailureFromThePolicyFailsTheConversion() {
        CapturedCommand.Output out = run("--to", "data.tollgate.dev/v2", EXAMPLES.resolve("orders.v1alpha1.yaml").toString());
        assertEquals(1, out.exit(), out.stdout());
        assertTrue(out.stdout().contains("FAILED: conversion webhook for data.tollgate.dev/v1alpha1, Kind=Database "
                + "failed: objects[0] (Database shop/orders, data.tollgate.dev/v1alpha1): cannot convert to "
                + "data.tollgate.dev/v2: the desired apiVersion data.tollgate.dev/v2 is not one of"), out.stdout());
    }

    @Test
    void badInputIsExitStatus2() throws IOException {
        assertBadInput(run("--to", "v1", EXAMPLES.toString()),
                "--to must be <group>/<version> of a custom resource, got 'v1'");
        assertBadInput(run("--to", "data.tollgate.dev/v1", "-o", "yaml", EXAMPLES.toString()),
                "--output must be text or json, got 'yaml'");
        assertBadInput(run("--to", "data.tollgate.dev/v1", "--review-version", "v2", EXAMPLES.toString()),
                "--review-version must be v1 or v1beta1, got 'v2'");
        assertBadInput(run("--to", "data.tollgate.dev/v1", "--function", "nope", EXAMPLES.toString()),
                "--function nope is not a bundled conversion policy; bundled: [crd-conversion]");
        CapturedCommand.Output missing = run("--to", "data.tollgate.dev/v1", "no-such-file.yaml");
        assertBadInput(missing, "bad input:");
        assertTrue(missing.stderr().contains("  - no-such-file.yaml: no such file or folder"), missing.stderr());
        Path pod = Files.createTempFile("pod", ".yaml");
        Files.writeString(pod, "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\n");
        CapturedCommand.Output notInGroup = run("--to", "data.tollgate.dev/v1", pod.toString());
        assertBadInput(notInGroup, "only custom resources of the --to group convert:");
        assertTrue(notInGroup.stderr().contains(pod + ": Pod v1 is not in group data.tollgate.dev"),
                notInGroup.stderr());
        assertBadInput(run(new ConvertCommand(Map::of), "--to", "data.tollgate.dev/v1", EXAMPLES.toString()),
                "no conversion policy is bundled: give --url");
    }

    @Test
    void convertsOverHttpWithTheSimulatorsClient() throws IOException {
        ConversionHandler handler = new ConversionHandler(new ConversionCodec());
        HttpServer server = serve(body -> {
            HandlerResult<ConversionReview> r = handler.handle(body, "crd-conversion", new DatabaseConversion());
            return r.body();
        });
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/crd-conversion";
            CapturedCommand.Output out = run("--to", "data.tollgate.dev/v1beta1", "--url", url, EXAMPLES.toString());
            assertEquals(0, out.exit(), out.stdout());
            assertTrue(out.stdout().contains("CONVERTED by " + url), out.stdout());
            assertTrue(out.stdout().endsWith("3 objects: 2 converted, 1 unchanged, 0 failed\n"), out.stdout());
        } finally {
            server.stop(0);
        }
    }

    /** Each kind of bad answer a webhook could give is refused as the API server refuses it. */
    @Test
    void answersTheApiServerRefusesFailTheConversion() throws IOException {
        List<InputManifest> inputs = InputManifest.read(List.of(EXAMPLES.resolve("orders.v1alpha1.yaml"),
                EXAMPLES.resolve("carts.v1beta1.yaml")));
        record Case(String name, UnaryOperator<ObjectNode> corrupt, String expected) {
        }
        List<Case> cases = List.of(
                new Case("wrong uid", a -> with(a, r -> r.with("response").put("uid", "other")),
                        "expected response.uid="),
                new Case("answer in another version", a -> with(a, r -> r.put("apiVersion",
                        "apiextensions.k8s.io/v1beta1")), "expected webhook response of apiextensions.k8s.io/v1"),
                new Case("one object missing", a -> with(a, r -> r.with("response").withArray("convertedObjects")
                        .remove(1)), "returned 1 objects, expected 2"),
                new Case("objects swapped", a -> with(a, r -> {
                    var list = r.with("response").withArray("convertedObjects");
                    JsonNode first = list.remove(0);
                    list.add(first);
                }), "must have the same name: orders != carts"),
                new Case("wrong version", a -> with(a, r -> ((ObjectNode) r.with("response")
                        .withArray("convertedObjects").get(0)).put("apiVersion", "data.tollgate.dev/v1beta1")),
                        "invalid groupVersion (expected data.tollgate.dev/v1, received data.tollgate.dev/v1beta1)"),
                new Case("other kind", a -> with(a, r -> ((ObjectNode) r.with("response")
                        .withArray("convertedObjects").get(0)).put("kind", "Table")),
                        "invalid kind (expected Database, received Table)"),
                new Case("metadata changed", a -> with(a, r -> ((ObjectNode) r.with("response")
                        .withArray("convertedObjects").get(1)).with("metadata").put("generation", 9)),
                        "convertedObjects[1]: metadata.generation changed"),
                new Case("Failure without message", a -> with(a, r -> r.with("response").with("result")
                        .put("status", "Failure")), "Failure without a message"));
        for (Case c : cases) {
            Conversions.Run run = Conversions.convert(inputs, "data.tollgate.dev/v1", ReviewVersion.V1,
                    corrupted(c.corrupt()));
            assertTrue(run.outcomes().stream().allMatch(o -> o.status().equals(Conversions.Outcome.FAILED)), c.name());
            String message = run.outcomes().get(0).message();
            assertTrue(message.startsWith("conversion webhook for data.tollgate.dev/v1alpha1, Kind=Database returned "
                    + "an answer the API server refuses") && message.contains(c.expected()), c.name() + ": " + message);
        }
        Conversions.Run failed = Conversions.convert(inputs, "data.tollgate.dev/v1", ReviewVersion.V1,
                corrupted(a -> with(a, r -> r.with("response").with("result").put("status", "Failure")
                        .put("message", "no such engine"))));
        assertEquals("conversion webhook for data.tollgate.dev/v1alpha1, Kind=Database failed: no such engine",
                failed.outcomes().get(1).message());
        Conversions.Run http500 = Conversions.convert(inputs, "data.tollgate.dev/v1", ReviewVersion.V1,
                new Conversions.Target() {
                    public WebhookClient.Answer send(byte[] review) {
                        return new WebhookClient.Answer(500, "{\"message\":\"boom\"}".getBytes(StandardCharsets.UTF_8));
                    }

                    public String describe() {
                        return "broken";
                    }
                });
        assertTrue(http500.outcomes().get(0).message().endsWith("failed: an error on the server (\"unknown\") has "
                + "prevented the request from succeeding"), http500.outcomes().get(0).message());
    }

    /** The real policy's answer, then corrupted. */
    private static Conversions.Target corrupted(UnaryOperator<ObjectNode> corrupt) {
        ConversionHandler handler = new ConversionHandler(new ConversionCodec());
        return new Conversions.Target() {
            public WebhookClient.Answer send(byte[] review) {
                try {
                    ObjectNode answer = (ObjectNode) JSON.readTree(handler.handle(review, "crd-conversion", new DatabaseConversion())
                            .body());
                    return new WebhookClient.Answer(200, JSON.writeValueAsBytes(corrupt.apply(answer)));
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }

            public String describe() {
                return "corrupting";
            }
        };
    }

    private static ObjectNode with(ObjectNode node, java.util.function.Consumer<ObjectNode> change) {
        change.accept(node);
        return node;
    }

    private static HttpServer serve(java.util.function.Function<byte[], byte[]> handler) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/crd-conversion", exchange -> {
            byte[] body = handler.apply(exchange.getRequestBody().readAllBytes());
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return server;
    }
}
