package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import dev.tollgate.testing.Skip;

/**
 * The packaged CLI's {@code tollgate audit}, run as the README says, with the bundled functions served in-process,
 * against a mock API server ({@link MockCluster}) started by the test and reached through a kubeconfig. With
 * {@code -Dtollgate.audit.pods=N} it also measures the throughput on N pods (README, "Audit a cluster").
 */
class AuditJobIT {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @TempDir
    Path dir;

    private MockCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private PackagedCli.Result tollgate(String... args) throws Exception {
        return PackagedCli.run(dir, Duration.ofSeconds(600), List.of(args));
    }

    private void create(String kind, String yaml) throws Exception {
        cluster.create(cluster.resource(kind), (ObjectNode) YAML.readTree(yaml));
    }

    private void namespaces() throws Exception {
        // As shared/simulator/policies/namespaces.yaml has it (the CEL functions read their namespaces from there).
        create("Namespace", """
                apiVersion: v1
                kind: Namespace
                metadata:
                  name: shop
                  labels: {team: storefront, mesh: enabled, pod-security.kubernetes.io/enforce: restricted,
                           pod-security.kubernetes.io/warn: restricted}
                """);
        for (String ns : List.of("dev", "kube-system", "load")) {
            create("Namespace", "apiVersion: v1\nkind: Namespace\nmetadata: {name: " + ns + "}\n");
        }
    }

    private void pod(String ns, String name, String image, String extra) throws Exception {
        create("Pod", """
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: %s, labels: {app: %s}}
                spec:
                  containers:
                  - name: app
                    image: %s
                %s""".formatted(name, ns, name, image, extra.isEmpty() ? "" : "    " + extra + "\n"));
    }

    @Test
    void auditsAClusterWithTheInProcessBundle() throws Exception {
        cluster = new MockCluster(MockCluster.BUILT_IN);
        namespaces();
        for (String ns : List.of("dev", "kube-system")) {
            pod(ns, "untrusted", "docker.io/library/nginx:1.27", "");
            pod(ns, "trusted", "registry.example.com/shop/web:1.4", "");
            create("Deployment", """
                    apiVersion: apps/v1
                    kind: Deployment
                    metadata: {name: checkout, namespace: %s}
                    spec: {selector: {matchLabels: {app: checkout}}, template: {metadata: {labels: {app: checkout}},
                           spec: {containers: [{name: app, image: registry.example.com/shop/checkout:2}]}}}
                    """.formatted(ns));
        }
        pod("shop", "node-debugger", "registry.example.com/tools/debug:1", "securityContext: {privileged: true}");
        Path kubeconfig = cluster.kubeconfig(dir);
        Path reports = dir.resolve("reports");

        PackagedCli.Result r = tollgate("audit", "--kubeconfig", kubeconfig.toString(), "-o", "json", "--policy-reports",
                reports.toString());
        assertEquals(1, r.exit(), r.stderr());
        JsonNode report = new ObjectMapper().readTree(r.stdout());
        assertEquals(7, report.path("summary").path("objects").asInt(), r.stdout());
        assertEquals("UPDATE", report.path("operation").asText());
        JsonNode findings = report.path("findings");
        assertEquals("admission webhook \"require-labels.tollgate.dev\" denied the request: Deployment \"checkout\" "
                + "is missing required label team", find(findings, "Deployment", "dev", "checkout").path("message")
                .asText());
        JsonNode untrusted = find(findings, "Pod", "dev", "untrusted");
        assertFalse(untrusted.path("allowed").asBoolean(), untrusted.toString());
        assertTrue(untrusted.path("message").asText().contains("use images outside registry.example.com"),
                untrusted.toString());
        // As the next UPDATE, always-pull-images leaves a pod whose images do not change alone (as upstream's
        // AlwaysPullImages plugin): the trusted pod is allowed unchanged, so it is no finding.
        assertTrue(findings.toString().indexOf("\"name\":\"trusted\"") < 0, findings.toString());
        // kube-system: excluded by the rendered namespaceSelectors, so nothing there is a finding.
        for (JsonNode f : findings) {
            assertFalse(f.path("namespace").asText().equals("kube-system"), f.toString());
        }
        assertTrue(Files.isRegularFile(reports.resolve("policyreport-dev.yaml")));
        assertTrue(r.stderr().contains("audit: 7 objects in "), r.stderr());

        // The text report (printed: the README's sample comes from here).
        PackagedCli.Result text = tollgate("audit", "--kubeconfig", kubeconfig.toString());
        assertEquals(1, text.exit(), text.stderr());
        System.out.println("$ tollgate audit --kubeconfig kubeconfig\n" + text.stdout() + text.stderr());
        assertTrue(text.stdout().contains("Would be denied ("), text.stdout());
        assertTrue(text.stdout().contains(" would be denied, 3 matched by no webhook\n"), text.stdout());

        // As re-creations: the pull policy is set, and the privileged pod meets pod-security's enforcement in
        // restricted shop.
        PackagedCli.Result create = tollgate("audit", "--kubeconfig", kubeconfig.toString(), "-n", "shop,dev", "--as-create",
                "-o", "json");
        assertEquals(1, create.exit(), create.stderr());
        JsonNode created = new ObjectMapper().readTree(create.stdout()).path("findings");
        JsonNode trusted = find(created, "Pod", "dev", "trusted");
        assertTrue(trusted.path("allowed").asBoolean(), trusted.toString());
        assertEquals("Always", trusted.path("patch").path(0).path("value").asText(), trusted.toString());
        String debugger = find(created, "Pod", "shop", "node-debugger").path("message").asText();
        assertTrue(debugger.contains("violates PodSecurity \"restricted:latest\""), debugger);
    }

