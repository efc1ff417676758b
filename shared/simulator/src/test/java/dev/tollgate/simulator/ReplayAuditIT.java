package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.tollgate.simulator.replay.ReplayReader;
import dev.tollgate.simulator.replay.ReplayReport;
import dev.tollgate.testing.HttpsFunction;
import dev.tollgate.testing.KubeApiServer;
import dev.tollgate.testing.Skip;

/**
 * {@code tollgate replay} of a real API server's own audit log (issue 31's "done when"): a kube-apiserver (the kit's,
 * v1.20, instance {@code replay-audit}) logging pods, deployments and namespaces at RequestResponse calls the
 * packaged all-in-one bundle over HTTPS (the kit's webhook certificate) through the configurations the simulator
 * renders from the bundled catalog; the bundle's cel-policy and cel-mutate read the simulator's shipped policies.
 * Requests are made with kubectl: allowed, mutated (the mesh sidecar, imagePullPolicy), denied (cel-policy's trusted
 * registry, Pod Security, required labels), an update and a delete of a deployment, a patch, a ConfigMap (Metadata
 * level). Then the packaged CLI replays that log against its in-process bundle: with the same policies nothing
 * changes (exit 0); with the trusted-registry rule changed (registry.example.com/shop/ and /mesh/ only, and
 * mirror.example.com/ allowed) exactly one pod goes allowed->denied and one denied->allowed (exit 1). The bundle's
 * own log, decision lines with objects among its other lines, replays to the same: no change, then the same flips.
 * Skipped, with a SKIPPED line, where the kit is not set up.
 */
class ReplayAuditIT {

    static final String TEST = "ReplayAuditIT";
    static final ObjectMapper JSON = new ObjectMapper();

    /** Pods, deployments and namespaces with their bodies; other writes at Metadata; reads and leases not at all. */
    static final String AUDIT_POLICY = """
            apiVersion: audit.k8s.io/v1
            kind: Policy
            omitStages: [RequestReceived]
            rules:
              - level: None
                verbs: [get, list, watch]
              - level: None
                resources: [{group: coordination.k8s.io, resources: [leases]}]
              - level: RequestResponse
                resources:
                  - {group: "", resources: [pods, namespaces]}
                  - {group: apps, resources: [deployments]}
              - level: Metadata
            """;

