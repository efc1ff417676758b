package dev.tollgate.knative.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestMethodOrder;

import dev.tollgate.knative.KnativeRules;
import dev.tollgate.knative.ServiceManifest;

/**
 * For every function module: its Quarkus fragment matches its webhook.yaml, knative/<name>.yaml is exactly what the
 * build generated (the native executable's Service), knative/jvm/<name>.yaml is that manifest with the JVM's settings,
 * the request timeout fits the webhook's, and Knative's own rules hold.
 */
@Order(1)
// In refresh mode the first two write the files the later ones read, so a brand-new function refreshes in one run.
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FunctionManifestsTest {

    @Test
    void thereAreFunctionsToCheck() {
        assertFalse(Project.functions().isEmpty(), "no function modules found under " + Project.root());
    }

    @TestFactory
    @Order(1)
    Stream<DynamicTest> fragmentFollowsTheWebhookTimeout() {
        return Project.functions().stream().map(f -> dynamicTest(f.name(), () ->
                Project.golden(f.fragment(), Fragments.of(f), "generated from " + f.name() + "'s webhook.yaml")));
    }

    @TestFactory
    @Order(2)
    Stream<DynamicTest> committedManifestIsWhatTheBuildGenerates() {
        return Project.functions().stream().map(f -> dynamicTest(f.name(), () -> {
            Path generated = f.generatedManifest();
            assertTrue(Files.exists(generated), () -> generated + " does not exist: build the function first ("
                    + "./mvnw -B -pl functions/" + f.name() + " package -DskipTests, or the root ./mvnw -B verify, "
                    + "which builds the functions before this module)");
            assertTrue(!Files.exists(f.fragment()) || Files.getLastModifiedTime(generated).compareTo(
                    Files.getLastModifiedTime(f.fragment())) >= 0, () -> generated + " is older than "
                    + f.fragment() + ": rebuild the function (./mvnw -B -pl functions/" + f.name()
                    + " package -DskipTests), then run this again");
            String text = Files.readString(generated);
            ServiceManifest.parse(text, generated.toString()); // exactly one Knative Service, nothing else
            Project.golden(f.committedManifest(), text, "copied from " + Project.root().relativize(generated));
        }));
    }

    /** knative/jvm/<name>.yaml: the rendered (native) manifest with the JVM's settings (JvmVariant). */
    @TestFactory
    @Order(2)
    Stream<DynamicTest> jvmVariantIsTheRenderedManifestWithTheJvmSettings() {
        return Project.functions().stream().map(f -> dynamicTest(f.name(), () -> {
            Path generated = f.generatedManifest();
            assertTrue(Files.exists(generated), () -> generated + " does not exist: build the function first");
            String jvm = JvmVariant.of(ServiceManifest.parse(Files.readString(generated), generated.toString()));
            ServiceManifest.parse(jvm, "the JVM variant of " + f.name());
            Project.golden(JvmVariant.manifest(f.name()), jvm, "the JVM variant of "
                    + Project.root().relativize(generated));
        }));
    }

    @Test
    @Order(3)
    void everyCommittedManifestBelongsToAFunction() throws IOException {
        List<String> orphans = new ArrayList<>();
        for (Path dir : List.of(Project.knativeDir(), JvmVariant.dir())) {
            try (var files = Files.list(dir)) {
                files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml"))
                        .filter(n -> !Files.exists(Project.root().resolve("functions")
                                .resolve(n.substring(0, n.length() - ".yaml".length())).resolve("pom.xml")))
                        .map(n -> Project.root().relativize(dir.resolve(n)).toString())
                        .forEach(orphans::add);
            }
        }
        assertEquals(List.of(), orphans, "knative/ holds manifests of functions that no longer exist; delete them");
    }

    @TestFactory
    @Order(3)
    Stream<DynamicTest> requestTimeoutFitsTheWebhookTimeout() {
        return Project.functions().stream().map(f -> dynamicTest(f.name(), () -> {
            ServiceManifest m = ServiceManifest.read(f.committedManifest());
            int knative = m.timeoutSeconds();
            int webhook = f.smallestWebhookTimeout();
            assertTrue(knative >= 1, () -> f.committedManifest() + " sets no spec.template.spec.timeoutSeconds: "
                    + "Knative would keep requests for its 300 s default, long after the API server gave up after "
                    + webhook + " s");
            assertTrue(knative <= webhook, () -> f.committedManifest() + ": Knative request timeout " + knative
                    + " s exceeds the webhook timeoutSeconds " + webhook + " s");
        }));
    }

    @TestFactory
    @Order(3)
    Stream<DynamicTest> knativeAcceptsTheManifest() {
        return Project.functions().stream().flatMap(f -> Stream.of(f.committedManifest(),
                JvmVariant.manifest(f.name()))).map(file -> dynamicTest(Project.root().relativize(file).toString(),
                        () -> assertEquals(List.of(), KnativeRules.DEFAULTS.check(ServiceManifest.read(file)),
                                file + " breaks rules Knative's webhook enforces")));
    }

    /**
     * Health and metrics are on the management port (9000), the function's port answers them 404 and everything else
     * only to a caller with credentials. A Knative Service's probes still have to target the serving port: Knative
     * Serving, without its multi-container-probing flag, rewrites the serving container's liveness probe to the
     * container port (pkg/reconciler/revision/resources/deploy.go, rewriteUserLivenessProbe) and has the queue-proxy
     * run the readiness probe against it (resources/queue.go, applyReadinessProbeDefaults), whatever port the manifest
     * names. So: TCP probes on the container port, and Prometheus pointed at the management port.
     */
    @TestFactory
    @Order(3)
    Stream<DynamicTest> probesTargetTheServingPortAndScrapingTheManagementPort() {
        return Project.functions().stream().map(f -> dynamicTest(f.name(), () -> {
            ServiceManifest m = ServiceManifest.read(f.committedManifest());
            var c = m.container();
            assertEquals(1, c.path("ports").size(), "one container port: Knative routes to a single port, and the "
                    + "management port must not be it");
            int servingPort = c.path("ports").get(0).path("containerPort").asInt();
            for (String probe : List.of("livenessProbe", "readinessProbe")) {
                var p = c.path(probe);
                assertTrue(p.has("tcpSocket"), probe + " is a TCP probe (an HTTP probe of the serving port meets a 404 "
                        + "or the caller check): " + p);
                assertFalse(p.has("httpGet") || p.has("exec") || p.has("grpc"), probe + " has one handler: " + p);
                assertEquals(servingPort, p.path("tcpSocket").path("port").asInt(), probe
                        + " targets the serving port, the one Knative probes anyway");
            }
            assertFalse(c.has("startupProbe"), "no startup probe: readiness probing already waits for the start");
            String managementPort = "9000";
            assertEquals(managementPort, m.templateAnnotations().get("prometheus.io/port"),
                    "pods are scraped on the management port");
            assertEquals("/q/metrics", m.templateAnnotations().get("prometheus.io/path"));
        }));
    }

    @TestFactory
    @Order(3)
    Stream<DynamicTest> tunedForScaleFromZero() {
        return Project.functions().stream().map(f -> dynamicTest(f.name(), () -> {
            ServiceManifest m = ServiceManifest.read(f.committedManifest());
            var annotations = m.templateAnnotations();
            assertEquals("0", annotations.get("autoscaling.knative.dev/min-scale"), "min-scale");
            assertTrue(annotations.containsKey("autoscaling.knative.dev/target"), "a deliberate concurrency target");
            assertTrue(m.tree().path("spec").path("template").path("spec").has("containerConcurrency"),
                    "a deliberate container concurrency limit");
            for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
                assertEquals(0, m.container().path(probe).path("initialDelaySeconds").asInt(0),
                        probe + " must not delay the first probe");
            }
            assertEquals(0, m.container().path("readinessProbe").path("periodSeconds").asInt(-1),
                    "readiness uses Knative's aggressive probing (periodSeconds 0)");
            assertTrue(m.container().path("resources").path("requests").has("memory"), "resource requests");
            String text = Files.readString(f.committedManifest());
            for (String unstable : List.of("build-timestamp", "commit-id", "vcs-uri", "vcs-url")) {
                assertFalse(text.contains(unstable), "the manifest must not change per build: " + unstable);
            }
        }));
    }
}
