package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.simulator.replay.ReplayReader;
import dev.tollgate.testing.HttpsFunction;
import dev.tollgate.testing.KubeApiServer;
import dev.tollgate.testing.Skip;

/**
 * Issue 45's "done when": a replay of an unchanged policy set over its own audit log reports no change. A real
 * kube-apiserver (the kit's, v1.20, instance {@code replay-own-log}) is served by the packaged all-in-one bundle as
 * it is deployed: the shipped policies, and namespaces read from the cluster itself (tollgate.clusters.default), not
 * from a file. The whole audit log is replayed, from the API server's own bootstrap writes (made before any webhook
 * was registered) on; the namespaces are created in the log (Request level: their labels are in it) with labels the
 * shipped policies read: shop (the example's: mesh, restricted Pod Security), lab (mesh only, so cel-mutate adds its
 * sidecar there, which the shipped namespaces.yaml does not know) and plain (neither). Skipped, with a SKIPPED line,
 * where the kit is not set up.
 */
class ReplayOwnLogIT {

    static final String TEST = "ReplayOwnLogIT";

    /**
     * Namespace writes at Request level (the least), services too (the API server's own Service
     * default/kubernetes, created before any webhook, has no team label: require-labels would deny it today), pods
     * and deployments with their stored objects.
     */
    static final String AUDIT_POLICY = """
            apiVersion: audit.k8s.io/v1
            kind: Policy
            omitStages: [RequestReceived]
            rules:
              - level: None
                verbs: [get, list, watch]
              - level: None
                resources: [{group: coordination.k8s.io, resources: [leases]}]
              - level: Request
                resources: [{group: "", resources: [namespaces, services]}]
              - level: RequestResponse
                resources:
                  - {group: "", resources: [pods]}
                  - {group: apps, resources: [deployments]}
              - level: Metadata
            """;

    @TempDir
    static Path dir;

    static KubeApiServer cluster;
    static HttpsFunction bundle;
    static Path root;
    static Path log;
    /** When the webhook configurations were applied. */
    static Instant registered;
    static Map<String, Integer> made = new TreeMap<>();

    @BeforeAll
    static void requestsMadeAndLogged() throws Exception {
        Skip.unless(KubeApiServer.missing().isEmpty(), TEST, () -> KubeApiServer.missing().orElse(""));
        root = PackagedCli.root();
        Path runner = root.resolve("functions/all-in-one/target/quarkus-app/quarkus-run.jar");
        assertTrue(Files.isRegularFile(runner), "the all-in-one bundle is not built: " + runner + " is missing ("
                + "./mvnw -B -pl functions/all-in-one -am package -DskipTests)");
        Path policy = Files.writeString(dir.resolve("audit-policy.yaml"), AUDIT_POLICY);
        cluster = KubeApiServer.start(TEST, "replay-own-log", List.of("--audit-policy", policy.toString()))
                .orElseThrow();
        int port = HttpsFunction.freePort();
        Path policies = root.resolve("shared/simulator/policies");
        bundle = HttpsFunction.start(runner, cluster, port, HttpsFunction.freePort(), dir.resolve("bundle.log"),
                List.of("-Dtollgate.auth.required=false",
                        // As deployed: the shipped policies, namespaces from the cluster the bundle serves.
                        "-Dtollgate.cel-policy.config=" + policies.resolve("cel-policy"),
                        "-Dtollgate.cel-mutate.config=" + policies.resolve("cel-mutate"),
                        "-Dtollgate.clusters.default.kubeconfig=" + cluster.kubeconfig()));
        registered = Instant.now();
        Configurations rendered = Configurations.render(BundleCatalog.registrations(),
                f -> "https://127.0.0.1:" + port, Files.readString(Path.of(cluster.env("KAS_WEBHOOK_CA_FILE"))),
                List.of("kube-system", "kube-node-lease", "knative-serving", "knative-eventing", "kourier-system",
                        "knative-operator", "tollgate"));
        cluster.apply(rendered.objects().stream().map(JsonNode::toString).collect(Collectors.joining("\n---\n")));
        // The API server reads webhook configurations through an informer: give it time to see them.
        Thread.sleep(2000);

        Path examples = root.resolve("shared/simulator/examples");
        // v1.20 does not label namespaces with their name (1.21+): the manifests do, as a current API server would.
        create("shop", Files.writeString(dir.resolve("shop.yaml"), Files.readString(examples.resolve(
                "00-namespace-shop.yaml")).replace("team: storefront", "team: storefront\n    "
                        + "kubernetes.io/metadata.name: shop")));
        create("lab", Files.writeString(dir.resolve("lab.yaml"), namespace("lab", "mesh: enabled")));
        create("plain", Files.writeString(dir.resolve("plain.yaml"), namespace("plain", "team: ops")));
        String compliant = Files.readString(examples.resolve("compliant-pod.yaml"));
        for (String ns : List.of("shop", "lab", "plain")) {
            cluster.apply("{apiVersion: v1, kind: ServiceAccount, metadata: {name: default, namespace: " + ns
                    + "}, automountServiceAccountToken: false}\n");
            create(ns + "/web", Files.writeString(dir.resolve(ns + "-web.yaml"), compliant.replace(
                    "namespace: shop", "namespace: " + ns)));
        }
        create("shop/privileged", examples.resolve("privileged-pod.yaml"));
        create("lab/checkout", Files.writeString(dir.resolve("checkout.yaml"), Files.readString(examples.resolve(
                "deployment-missing-labels.yaml")).replace("namespace: shop", "namespace: lab")));
        create("plain/catalog", Files.writeString(dir.resolve("catalog.yaml"), Files.readString(examples.resolve(
                "labelled-deployment.yaml")).replace("namespace: shop", "namespace: plain")));
        made.put("plain/catalog delete", cluster.kubectlRun("delete", "deployment", "catalog", "-n", "plain").exit());
        Path audit = Path.of(cluster.env("KAS_AUDIT_LOG"));
        List<String> lines = List.of();
        for (int i = 0; i < 100; i++) {
            lines = Files.readAllLines(audit);
            if (lines.stream().anyMatch(l -> l.contains("\"verb\":\"delete\"") && l.contains("\"catalog\"")
                    && l.contains("ResponseComplete"))) {
                break;
            }
            Thread.sleep(100);
        }
        log = Files.write(dir.resolve("audit.log"), lines); // the whole log, bootstrap included
    }