    /**
     * The shipped policy with its rule changed: tightened for registry.example.com, loosened for a mirror. Its message
     * stays the same: the privileged pod is denied by Pod Security and cel-policy alike, and the log holds whichever
     * denial the API server got first, so a changed message would show as a change or not by chance.
     */
    static final String CHANGED_POLICY = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata:
              name: trusted-registry.simulator.tollgate.dev
            spec:
              failurePolicy: Fail
              matchConstraints:
                resourceRules:
                - apiGroups: [""]
                  apiVersions: ["v1"]
                  operations: ["CREATE", "UPDATE"]
                  resources: ["pods"]
              variables:
              # containers and initContainers are two types to the API server's type checking: filtered each.
              - name: untrusted
                expression: >-
                  object.spec.containers.filter(c, !c.image.startsWith('registry.example.com/shop/')
                    && !c.image.startsWith('registry.example.com/mesh/')
                    && !c.image.startsWith('mirror.example.com/')).map(c, c.name)
                  + (has(object.spec.initContainers) ? object.spec.initContainers.filter(c,
                    !c.image.startsWith('registry.example.com/shop/')
                    && !c.image.startsWith('registry.example.com/mesh/')
                    && !c.image.startsWith('mirror.example.com/')).map(c, c.name) : [])
              validations:
              - expression: "size(variables.untrusted) == 0"
                messageExpression: >-
                  'containers ' + variables.untrusted.join(', ') + ' use images outside registry.example.com'
                reason: Forbidden
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicyBinding
            metadata:
              name: trusted-registry.simulator.tollgate.dev
            spec:
              policyName: trusted-registry.simulator.tollgate.dev
              validationActions: [Deny]
            """;

    @TempDir
    static Path dir;

    static KubeApiServer cluster;
    static HttpsFunction bundle;
    static Path bundleLog;
    static Path root;
    /** The part of the audit log written after the webhooks were registered and served. */
    static Path log;
    /** kubectl's exit status per request made. */
    static Map<String, Integer> made = new TreeMap<>();

    @BeforeAll
    static void requestsMadeAndLogged() throws Exception {
        Skip.unless(KubeApiServer.missing().isEmpty(), TEST, () -> KubeApiServer.missing().orElse(""));
        root = PackagedCli.root();
        Path runner = root.resolve("functions/all-in-one/target/quarkus-app/quarkus-run.jar");
        assertTrue(Files.isRegularFile(runner), "the all-in-one bundle is not built: " + runner + " is missing ("
                + "./mvnw -B -pl functions/all-in-one -am package -DskipTests)");
        Path policy = Files.writeString(dir.resolve("audit-policy.yaml"), AUDIT_POLICY);
        cluster = KubeApiServer.start(TEST, "replay-audit", List.of("--audit-policy", policy.toString()))
                .orElseThrow();
        int port = HttpsFunction.freePort();
        // The configurations as the simulator renders them for the bundle at that URL (review's default).
        Configurations rendered = Configurations.render(BundleCatalog.registrations(),
                f -> "https://127.0.0.1:" + port, Files.readString(Path.of(cluster.env("KAS_WEBHOOK_CA_FILE"))),
                List.of("kube-system", "kube-node-lease", "knative-serving", "knative-eventing", "kourier-system",
                        "knative-operator", "tollgate"));
        cluster.apply(rendered.objects().stream().map(JsonNode::toString).collect(Collectors.joining("\n---\n")));
        startBundle(runner, port);
        Path audit = Path.of(cluster.env("KAS_AUDIT_LOG"));
        long before = Files.readAllLines(audit).size();

        Path examples = root.resolve("shared/simulator/examples");
        // v1.20 does not label namespaces with their name (1.21+): the manifest does, as a current API server would.
        create("namespace", Files.writeString(dir.resolve("shop.yaml"), Files.readString(examples.resolve(
                "00-namespace-shop.yaml")).replace("team: storefront", "team: storefront\n    "
                        + "kubernetes.io/metadata.name: shop")));
        cluster.apply("{apiVersion: v1, kind: ServiceAccount, metadata: {name: default, namespace: shop}, "
                + "automountServiceAccountToken: false}\n");
        String compliant = Files.readString(examples.resolve("compliant-pod.yaml"));
        create("web", examples.resolve("compliant-pod.yaml"));
        create("tools", Files.writeString(dir.resolve("tools.yaml"), compliant.replace("name: web", "name: tools")
                .replace("registry.example.com/shop/web:1.4.2", "registry.example.com/tools/kit:2.0")));
        create("mirror", Files.writeString(dir.resolve("mirror.yaml"), compliant.replace("name: web",
                "name: mirror").replace("registry.example.com/shop/web:1.4.2", "mirror.example.com/shop/web:1.4.2")));
        create("privileged", examples.resolve("privileged-pod.yaml"));
        create("checkout", examples.resolve("deployment-missing-labels.yaml"));
        create("catalog", examples.resolve("labelled-deployment.yaml"));
        String labelled = Files.readString(examples.resolve("labelled-deployment.yaml"));
        made.put("catalog update", cluster.kubectlRun("replace", "-f", Files.writeString(dir.resolve("catalog.yaml"),
                labelled.replace("team: storefront", "team: storefront\n    tier: web")).toString()).exit());
        made.put("web label", cluster.kubectlRun("label", "pod", "web", "-n", "shop", "checked=yes").exit());
        made.put("catalog delete", cluster.kubectlRun("delete", "deployment", "catalog", "-n", "shop").exit());
        made.put("settings", cluster.kubectlRun("create", "configmap", "settings", "-n", "shop",
                "--from-literal=a=b").exit());
        // The audit backend writes after the response: wait for the last request's event.
        List<String> lines = List.of();
        for (int i = 0; i < 100; i++) {
            lines = Files.readAllLines(audit);
            if (lines.stream().anyMatch(l -> l.contains("\"resource\":\"configmaps\"") && l.contains("\"settings\"")
                    && l.contains("ResponseComplete"))) {
                break;
            }
            Thread.sleep(100);
        }
        log = Files.write(dir.resolve("audit.log"), lines.subList((int) before, lines.size()));
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

    static void create(String what, Path manifest) {
        made.put(what, cluster.kubectlRun("create", "-f", manifest.toString()).exit());
    }

    /** The all-in-one bundle over HTTPS with the kit's webhook certificate and the simulator's shipped policies. */
    static void startBundle(Path runner, int port) {
        Path policies = root.resolve("shared/simulator/policies");
        bundleLog = dir.resolve("bundle.log");
        bundle = HttpsFunction.start(runner, cluster, port, HttpsFunction.freePort(), bundleLog, List.of(
                // The kit's API server presents no client credentials; the caller checks have their own tests.
                "-Dtollgate.auth.required=false",
                // Decision lines with the objects, so that the bundle's own log can be replayed too.
                "-Dtollgate.decision-log.include-objects=true",
                // As the CLI's in-process bundle reads them (Launch.useInstalledPolicies).
                "-Dtollgate.cel-policy.config=" + policies.resolve("cel-policy") + ","
                        + policies.resolve("namespaces.yaml"),
                "-Dtollgate.cel-mutate.config=" + policies.resolve("cel-mutate") + ","
                        + policies.resolve("namespaces.yaml")));
    }

    static JsonNode replay(List<String> jvmOptions, int expectedExit) throws Exception {
        return replay(jvmOptions, expectedExit, log);
    }

    static JsonNode replay(List<String> jvmOptions, int expectedExit, Path log, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("replay", "--no-progress", "-o", "json"));
        args.addAll(List.of(options));
        args.add(log.toString());
        PackagedCli.Result r = PackagedCli.run(dir, Duration.ofMinutes(5), jvmOptions, args);
        assertEquals(expectedExit, r.exit(), r.stdout() + r.stderr() + "\nrequests: " + made);
        return JSON.readTree(r.stdout());
    }

    /** Per function and change, the objects of the examples. */
    static Map<String, List<String>> changes(JsonNode report) {
        Map<String, List<String>> out = new TreeMap<>();
        report.path("functions").fields().forEachRemaining(f -> f.getValue().path("changes").fields()
                .forEachRemaining(c -> {
                    if (c.getValue().path("count").asInt() > 0) {
                        List<String> objects = new ArrayList<>();
                        c.getValue().path("examples").forEach(x -> objects.add(x.path("object").asText()));
                        assertEquals(c.getValue().path("count").asInt(), objects.size(), report.toString());
                        out.put(f.getKey() + " " + c.getKey(), objects);
                    }
                }));
        return out;
    }

    static Map<String, Long> notReplayed(JsonNode report) {
        Map<String, Long> out = new TreeMap<>();
        report.path("notReplayed").forEach(n -> out.put(n.path("reason").asText(), n.path("count").asLong()));
        return out;
    }

    @Test
    void theRequestsWereAllowedAndDeniedAsThePoliciesSay() {
        Map<String, Integer> expected = new TreeMap<>(Map.of("namespace", 0, "web", 0, "tools", 0, "mirror", 1,
                "privileged", 1, "checkout", 1, "catalog", 0, "catalog update", 0, "web label", 0));
        expected.put("catalog delete", 0);
        expected.put("settings", 0);
        assertEquals(expected, made);
    }

    @Test
    void replayWithTheSamePoliciesChangesNothing() throws Exception {
        JsonNode report = replay(List.of(), 0);
        assertEquals(Map.of(), changes(report), report.toString());
        // Four pods and the deployments' two creates and update; the namespace and the deployment's delete call no
        // webhook; the label is a patch; the ServiceAccount and the ConfigMap are at Metadata level.
        assertEquals(7, report.path("replayed").asInt(), report.toString());
        assertEquals(0, report.path("unreadable").path("count").asInt(), report.toString());
        assertEquals(Map.of(ReplayReader.NO_OBJECT, 2L, ReplayReport.NO_WEBHOOK, 2L, ReplayReader.PATCH, 1L),
                notReplayed(report), report.toString());
        // What was compared is not nothing: denials by three functions, patches by two.
        assertEquals(7, report.path("functions").path("cel-policy").path("unchanged").asInt(), report.toString());
        assertEquals(4, report.path("functions").path("always-pull-images").path("unchanged").asInt(),
                report.toString());
    }

    @Test
    void replayAgainstAChangedPolicyReportsExactlyTheFlippedDecisions() throws Exception {
        Path changed = Files.createDirectories(dir.resolve("changed-cel-policy"));
        Files.writeString(changed.resolve("trusted-registry.yaml"), CHANGED_POLICY);
        JsonNode report = replay(List.of("-Dtollgate.cel-policy.config=" + changed + ","
                + root.resolve("shared/simulator/policies/namespaces.yaml")), 1);
        assertEquals(Map.of("cel-policy allowedToDenied", List.of("Pod shop/tools (CREATE)"),
                "cel-policy deniedToAllowed", List.of("Pod shop/mirror (CREATE)")), changes(report),
                report.toString());
        assertEquals(2, report.path("changed").asInt());
        assertTrue(report.path("functions").path("cel-policy").path("changes").path("allowedToDenied")
                .path("examples").path(0).path("after").asText().contains("containers app use images outside"),
                report.toString());
    }

    @Test
    void theBundlesDecisionLogReplaysToTheSameFlips() throws Exception {
        // Each decision line is one function's answer to the object it received: compared for that function only.
        // Decision lines name the namespace but carry no Namespace: its labels (Pod Security's levels) are given.
        String namespaces = root.resolve("shared/simulator/examples/00-namespace-shop.yaml").toString();
        Path changed = Files.createDirectories(dir.resolve("changed-cel-policy-decisions"));
        Files.writeString(changed.resolve("trusted-registry.yaml"), CHANGED_POLICY);
        JsonNode same = replay(List.of(), 0, bundleLog, "--namespaces", namespaces);
        assertEquals(Map.of(), changes(same), same.toString());
        assertTrue(same.path("unreadable").path("count").asInt() > 0, "the bundle's other log lines are counted "
                + "as unreadable: " + same);
        JsonNode report = replay(List.of("-Dtollgate.cel-policy.config=" + changed + ","
                + root.resolve("shared/simulator/policies/namespaces.yaml")), 1, bundleLog, "--namespaces", namespaces);
        assertEquals(Map.of("cel-policy allowedToDenied", List.of("Pod shop/tools (CREATE)"),
                "cel-policy deniedToAllowed", List.of("Pod shop/mirror (CREATE)")), changes(report),
                report.toString());
    }
}
