package dev.tollgate.simulator;

import static dev.tollgate.simulator.FakeWebhooks.answer;
import static dev.tollgate.simulator.FakeWebhooks.deny;
import static dev.tollgate.simulator.FakeWebhooks.response;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import dev.tollgate.simulator.audit.Cluster;
import dev.tollgate.simulator.cli.AuditCommand;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import picocli.CommandLine;

/**
 * {@code tollgate audit} against fabric8's mock API server (CRUD mode, with discovery and chunked lists added by
 * {@link MockCluster}) seeded with 305 objects in five namespaces, and fake webhooks whose verdicts are known, so
 * every count in the report can be stated.
 */
class AuditTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final List<String> APP_NAMESPACES = List.of("default", "dev", "payments", "shop");

    @TempDir
    Path dir;

    private MockCluster cluster;
    private final FakeWebhooks fake = new FakeWebhooks();
    private Path config;

    private record Run(int exit, String out, String err) {
    }

    @BeforeEach
    void seed() throws Exception {
        start(MockCluster.BUILT_IN);
        config = Files.writeString(dir.resolve("webhooks.yaml"), """
                apiVersion: admissionregistration.k8s.io/v1
                kind: MutatingWebhookConfiguration
                metadata: {name: audit-test}
                webhooks:
                - name: pull-always.audit.test
                  clientConfig: {url: "https://fake.example/pull-always"}
                  rules: [{operations: [CREATE, UPDATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
                  namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}]}
                  sideEffects: None
                  admissionReviewVersions: [v1]
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: audit-test}
                webhooks:
                - name: require-team.audit.test
                  clientConfig: {url: "https://fake.example/require-team"}
                  rules:
                  - {operations: [CREATE, UPDATE], apiGroups: [apps], apiVersions: [v1], resources: [deployments]}
                  - {operations: [CREATE, UPDATE], apiGroups: [""], apiVersions: [v1], resources: [services]}
                  - {operations: [CREATE, UPDATE], apiGroups: [batch], apiVersions: [v1], resources: [cronjobs]}
                  namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}]}
                  sideEffects: None
                  admissionReviewVersions: [v1]
                - name: warn-latest.audit.test
                  clientConfig: {url: "https://fake.example/warn-latest"}
                  rules: [{operations: [CREATE, UPDATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
                  namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}]}
                  failurePolicy: Ignore
                  sideEffects: None
                  admissionReviewVersions: [v1]
                - name: no-privileged.audit.test
                  clientConfig: {url: "https://fake.example/no-privileged"}
                  rules: [{operations: [CREATE, UPDATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
                  namespaceSelector: {matchLabels: {pod-security.kubernetes.io/enforce: restricted}}
                  sideEffects: None
                  admissionReviewVersions: [v1]
                """);
        fake.on("/pull-always", FakeWebhooks.patch(pod -> {
            ArrayNode ops = FakeWebhooks.JSON.createArrayNode();
            JsonNode containers = pod.path("spec").path("containers");
            for (int i = 0; i < containers.size(); i++) {
                if (!"Always".equals(containers.get(i).path("imagePullPolicy").asText())) {
                    ops.addObject().put("op", "add").put("path", "/spec/containers/" + i + "/imagePullPolicy")
                            .put("value", "Always");
                }
            }
            return ops;
        }));
        fake.on("/require-team", review -> {
            JsonNode object = review.path("request").path("object");
            return object.path("metadata").path("labels").has("team") ? answer(response(review))
                    : deny(403, object.path("kind").asText() + " \"" + object.path("metadata").path("name").asText()
                            + "\" is missing required label team").handle(review);
        });
        fake.on("/warn-latest", review -> {
            ObjectNode r = response(review);
            if (review.path("request").path("object").path("spec").path("containers").path(0).path("image")
                    .asText().endsWith(":latest")) {
                ((ObjectNode) r.get("response")).putArray("warnings").add("image tag latest is mutable");
            }
            return answer(r);
        });
        fake.on("/no-privileged", review -> review.path("request").path("object").path("spec").path("containers")
                .path(0).path("securityContext").path("privileged").asBoolean()
                        ? deny(403, "privileged containers are not allowed").handle(review)
                        : answer(response(review)));
    }

    private void start(List<MockCluster.Resource> served) {
        cluster = new MockCluster(served);
        namespace("default", "");
        namespace("dev", "");
        namespace("payments", "mesh: enabled");
        namespace("shop", "pod-security.kubernetes.io/enforce: restricted");
        namespace("kube-system", "");
        for (String ns : List.of("default", "dev", "payments", "shop", "kube-system")) {
            for (int i = 0; i < 40; i++) {
                create("Pod", """
                        apiVersion: v1
                        kind: Pod
                        metadata: {name: web-%02d, namespace: %s, labels: {app: %s}}
                        spec:
                          containers:
                          - name: app
                            image: registry.example/app:%s
                            %s
                            securityContext: {privileged: %s}
                        """.formatted(i, ns, i % 4 == 0 ? "web" : "worker", i % 5 == 0 ? "latest" : "1.0",
                        i % 2 == 0 ? "imagePullPolicy: Always" : "", i % 10 == 3));
            }
            for (int i = 0; i < 10; i++) {
                create("Deployment", """
                        apiVersion: apps/v1
                        kind: Deployment
                        metadata: {name: api-%d, namespace: %s, labels: {%s}}
                        spec: {selector: {matchLabels: {app: api}}, template: {metadata: {labels: {app: api}}, spec: {containers: [{name: app, image: registry.example/api:1}]}}}
                        """.formatted(i, ns, i % 3 == 0 ? "" : "team: " + ns));
                create("Service", """
                        apiVersion: v1
                        kind: Service
                        metadata: {name: svc-%d, namespace: %s, labels: {%s}}
                        spec: {ports: [{port: 80}]}
                        """.formatted(i, ns, i % 2 == 0 ? "team: " + ns : ""));
                create("ConfigMap", """
                        apiVersion: v1
                        kind: ConfigMap
                        metadata: {name: settings-%d, namespace: %s}
                        data: {a: b}
                        """.formatted(i, ns));
            }
        }
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private void namespace(String name, String labels) {
        create("Namespace", """
                apiVersion: v1
                kind: Namespace
                metadata: {name: %s, labels: {%s}}
                """.formatted(name, labels));
    }

    private void create(String kind, String yaml) {
        try {
            cluster.create(cluster.resource(kind), (ObjectNode) YAML.readTree(yaml));
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(yaml, e);
        }
    }

    private Run audit(String... args) {
        return audit(c -> new Cluster(new KubernetesClientBuilder().withConfig(cluster.client().getConfiguration())
                .build()), args);
    }

    private Run audit(Function<AuditCommand, Cluster> connector, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        AuditCommand command = new AuditCommand(() -> {
            throw new AssertionError("the tests give --config");
        }, connector, ca -> fake, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        List<String> all = new ArrayList<>(List.of("--no-progress"));
        if (!List.of(args).contains("--cluster-webhooks")) {
            all.addAll(List.of("-f", config.toString()));
        }
        all.addAll(List.of(args));
        int exit = new CommandLine(command).execute(all.toArray(String[]::new));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static JsonNode json(String text) throws Exception {
        return FakeWebhooks.JSON.readTree(text);
    }

    private static JsonNode byName(JsonNode array, String field, String value) {
        for (JsonNode n : array) {
            if (n.path(field).asText().equals(value)) {
                return n;
            }
        }
        throw new AssertionError("no " + field + "=" + value + " in " + array);
    }

    // ---- the report --------------------------------------------------------------------------------------

    @Test
    void summaryTableAndWhatWouldBeDeniedOrChanged() {
        Run r = audit("--chunk-size", "50");
        assertEquals(1, r.exit(), r.err());
        // 40 denied: 16 deployments and 20 services without team, 4 privileged pods in restricted shop.
        assertTrue(r.out().contains("Would be denied (40):"), r.out());
        assertTrue(r.out().contains("  Deployment shop/api-3: admission webhook \"require-team.audit.test\" denied the "
                + "request: Deployment \"api-3\" is missing required label team\n"), r.out());
        assertTrue(r.out().contains("  Pod shop/web-13: admission webhook \"no-privileged.audit.test\" denied the request: "
                + "privileged containers are not allowed\n"), r.out());
        // 80 pods without imagePullPolicy outside kube-system; 16 of them use :latest, whose defaulted policy is
        // already Always (the mock cluster stores objects as written, a real one defaulted: the audit defaults them as
        // the API server would have); less the 4 denied ones.
        assertTrue(r.out().contains("Would be changed (60):"), r.out());
        assertTrue(r.out().contains("  Pod dev/web-01: [{\"op\":\"replace\",\"path\":\"/spec/containers/0/imagePullPolicy\","
                + "\"value\":\"Always\"}] (pull-always.audit.test)\n"), r.out());
        assertTrue(r.out().matches("(?s).*pull-always\\.audit\\.test\\s+mutating\\s+160\\s+0\\s+0\\s+64\\s+0\n.*"), r.out());
        assertTrue(r.out().matches("(?s).*require-team\\.audit\\.test\\s+validating\\s+80\\s+36\\s+0\\s+0\\s+0\n.*"), r.out());
        assertTrue(r.out().matches("(?s).*warn-latest\\.audit\\.test\\s+validating\\s+160\\s+0\\s+32\\s+0\\s+0\n.*"), r.out());
        assertTrue(r.out().matches("(?s).*no-privileged\\.audit\\.test\\s+validating\\s+40\\s+4\\s+0\\s+0\\s+0\n.*"), r.out());
        assertTrue(r.out().matches("(?s).*v1 Pod\\s+200\\s+4\\s+60\n.*"), r.out());
        assertTrue(r.out().contains("300 objects: 260 allowed (60 would be changed, 32 with warnings), 40 would be "
                + "denied, 60 matched by no webhook\n"), r.out());
        // kube-system is excluded by every namespaceSelector: listed, reviewed, never sent to a webhook.
        assertFalse(r.out().contains("kube-system/"), r.out());
        assertTrue(fake.received.values().stream().flatMap(List::stream).noneMatch(review -> review.path("request")
                .path("namespace").asText().equals("kube-system")));
        // ConfigMaps match no rule: never listed. CronJobs are served but there are none.
        assertTrue(cluster.listRequests.stream().noneMatch(p -> p.contains("configmaps")), cluster.listRequests.toString());
        assertTrue(r.err().contains("audit: 300 objects in "), r.err());
    }

    @Test
    void pagesThroughLargeListsWithContinueTokens() {
        Run r = audit("--chunk-size", "30");
        assertEquals(1, r.exit(), r.err());
        List<String> pods = cluster.listRequests.stream().filter(p -> p.startsWith("/api/v1/pods?")).toList();
        // The probe (limit=1), then 200 pods in pages of 30: 7 requests, 6 of them with a continue token.
        assertEquals(8, pods.size(), pods.toString());
        assertTrue(pods.get(0).contains("limit=1"), pods.get(0));
        assertEquals(6, pods.stream().filter(p -> p.contains("continue=")).count(), pods.toString());
        assertTrue(pods.stream().skip(1).allMatch(p -> p.contains("limit=30")), pods.toString());
        // Each pod reviewed once: the mutating webhook was called for the 160 outside kube-system.
        assertEquals(160, fake.received.get("/pull-always").size());
        assertEquals(160, fake.received.get("/pull-always").stream()
                .map(rv -> rv.path("request").path("namespace").asText() + "/" + rv.path("request").path("name")
                        .asText()).distinct().count());
    }

    @Test
    void anExpiredContinueTokenListsAgainWithoutReviewingTwice() {
        cluster.expireNextContinue();
        Run r = audit("--chunk-size", "25", "-o", "json");
        assertEquals(1, r.exit(), r.err());
        assertEquals(160, fake.received.get("/pull-always").size());
        assertTrue(r.out().contains("(HTTP 410); listed again from the start, skipping what was already reviewed"),
                r.out());
    }

    @Test
    void jsonReport() throws Exception {
        Run r = audit("-o", "json");
        assertEquals(1, r.exit(), r.err());
        JsonNode report = json(r.out());
        JsonNode s = report.path("summary");
        assertEquals(300, s.path("objects").asInt());
        assertEquals(40, s.path("denied").asInt());
        assertEquals(60, s.path("changed").asInt());
        assertEquals(32, s.path("warned").asInt());
        assertEquals(60, s.path("untouched").asInt());
        assertEquals("UPDATE", report.path("operation").asText());
        assertEquals(cluster.url() + "/", report.path("cluster").asText());
        JsonNode team = byName(report.path("webhooks"), "webhook", "require-team.audit.test");
        assertEquals(80, team.path("matched").asInt());
        assertEquals(36, team.path("denied").asInt());
        // Findings: every denied, changed or warned object, sorted by kind, namespace, name.
        JsonNode findings = report.path("findings");
        JsonNode pod = finding(findings, "payments", "web-05");
        assertTrue(pod.path("allowed").asBoolean());
        assertEquals("[]", pod.path("patch").toString(), ":latest: imagePullPolicy is Always by default, no patch");
        assertEquals("image tag latest is mutable", pod.path("warnings").path(0).asText());
        assertFalse(pod.path("uid").asText().isEmpty(), pod.toString());
        assertEquals("warn", byName(pod.path("webhooks"), "webhook", "warn-latest.audit.test").path("result").asText());
        JsonNode patched = finding(findings, "payments", "web-07");
        assertEquals("[{\"op\":\"replace\",\"path\":\"/spec/containers/0/imagePullPolicy\",\"value\":\"Always\"}]",
                patched.path("patch").toString(), "IfNotPresent, the default for a tagged image, replaced");
        assertEquals("Deployment", findings.path(0).path("kind").asText());
        assertEquals("default", findings.path(0).path("namespace").asText());
    }

    private static JsonNode finding(JsonNode findings, String namespace, String name) {
        for (JsonNode f : findings) {
            if (f.path("kind").asText().equals("Pod") && f.path("namespace").asText().equals(namespace)
                    && f.path("name").asText().equals(name)) {
                return f;
            }
        }
        throw new AssertionError("no finding for pod " + namespace + "/" + name + ": " + findings);
    }

    @Test
    void reviewsAsTheNextUpdateOrAsACreate() throws Exception {
        audit("-n", "dev");
        ObjectNode update = fake.received.get("/pull-always").get(0);
        assertEquals("UPDATE", update.path("request").path("operation").asText());
        assertEquals(update.path("request").path("object"), update.path("request").path("oldObject"));
        assertEquals("UpdateOptions", update.path("request").path("options").path("kind").asText());
        fake.received.clear();
        audit("-n", "dev", "--as-create");
        ObjectNode create = fake.received.get("/pull-always").get(0);
        assertEquals("CREATE", create.path("request").path("operation").asText());
        assertTrue(create.path("request").path("oldObject").isNull());
    }

    @Test
    void namespacesAndLabelSelector() throws Exception {
        Run r = audit("-n", "shop,dev", "-l", "app=web", "-o", "json");
        assertEquals(0, r.exit(), r.err());
        JsonNode report = json(r.out());
        // 10 pods labelled app=web in each of the two namespaces; no deployment or service carries the label.
        assertEquals(20, report.path("summary").path("objects").asInt(), r.out());
        assertEquals("namespaces shop, dev, -l app=web", report.path("scope").asText());
        assertTrue(cluster.listRequests.stream().filter(p -> p.contains("pods")).allMatch(p ->
                p.startsWith("/api/v1/namespaces/shop/pods?") || p.startsWith("/api/v1/namespaces/dev/pods?")),
                cluster.listRequests.toString());
        Run missing = audit("-n", "nowhere");
        assertEquals(2, missing.exit());
        assertEquals("tollgate audit: -n nowhere: no such namespace in the cluster at " + cluster.url() + "/\n",
                missing.err());
    }

    // ---- PolicyReports -------------------------------------------------------------------------------------

    @Test
    void policyReportsToFilesAndToTheCluster() throws Exception {
        cluster.close();
        List<MockCluster.Resource> served = new ArrayList<>(MockCluster.BUILT_IN);
        served.addAll(MockCluster.POLICY_REPORTS);
        start(served);
        Path reports = dir.resolve("reports");
        Run r = audit("--policy-reports", reports.toString(), "--apply");
        assertEquals(1, r.exit(), r.err());
        try (var files = Files.list(reports)) {
            assertEquals(List.of("policyreport-default.yaml", "policyreport-dev.yaml", "policyreport-payments.yaml",
                    "policyreport-shop.yaml"), files.map(p -> p.getFileName().toString()).sorted().toList());
        }
        JsonNode shop = YAML.readTree(reports.resolve("policyreport-shop.yaml").toFile());
        assertEquals("wgpolicyk8s.io/v1alpha2", shop.path("apiVersion").asText());
        assertEquals("PolicyReport", shop.path("kind").asText());
        assertEquals("tollgate-audit", shop.path("metadata").path("name").asText());
        assertEquals("shop", shop.path("metadata").path("namespace").asText());
        JsonNode summary = shop.path("summary");
        // shop: 4 deployments + 5 services + 4 pods fail; 16 patched (20 without imagePullPolicy, less the 4 :latest
        // ones, Always by default) + 8 warned pods warn; passes: the other calls (40 pods x 3 webhooks + 20 team
        // checks = 140 calls in all).
        assertEquals(13, summary.path("fail").asInt(), summary.toString());
        assertEquals(24, summary.path("warn").asInt(), summary.toString());
        assertEquals(0, summary.path("error").asInt());
        assertEquals(140 - 13 - 24, summary.path("pass").asInt(), summary.toString());
        assertEquals(13 + 24, shop.path("results").size());
        JsonNode fail = null;
        for (JsonNode res : shop.path("results")) {
            if (res.path("resources").path(0).path("name").asText().equals("svc-1")) {
                fail = res;
            }
        }
        assertTrue(fail != null, shop.toString());
        assertEquals("fail", fail.path("result").asText());
        assertEquals("tollgate", fail.path("source").asText());
        assertEquals("require-team.audit.test", fail.path("policy").asText());
        assertEquals("audit-test", fail.path("rule").asText());
        assertEquals("admission webhook \"require-team.audit.test\" denied the request: Service \"svc-1\" is missing "
                + "required label team", fail.path("message").asText());
        assertEquals("v1", fail.path("resources").path(0).path("apiVersion").asText());
        assertEquals("Service", fail.path("resources").path(0).path("kind").asText());
        assertFalse(fail.path("resources").path(0).path("uid").asText().isEmpty());
        assertTrue(fail.path("timestamp").path("seconds").asLong() > 0);
        assertEquals("UPDATE", fail.path("properties").path("operation").asText());
        // --apply: the same reports, in the cluster.
        var stored = cluster.list(MockCluster.POLICY_REPORTS.get(0));
        assertEquals(4, stored.size());
        JsonNode inCluster = cluster.client().getKubernetesSerialization().convertValue(stored.stream()
                .filter(s -> s.getMetadata().getNamespace().equals("shop")).findFirst().orElseThrow(), JsonNode.class);
        assertEquals(summary, inCluster.path("summary"));
        // Applying again replaces them.
        assertEquals(1, audit("--apply").exit());
        assertEquals(4, cluster.list(MockCluster.POLICY_REPORTS.get(0)).size());
    }

    @Test
    void applyWithoutThePolicyReportCrdsSaysSo() {
        Run r = audit("--apply");
        assertEquals(2, r.exit());
        assertEquals("tollgate audit: the cluster at " + cluster.url() + "/ does not serve wgpolicyk8s.io/v1alpha2 "
                + "policyreports and clusterpolicyreports: install the Policy Reports CRDs (see "
                + "shared/simulator/README.md, \"Audit a cluster\") or leave out --apply\n", r.err());
        assertEquals("", r.out());
    }

    // ---- what the cluster serves, and failures -------------------------------------------------------------

    @Test
    void aKindTheClusterDoesNotServeIsANoteNotAnError() throws Exception {
        cluster.close();
        start(MockCluster.BUILT_IN.stream().filter(res -> !res.group().equals("batch")).toList());
        Run r = audit("-o", "json");
        assertEquals(1, r.exit(), r.err());
        JsonNode report = json(r.out());
        assertEquals(300, report.path("summary").path("objects").asInt());
        assertTrue(report.path("notes").toString().contains("batch/v1 cronjobs is not served by the cluster (named by "
                + "require-team.audit.test): nothing to audit there"), report.path("notes").toString());
        assertTrue(cluster.listRequests.stream().noneMatch(p -> p.contains("batch")), cluster.listRequests.toString());
    }

    @Test
    void unreachableClusterIsOneLine() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        String url = "http://127.0.0.1:" + port;
        Run r = audit(c -> new Cluster(new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                .withMasterUrl(url).withRequestRetryBackoffLimit(0).build()).build()));
        assertEquals(2, r.exit());
        assertEquals("", r.out());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("tollgate audit: cannot reach the cluster at " + url + "/ to read the API "
                + "discovery ("), r.err());
    }

    @Test
    void forbiddenListIsOneLine() {
        cluster.forbid("/api/v1/pods");
        Run r = audit();
        assertEquals(2, r.exit());
        assertEquals("", r.out());
        assertEquals("tollgate audit: the cluster at " + cluster.url() + "/ does not allow to list v1 pods in all "
                + "namespaces (HTTP 403: pods is forbidden: User \"system:serviceaccount:tollgate:tollgate-audit\" "
                + "cannot list resource \"pods\" at the cluster scope); grant the ClusterRole in "
                + "shared/simulator/rbac/tollgate-audit.yaml\n", r.err());
        // It failed before reviewing anything.
        assertTrue(fake.calls.isEmpty(), fake.calls.toString());
    }

    @Test
    void webhookConfigurationsFromTheCluster() throws Exception {
        for (JsonNode doc : YAML.readerFor(JsonNode.class).<JsonNode>readValues(Files.readString(config)).readAll()) {
            cluster.create(cluster.resource(doc.path("kind").asText()), (ObjectNode) doc);
        }
        create("ValidatingWebhookConfiguration", """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: in-cluster}
                webhooks:
                - name: served.in-cluster.test
                  clientConfig: {service: {namespace: policy, name: checker}}
                  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
                  sideEffects: None
                  admissionReviewVersions: [v1]
                """);
        Run r = audit("--cluster-webhooks", "-o", "json");
        assertEquals(1, r.exit(), r.err());
        JsonNode report = json(r.out());
        assertEquals(40, report.path("summary").path("denied").asInt());
        assertTrue(report.path("notes").toString().contains("ValidatingWebhookConfiguration in-cluster: webhook "
                + "served.in-cluster.test is reached through clientConfig.service, which cannot be called from here: "
                + "left out"), report.path("notes").toString());
        assertEquals(2, audit("--cluster-webhooks", "-f", config.toString()).exit());
    }

    @Test
    void badOptionsExitWithTwo() {
        Run r = audit("--chunk-size", "0");
        assertEquals(2, r.exit());
        assertEquals("tollgate audit: --chunk-size must be at least 1, got 0\n", r.err());
        assertEquals(2, audit("-o", "yaml").exit());
    }
}
