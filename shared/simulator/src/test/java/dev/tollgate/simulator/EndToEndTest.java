package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

import dev.tollgate.simulator.cli.ReviewCommand;
import dev.tollgate.testing.Readiness;
import picocli.CommandLine;

/**
 * The whole chain as a cluster would run it: the all-in-one bundle (its packaged quarkus-app) serving HTTPS from PEM
 * files on a free port, the configurations rendered from the bundled catalog, and {@code tollgate review} on the
 * shipped examples plus a few test manifests. Two webhooks of the test's own stand in for what no function does: one
 * that never answers in time, and a sidecar injector that makes always-pull-images run again.
 */
class EndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    private static TestCertificates certs;
    private static Process bundle;
    private static Path bundleLog;
    private static int bundlePort;
    private static int managementPort;
    private static HttpsServer testWebhooks;
    private static Path e2eConfig;

    @BeforeAll
    static void startBundleAndTestWebhooks() throws Exception {
        Path root = Path.of(System.getProperty("tollgate.root.dir", "../.."));
        Path runner = root.resolve("functions/all-in-one/target/quarkus-app/quarkus-run.jar");
        if (!Files.isRegularFile(runner)) {
            fail("the all-in-one bundle is not built: " + runner + " is missing. Build it first with "
                    + "./mvnw -B -pl functions/all-in-one -am package -DskipTests (a root ./mvnw verify does this)");
        }
        certs = TestCertificates.create(dir);
        Path policies = Path.of("policies").toAbsolutePath();
        bundlePort = freePort();
        managementPort = freePort();
        bundleLog = dir.resolve("bundle.log");
        bundle = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.http.port=0",
                "-Dquarkus.http.ssl-port=" + bundlePort,
                "-Dquarkus.http.insecure-requests=disabled",
                // HTTPS from PEM files through the runtime's TLS registry configuration (rotation-capable).
                "-Dquarkus.tls.tollgate.key-store.pem.0.cert=" + certs.certFile,
                "-Dquarkus.tls.tollgate.key-store.pem.0.key=" + certs.keyFile,
                "-Dquarkus.http.tls-configuration-name=tollgate",
                // Health and metrics on the management interface, plain HTTP on loopback.
                "-Dquarkus.management.host=127.0.0.1",
                "-Dquarkus.management.port=" + managementPort,
                // The simulator plays an API server that presents no credentials; the runtime's caller checks have
                // their own tests.
                "-Dtollgate.auth.required=false",
                // The bundled cel-policy and cel-mutate read the simulator's example policies, exactly as the
                // all-in-one README starts them: namespaces those files do not list get the functions' default,
                // which is the simulator's (only the kubernetes.io/metadata.name label).
                "-Dtollgate.cel-policy.config=" + policies.resolve("cel-policy") + "," + policies.resolve("namespaces.yaml"),
                "-Dtollgate.cel-mutate.config=" + policies.resolve("cel-mutate") + "," + policies.resolve("namespaces.yaml"),
                "-jar", runner.toAbsolutePath().toString())
                .redirectErrorStream(true).redirectOutput(bundleLog.toFile()).start();
        waitUntilReady();

        testWebhooks = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        testWebhooks.setHttpsConfigurator(new HttpsConfigurator(certs.serverContext()));
        testWebhooks.setExecutor(Executors.newCachedThreadPool());
        testWebhooks.createContext("/slow", EndToEndTest::slow);
        testWebhooks.createContext("/inject", EndToEndTest::inject);
        testWebhooks.start();
        e2eConfig = writeTestConfigurations(testWebhooks.getAddress().getPort());
    }

    @AfterAll
    static void stop() throws Exception {
        if (testWebhooks != null) {
            testWebhooks.stop(0);
        }
        if (bundle != null) {
            bundle.destroy();
            if (!bundle.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                bundle.destroyForcibly();
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void waitUntilReady() {
        Readiness.await(bundle, URI.create("http://127.0.0.1:" + managementPort + "/q/health/ready"),
                Duration.ofSeconds(90), bundleLog);
    }

    // ---- the test's own webhooks ----

    /** Answers only after 3 s, past the 1 s timeoutSeconds of the webhooks pointing here. */
    private static void slow(HttpExchange exchange) throws IOException {
        try {
            Thread.sleep(3000);
            JsonNode review = JSON.readTree(exchange.getRequestBody());
            respond(exchange, FakeWebhooks.response((ObjectNode) review));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // the caller gave up long ago
        }
    }

    /** Adds a sidecar to pods that have one container; says so in a warning when the request is a dry run. */
    private static void inject(HttpExchange exchange) throws IOException {
        ObjectNode review = (ObjectNode) JSON.readTree(exchange.getRequestBody());
        JsonNode request = review.path("request");
        ObjectNode out = FakeWebhooks.response(review);
        ObjectNode resp = (ObjectNode) out.get("response");
        if (request.path("object").path("spec").path("containers").size() == 1) {
            ArrayNode patch = JSON.createArrayNode();
            ObjectNode add = patch.addObject().put("op", "add").put("path", "/spec/containers/-");
            add.putObject("value").put("name", "proxy").put("image", "registry.example.com/e2e/proxy:1");
            resp.put("patchType", "JSONPatch");
            resp.put("patch", Base64.getEncoder().encodeToString(patch.toString().getBytes(StandardCharsets.UTF_8)));
        }
        if (request.path("dryRun").asBoolean()) {
            resp.putArray("warnings").add("dry run: the sidecar is not reserved");
        }
        respond(exchange, out);
    }

    private static void respond(HttpExchange exchange, JsonNode body) throws IOException {
        byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream os = exchange.getResponseBody()) {
            os.write(bytes);
        }
    }

    private static Path writeTestConfigurations(int port) throws IOException {
        String ca = Base64.getEncoder().encodeToString(certs.certPem().getBytes(StandardCharsets.US_ASCII));
        String base = "https://127.0.0.1:" + port;
        String yaml = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: MutatingWebhookConfiguration
                metadata: {name: zz-e2e-injector}
                webhooks:
                  - name: inject.e2e.tollgate.dev
                    clientConfig: {url: "%1$s/inject", caBundle: "%2$s"}
                    rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
                    objectSelector: {matchLabels: {e2e/inject: "yes"}}
                    sideEffects: NoneOnDryRun
                    timeoutSeconds: 5
                    admissionReviewVersions: [v1]
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: e2e-slow}
                webhooks:
                  - name: slow-fail.e2e.tollgate.dev
                    clientConfig: {url: "%1$s/slow", caBundle: "%2$s"}
                    rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
                    objectSelector: {matchLabels: {e2e/slow: fail}}
                    failurePolicy: Fail
                    sideEffects: None
                    timeoutSeconds: 1
                    admissionReviewVersions: [v1]
                  - name: slow-ignore.e2e.tollgate.dev
                    clientConfig: {url: "%1$s/slow", caBundle: "%2$s"}
                    rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
                    objectSelector: {matchLabels: {e2e/slow: ignore}}
                    failurePolicy: Ignore
                    sideEffects: None
                    timeoutSeconds: 1
                    admissionReviewVersions: [v1]
                """.formatted(base, ca);
        Path file = dir.resolve("e2e-webhooks.yaml");
        Files.writeString(file, yaml);
        return file;
    }

    // ---- running tollgate review ----

    private record Run(int exit, String stdout) {
        JsonNode json() throws IOException {
            return JSON.readTree(stdout);
        }

        JsonNode manifest(String name) throws IOException {
            for (JsonNode m : json().path("manifests")) {
                if (m.path("name").asText().equals(name)) {
                    return m;
                }
            }
            throw new AssertionError("no report for " + name + " in\n" + stdout);
        }
    }

    private static Run review(String... extra) {
        return review(List.of("--url", "https://127.0.0.1:" + bundlePort, "--ca-file", certs.certFile.toString()),
                extra);
    }

    /** tollgate review with the given source of configurations, the test's own webhooks, and the manifests. */
    private static Run review(List<String> configurations, String... extra) {
        List<String> args = new ArrayList<>(configurations);
        args.addAll(List.of("--config", e2eConfig.toString()));
        args.addAll(List.of(extra));
        args.add("examples");
        args.add("src/test/resources/e2e");
        PrintStream original = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        int exit;
        try {
            exit = new CommandLine(new ReviewCommand(() -> {
                throw new AssertionError("the in-process bundle must not be used when --url is given");
            })).execute(args.toArray(String[]::new));
        } finally {
            System.setOut(original);
        }
        return new Run(exit, buffer.toString(StandardCharsets.UTF_8));
    }

    private static Run plainJsonRun;

    /** One JSON run on the examples serves every test that does not need other options. */
    private static synchronized Run jsonRun() {
        if (plainJsonRun == null) {
            plainJsonRun = review("-o", "json");
        }
        return plainJsonRun;
    }

    private static JsonNode webhook(JsonNode manifest, String name, int round) {
        for (JsonNode c : manifest.path("webhooks")) {
            if (c.path("webhook").asText().equals(name) && c.path("round").asInt() == round) {
                return c;
            }
        }
        throw new AssertionError("no call of " + name + " round " + round + " in " + manifest);
    }

    private static boolean bundles(String function) {
        return BundleCatalog.registrations().stream().anyMatch(r -> r.function().equals(function));
    }

    /** tollgate convert --url against the bundle's conversion function: Funqy behind the runtime's gate, over TLS. */
    @Test
    void healthIsOnTheManagementPortAndItsLivenessReachesTheHttpsPort() throws Exception {
        HttpClient client = HttpClient.newBuilder().sslContext(HttpWebhookClient.trusting(certs.certPem()))
                .connectTimeout(Duration.ofSeconds(2)).build();
        HttpResponse<String> live = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort
                + "/q/health/live")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, live.statusCode(), live.body());
        JsonNode check = null;
        for (JsonNode c : new ObjectMapper().readTree(live.body()).path("checks")) {
            if ("tollgate-main-port".equals(c.path("name").asText())) {
                check = c;
            }
        }
        assertTrue(check != null, "the main-port liveness check: " + live.body());
        assertEquals("UP", check.path("status").asText(), live.body());
        // The bundle serves HTTPS only: the check went over TLS to the port the API server calls.
        assertEquals("https", check.path("data").path("scheme").asText(), live.body());
        assertEquals(bundlePort, check.path("data").path("port").asInt(), live.body());
        assertEquals("answered 404", check.path("data").path("probe").asText(), live.body());
        for (String path : List.of("/q/health/live", "/q/health/ready", "/q/metrics")) {
            HttpResponse<String> onMain = client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:"
                    + bundlePort + path)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(404, onMain.statusCode(), path + " on the function port: " + onMain.body());
        }
    }

    @Test
    void convertsTheCrdExamplesWithTheBundlesConversionFunction() {
        Path examples = Path.of(System.getProperty("tollgate.root.dir", "../.."))
                .resolve("functions/crd-conversion/examples");
        String url = "https://127.0.0.1:" + bundlePort + "/crd-conversion";
        PrintStream original = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        int exit;
        try {
            exit = new CommandLine(new dev.tollgate.simulator.cli.ConvertCommand(() -> {
                throw new AssertionError("the in-process policy must not be used when --url is given");
            })).execute("--to", "data.tollgate.dev/v1alpha1", "--review-version", "v1beta1", "--url", url,
                    "--ca-file", certs.certFile.toString(), examples.toString());
        } finally {
            System.setOut(original);
        }
        String out = buffer.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, out);
        assertTrue(out.contains("CONVERTED by " + url), out);
        assertTrue(out.contains("opensearch:2.13"), "search.v1.yaml in v1alpha1: " + out);
        assertTrue(out.endsWith("3 objects: 2 converted, 1 unchanged, 0 failed\n"), out);
    }

    @Test
    void reviewsTheExamplesAgainstTheBundleOverHttps() throws Exception {
        Run run = jsonRun();
        assertEquals(1, run.exit(), "denials make the exit status 1:\n" + run.stdout());

        JsonNode compliant = run.manifest("web");
        assertTrue(compliant.path("allowed").asBoolean(), compliant.toString());
        assertEquals("patched", webhook(compliant, "always-pull-images.tollgate.dev", 0).path("result").asText());
        assertEquals("Always", compliant.path("object").path("spec").path("containers").path(0)
                .path("imagePullPolicy").asText());

        JsonNode missing = run.manifest("checkout");
        assertEquals("Deployment", missing.path("kind").asText());
        assertFalse(missing.path("allowed").asBoolean());
        assertEquals(403, missing.path("code").asInt());
        assertEquals("admission webhook \"require-labels.tollgate.dev\" denied the request: Deployment \"checkout\" "
                + "is missing required label team", missing.path("message").asText());

        JsonNode labelled = run.manifest("catalog");
        assertTrue(labelled.path("allowed").asBoolean(), labelled.toString());
        assertEquals("allowed", webhook(labelled, "require-labels.tollgate.dev", 0).path("result").asText());

        // kube-system is excluded by the rendered namespaceSelector: nothing is called, the deployment goes in.
        JsonNode excluded = run.manifest("metrics-agent");
        assertTrue(excluded.path("allowed").asBoolean());
        int catalogWebhooks = 0;
        for (JsonNode c : excluded.path("webhooks")) {
            assertEquals("skipped", c.path("result").asText(), c.toString());
            if (c.path("configuration").asText().equals(Configurations.RENDERED_NAME)) {
                catalogWebhooks++;
                assertTrue(c.path("detail").asText().startsWith("namespaceSelector does not match namespace "
                        + "kube-system"), c.toString());
            }
        }
        assertEquals(BundleCatalog.registrations().size(), catalogWebhooks);

        // The privileged pod: every bundled validating function that judges pods refuses it (the message is the
        // first denial in calling order).
        JsonNode privileged = run.manifest("node-debugger");
        assertFalse(privileged.path("allowed").asBoolean(), privileged.toString());
        if (bundles("pod-security")) {
            assertEquals("denied", webhook(privileged, "restricted.enforce.pod-security.tollgate.dev", 0)
                    .path("result").asText());
        }
        if (bundles("cel-policy")) {
            assertTrue(webhook(privileged, "cel-policy.tollgate.dev", 0).path("detail").asText()
                    .contains("use images outside registry.example.com"), privileged.toString());
        }
    }

    @Test
    void timeoutsFollowTheFailurePolicy() throws Exception {
        Run run = jsonRun();
        JsonNode closed = run.manifest("slow-fail");
        assertFalse(closed.path("allowed").asBoolean());
        assertEquals(500, closed.path("code").asInt());
        assertTrue(closed.path("message").asText().startsWith("Internal error occurred: failed calling webhook "
                + "\"slow-fail.e2e.tollgate.dev\": failed to call webhook: Post \""), closed.toString());
        assertTrue(closed.path("message").asText().contains("context deadline exceeded"), closed.toString());
        assertEquals("failed_closed", webhook(closed, "slow-fail.e2e.tollgate.dev", 0).path("result").asText());

        JsonNode open = run.manifest("slow-ignore");
        assertTrue(open.path("allowed").asBoolean(), open.toString());
        JsonNode call = webhook(open, "slow-ignore.e2e.tollgate.dev", 0);
        assertEquals("failed_open", call.path("result").asText());
        assertTrue(call.path("latencyMillis").asDouble() >= 1000, "gave up only at the webhook's timeout: " + call);
        assertEquals("slow-ignore.e2e.tollgate.dev", open.path("auditAnnotations")
                .path("failed-open.validating.webhook.admission.k8s.io/round_0_index_" + call.path("index").asInt())
                .asText());
    }

    @Test
    void alwaysPullImagesIsReinvokedForTheInjectedSidecar() throws Exception {
        JsonNode injected = jsonRun().manifest("injected");
        assertTrue(injected.path("allowed").asBoolean(), injected.toString());
        assertEquals("patched", webhook(injected, "always-pull-images.tollgate.dev", 0).path("result").asText());
        assertEquals("patched", webhook(injected, "inject.e2e.tollgate.dev", 0).path("result").asText());
        JsonNode again = webhook(injected, "always-pull-images.tollgate.dev", 1);
        assertEquals("patched", again.path("result").asText(), "round 1 gives the sidecar Always too: " + again);
        JsonNode containers = injected.path("object").path("spec").path("containers");
        assertEquals(2, containers.size());
        for (JsonNode c : containers) {
            assertEquals("Always", c.path("imagePullPolicy").asText(), containers.toString());
        }
        int index = again.path("index").asInt();
        assertTrue(injected.path("auditAnnotations").has("mutation.webhook.admission.k8s.io/round_1_index_" + index));
    }

    @Test
    void dryRunReachesTheWebhooksAndDecidesTheSame() throws Exception {
        Run run = review("-o", "json", "--dry-run");
        assertEquals(1, run.exit());
        for (JsonNode m : run.json().path("manifests")) {
            assertTrue(m.path("dryRun").asBoolean(), m.toString());
        }
        JsonNode injected = run.manifest("injected");
        assertEquals(List.of("dry run: the sidecar is not reserved"),
                JSON.convertValue(injected.path("warnings"), List.class));
        assertFalse(run.manifest("checkout").path("allowed").asBoolean());
    }

    @Test
    void textReportReadsLikeTheApiServer() {
        Run run = review();
        assertEquals(1, run.exit());
        String text = run.stdout();
        assertTrue(text.contains("DENIED (403): admission webhook \"require-labels.tollgate.dev\" denied the request: "
                + "Deployment \"checkout\" is missing required label team"), text);
        assertTrue(text.contains("Warning: Service \"checkout\" is missing recommended label app.kubernetes.io/name"),
                text);
        assertTrue(text.contains("+      imagePullPolicy: Always"), text);
        assertTrue(text.lines().anyMatch(l -> l.matches("\\d+ manifests: \\d+ allowed, \\d+ denied")), text);
    }

    // ---- the Terraform module's rendering ----

    @Test
    void terraformRenderedConfigurationsDecideTheSame() throws Exception {
        Path root = Path.of(System.getProperty("tollgate.root.dir", "../..")).toAbsolutePath().normalize();
        Path module = root.resolve("terraform/modules/webhook-configurations");
        Path catalogFile = root.resolve("terraform/catalog/catalog.json");
        JsonNode catalog = JSON.readTree(catalogFile.toFile());
        List<String> functions = BundleCatalog.registrations().stream().map(r -> r.function()).distinct()
                .filter(f -> catalog.path("functions").has(f)).sorted().toList();
        assertTrue(functions.containsAll(List.of("always-pull-images", "require-labels")), functions.toString());
        Path work = Files.createDirectories(dir.resolve("terraform"));
        Files.writeString(work.resolve("main.tf"), """
                module "webhooks" {
                  source             = "%s"
                  catalog            = jsondecode(file("%s"))
                  kubernetes_version = "1.30"
                  functions          = [%s]
                  default_url = "https://127.0.0.1:%d"
                  ca_bundle   = file("%s")
                }

                output "manifests_yaml" {
                  value     = module.webhooks.manifests_yaml
                  sensitive = true
                }
                """.formatted(module, catalogFile, String.join(", ", functions.stream().map(f -> "\"" + f + "\"")
                .toList()), bundlePort, certs.certFile.toAbsolutePath()));
        TerraformCli.run(work, java.util.Map.of(), "init", "-input=false", "-no-color");
        TerraformCli.run(work, java.util.Map.of(), "apply", "-auto-approve", "-input=false", "-no-color");
        Path rendered = work.resolve("webhook-configurations.yaml");
        Files.writeString(rendered, TerraformCli.run(work, java.util.Map.of(), "output", "-raw", "manifests_yaml"));

        Run run = review(List.of("--config", rendered.toString()), "-o", "json");
        assertEquals(1, run.exit(), run.stdout());
        JsonNode missing = run.manifest("checkout");
        assertEquals("admission webhook \"require-labels.tollgate.dev\" denied the request: Deployment \"checkout\" "
                + "is missing required label team", missing.path("message").asText());
        JsonNode compliant = run.manifest("web");
        assertTrue(compliant.path("allowed").asBoolean(), compliant.toString());
        assertEquals("patched", webhook(compliant, "always-pull-images.tollgate.dev", 0).path("result").asText());
        for (JsonNode c : run.manifest("metrics-agent").path("webhooks")) {
            if (c.path("configuration").asText().equals("tollgate")) {
                assertTrue(c.path("detail").asText().startsWith("namespaceSelector does not match namespace "
                        + "kube-system"), c.toString());
            }
        }
        JsonNode again = webhook(run.manifest("injected"), "always-pull-images.tollgate.dev", 1);
        assertEquals("patched", again.path("result").asText());
    }
}