    /** A measurement, not a check: run only when asked for with -Dtollgate.audit.pods=N. */
    @Test
    void throughput() throws Exception {
        String asked = System.getProperty("tollgate.audit.pods", "");
        Skip.unless(asked.matches("\\d+"), "AuditJobIT.throughput", () -> "a measurement, run on request: "
                + "-Dit.test=AuditJobIT -Dtollgate.audit.pods=10000 (see the README, Throughput)");
        int pods = Integer.parseInt(asked);
        cluster = new MockCluster(MockCluster.BUILT_IN);
        namespaces();
        long seedStart = System.nanoTime();
        for (int i = 0; i < pods; i++) {
            pod("load", String.format("web-%05d", i), "registry.example.com/shop/web:1.4", "");
        }
        System.out.printf("seeded %d pods in %.1f s%n", pods, (System.nanoTime() - seedStart) / 1e9);
        Path kubeconfig = cluster.kubeconfig(dir);
        for (String mode : List.of("UPDATE", "CREATE")) {
            List<String> args = new ArrayList<>(List.of("audit", "--kubeconfig", kubeconfig.toString(), "-n", "load",
                    "-o", "json"));
            if (mode.equals("CREATE")) {
                args.add("--as-create");
            }
            PackagedCli.Result r = tollgate(args.toArray(String[]::new));
            assertEquals(0, r.exit(), r.stderr());
            JsonNode summary = new ObjectMapper().readTree(r.stdout()).path("summary");
            assertEquals(pods, summary.path("objects").asInt());
            // Only the creation gets always-pull-images' patch (an update that brings no new image does not).
            assertEquals(mode.equals("CREATE") ? pods : 0, summary.path("changed").asInt());
            Matcher m = Pattern.compile("audit: (\\d+) objects in ([0-9.]+) s \\((\\d+) objects/s\\)")
                    .matcher(r.stderr());
            assertTrue(m.find(), r.stderr());
            System.out.println("tollgate audit throughput (" + mode + "): " + m.group(0) + " on "
                    + Runtime.getRuntime().availableProcessors() + " CPUs");
        }
    }

    private static JsonNode find(JsonNode findings, String kind, String ns, String name) {
        for (JsonNode f : findings) {
            if (f.path("kind").asText().equals(kind) && f.path("namespace").asText().equals(ns)
                    && f.path("name").asText().equals(name)) {
                return f;
            }
        }
        throw new AssertionError("no finding for " + kind + " " + ns + "/" + name + " in " + findings);
    }
}