    static String namespace(String name, String labels) {
        return "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + name + "\n  labels:\n    "
                + "kubernetes.io/metadata.name: " + name + "\n    " + labels + "\n";
    }

    static void create(String what, Path manifest) {
        made.put(what, cluster.kubectlRun("create", "-f", manifest.toString()).exit());
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (bundle != null) {
            bundle.close();
        }
        if (cluster != null) {
            cluster.stop();
        }
    }

    static JsonNode replay(int expectedExit, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("replay", "--no-progress", "-o", "json"));
        args.addAll(List.of(options));
        args.add(log.toString());
        PackagedCli.Result r = PackagedCli.run(dir, Duration.ofMinutes(5), List.of(), args);
        assertEquals(expectedExit, r.exit(), r.stdout() + r.stderr() + "\nrequests: " + made);
        return ReplayAuditIT.JSON.readTree(r.stdout());
    }

    @Test
    void theRequestsWereAllowedAndDeniedAsThePoliciesSay() {
        Map<String, Integer> expected = new TreeMap<>(Map.of("shop", 0, "lab", 0, "plain", 0, "shop/web", 0,
                "lab/web", 0, "plain/web", 0, "shop/privileged", 1, "lab/checkout", 1, "plain/catalog", 0,
                "plain/catalog delete", 0));
        assertEquals(expected, made);
        // The namespace mattered: the deployed cel-mutate put its sidecar on lab's pod, read from the cluster.
        assertTrue(cluster.kubectl("get", "pod", "web", "-n", "lab", "-o", "jsonpath={.spec.initContainers[*].name}")
                .contains("mesh-proxy"));
        assertEquals("", cluster.kubectl("get", "pod", "web", "-n", "plain", "-o",
                "jsonpath={.spec.initContainers[*].name}").strip());
    }

    @Test
    void theWholeLogReplayedWithTheSamePoliciesReportsNoChange() throws Exception {
        JsonNode report = replay(0);
        assertEquals(0, report.path("changed").asInt(), report.toString());
        assertEquals(Map.of(), ReplayAuditIT.changes(report), report.toString());
        // The namespaces came from the log, and cel-mutate's patches (shop's and lab's pods) were compared.
        assertTrue(report.path("namespacesFrom").path(ReplayReader.FROM_LOG).asInt() >= 5, report.toString());
        assertTrue(report.path("functions").path("cel-mutate").path("unchanged").asInt() >= 3, report.toString());
        assertEquals(0, report.path("unreadable").path("count").asInt(), report.toString());
        // The API server's own Service, created before the webhooks were registered, is listed apart.
        assertTrue(report.path("beforeRegistration").path("count").asInt() >= 1, report.toString());
        assertTrue(report.path("beforeRegistration").path("detail").asText().contains("Service default/kubernetes"),
                report.toString());
    }

    @Test
    void sinceCutsTheBootstrapOff() throws Exception {
        JsonNode report = replay(0, "--since", registered.toString());
        assertEquals(0, report.path("changed").asInt(), report.toString());
        assertTrue(ReplayAuditIT.notReplayed(report).getOrDefault(ReplayReader.BEFORE_SINCE, 0L) > 0,
                report.toString());
        assertEquals(0, report.path("beforeRegistration").path("count").asInt(), report.toString());
    }
}
