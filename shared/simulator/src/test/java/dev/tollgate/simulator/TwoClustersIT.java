package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.tollgate.testing.HttpsFunction;
import dev.tollgate.testing.KubeApiServer;
import dev.tollgate.testing.Skip;

/**
 * One all-in-one bundle serving two real clusters, end to end: two kube-apiservers on loopback
 * ({@code ../shared/tools/kube-apiserver}, v1.20) hold a namespace {@code shop} with different labels; Terraform's
 * {@code cluster-registration} renders each cluster's webhook configurations (its own path token per function), the
 * read-only reader identity, each cluster's connection (one kubeconfig per cluster, with the reader's token) and one
 * path-token file per cluster; kubectl applies them. The packaged bundle
 * ({@code functions/all-in-one/target/quarkus-app}) serves both over HTTPS with the kit's webhook certificate, mapping
 * each token to its cluster ({@code tollgate.auth.clusters-dir}) and reading each cluster's namespaces through that
 * cluster's connection ({@code tollgate.clusters.dir}).
 *
 * <p>
 * The simulator's examples (and one pod of the test's own) are created in each cluster with kubectl: each cluster's
 * verdicts, warnings and mutations (the patches in its audit log) are what the packaged {@code tollgate review
 * --kubeconfig <that cluster>} predicted; the shipped cel-mutate binding (namespaceSelector {@code mesh=enabled})
 * matches in east only. The decision log and {@code /q/metrics} name the cluster; rewriting east's token file stops
 * east's calls (failurePolicy Fail) and leaves west's working. Skipped, with a SKIPPED line, where the kit is not set
 * up.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TwoClustersIT {

    static final String TEST = "TwoClustersIT";
    static final ObjectMapper JSON = new ObjectMapper();
    static final List<String> CLUSTERS = List.of("east", "west");

    /** The examples created in each cluster (kube-system-deployment.yaml is not: see {@link #registration}). */
    static final List<String> EXAMPLES = List.of("compliant-pod.yaml", "deployment-missing-labels.yaml",
            "labelled-deployment.yaml", "privileged-pod.yaml", "service-without-name-label.yaml");

    /** A pod that meets baseline and not restricted: east (enforce restricted) denies it, west (baseline) warns. */
    static final String PLAIN_POD = """
            apiVersion: v1
            kind: Pod
            metadata:
              name: plain
              namespace: shop
              labels: {team: storefront}
            spec:
              containers:
                - name: app
                  image: registry.example.com/shop/plain:1.0.0
            """;

    @TempDir
    static Path dir;

    static Map<String, KubeApiServer> clusters = new LinkedHashMap<>();
    static Map<String, Path> readerKubeconfigs = new LinkedHashMap<>();
    /** cluster => function => path token */
    static Map<String, Map<String, String>> tokens = new LinkedHashMap<>();
    static Path callers;
    static Path root;
    static HttpsFunction bundle;
    static Path bundleLog;
    static int bundlePort;
    static int managementPort;
    static List<Path> manifests = new ArrayList<>();

    /** Per cluster, per manifest file name: what kubectl create got from that cluster. */
    static Map<String, Map<String, KubeApiServer.Run>> created = new LinkedHashMap<>();

    @BeforeAll
    static void clustersRegisteredAndServed() throws Exception {
        Skip.unless(KubeApiServer.missing().isEmpty(), TEST, () -> KubeApiServer.missing().orElse(""));
        root = PackagedCli.root();
        Path runner = root.resolve("functions/all-in-one/target/quarkus-app/quarkus-run.jar");
        assertTrue(Files.isRegularFile(runner), "the all-in-one bundle is not built: " + runner + " is missing ("
                + "./mvnw -B -pl functions/all-in-one -am package -DskipTests)");
        for (String name : CLUSTERS) {
            clusters.put(name, KubeApiServer.start(TEST, "two-clusters-" + name).orElseThrow());
        }
        // The same namespace, labelled differently: east opts into the mesh sidecar (the shipped cel-mutate binding's
        // namespaceSelector) and enforces Pod Security restricted; west enforces baseline and warns on restricted.
        // v1.20 does not label namespaces with their name (1.21+): the manifests do, as a current API server would.
        clusters.get("east").apply(shop("{team: storefront, mesh: enabled, kubernetes.io/metadata.name: shop, "
                + "pod-security.kubernetes.io/enforce: restricted, pod-security.kubernetes.io/warn: restricted}"));
        clusters.get("west").apply(shop("{team: storefront, kubernetes.io/metadata.name: shop, "
                + "pod-security.kubernetes.io/enforce: baseline, pod-security.kubernetes.io/warn: restricted}"));

        bundlePort = HttpsFunction.freePort();
        managementPort = HttpsFunction.freePort();
        registration();
        startBundle(runner);

        for (String example : EXAMPLES) {
            manifests.add(root.resolve("shared/simulator/examples").resolve(example));
        }
        manifests.add(Files.writeString(dir.resolve("plain-pod.yaml"), PLAIN_POD));
        for (String name : CLUSTERS) {
            Map<String, KubeApiServer.Run> runs = new LinkedHashMap<>();
            for (Path m : manifests) {
                runs.put(m.getFileName().toString(), clusters.get(name).kubectlRun("create", "-f", m.toString()));
            }
            created.put(name, runs);
        }
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (bundle != null) {
            bundle.close();
        }
        for (KubeApiServer c : clusters.values()) {
            c.stop();
        }
    }

    static String shop(String labels) {
        return "{apiVersion: v1, kind: Namespace, metadata: {name: shop, labels: " + labels + "}}\n---\n"
                + "{apiVersion: v1, kind: ServiceAccount, metadata: {name: default, namespace: shop}, "
                + "automountServiceAccountToken: false}\n";
    }

    static String token(String cluster, String function) {
        byte[] random = new byte[12];
        new SecureRandom().nextBytes(random);
        return cluster + "-" + function + "-" + HexFormat.of().formatHex(random);
    }

    /**
     * modules/cluster-registration for the two clusters, as the knative-external-cluster example runs it, in two
     * applies: the first renders each cluster's manifests (applied with kubectl: the hashicorp/kubernetes provider
     * cannot be installed here), then each reader's token is read from its cluster and the second apply renders the
     * clusters' connections. The clusters are v1.20, so Terraform renders no {@code kubernetes.io/metadata.name}
     * exclusions (namespace_exclusions = false): kube-system is not excluded in these clusters, unlike the
     * simulator's rendering, so the example in kube-system is left out.
     */
    static void registration() throws Exception {
        Path work = Files.createDirectories(root.resolve("shared/simulator/target/two-clusters-terraform"));
        String tree = work.relativize(root.resolve("terraform")).toString().replace('\\', '/');
        JsonNode catalog = JSON.readTree(root.resolve("terraform/catalog/catalog.json").toFile());
        List<String> functions = new ArrayList<>();
        catalog.path("functions").fieldNames().forEachRemaining(functions::add);
        StringBuilder clusterBlocks = new StringBuilder();
        StringBuilder tokenBlocks = new StringBuilder();
        for (String name : CLUSTERS) {
            KubeApiServer c = clusters.get(name);
            clusterBlocks.append("""
                        %s = {
                          kubernetes_version    = "1.20"
                          server                = "%s"
                          certificate_authority = file("%s")
                          namespace_exclusions  = false
                        }
                    """.formatted(name, c.url(), c.caFile()));
            Map<String, String> own = new TreeMap<>();
            functions.forEach(f -> own.put(f, token(name, f)));
            tokens.put(name, own);
            tokenBlocks.append("    ").append(name).append(" = {").append(own.entrySet().stream()
                    .map(e -> "\"" + e.getKey() + "\" = \"" + e.getValue() + "\"").collect(Collectors.joining(", ")))
                    .append("}\n");
        }
        Files.writeString(work.resolve("main.tf"), """
                variable "reader_tokens" {
                  type      = map(string)
                  default   = {}
                  sensitive = true
                }

                module "registration" {
                  source      = "%1$s/modules/cluster-registration"
                  catalog     = jsondecode(file("${path.module}/%1$s/catalog/catalog.json"))
                  default_url = "https://127.0.0.1:%2$d"
                  ca_bundle   = file("%3$s")
                  clusters = {
                %4$s  }
                  caller_credentials = { for f in keys(jsondecode(file("${path.module}/%1$s/catalog/catalog.json")).functions) : f => "path-token" }
                  path_tokens = {
                %5$s  }
                  reader_tokens = var.reader_tokens
                }

                output "cluster_manifests_yaml" {
                  value     = module.registration.cluster_manifests_yaml
                  sensitive = true
                }

                output "path_token_files" {
                  value     = module.registration.path_token_files
                  sensitive = true
                }

                output "clusters_secret" {
                  value     = module.registration.clusters_secret
                  sensitive = true
                }

                output "connected_clusters" {
                  value = module.registration.connected_clusters
                }
                """.formatted(tree, bundlePort, clusters.get("east").env("KAS_WEBHOOK_CA_FILE"), clusterBlocks,
                tokenBlocks));
        TerraformCli.run(work, Map.of(), "init", "-backend=false", "-input=false", "-no-color");
        TerraformCli.run(work, Map.of(), "apply", "-auto-approve", "-input=false", "-no-color");
        JsonNode yaml = JSON.readTree(TerraformCli.run(work, Map.of(), "output", "-json", "cluster_manifests_yaml"));
        Map<String, String> readerTokens = new TreeMap<>();
        for (String name : CLUSTERS) {
            KubeApiServer c = clusters.get(name);
            String other = name.equals("east") ? "west" : "east";
            for (String t : tokens.get(other).values()) {
                assertFalse(yaml.path(name).asText().contains(t), "no cluster gets another cluster's token");
            }
            for (String t : tokens.get(name).values()) {
                assertTrue(yaml.path(name).asText().contains("https://127.0.0.1:" + bundlePort + "/" + t + "/"),
                        "each function's URL carries the cluster's own token");
            }
            c.apply(yaml.path(name).asText());
            readerTokens.put(name, readerToken(c));
        }
        TerraformCli.run(work, Map.of("TF_VAR_reader_tokens", JSON.writeValueAsString(readerTokens)), "apply",
                "-auto-approve", "-input=false", "-no-color");
        assertEquals(JSON.valueToTree(CLUSTERS), JSON.readTree(TerraformCli.run(work, Map.of(), "output", "-json",
                "connected_clusters")));

        // The functions' side: the clusters Secret's kubeconfigs as its volume would hold them, and the path-token
        // files of every function joined per cluster (one Service serves them all, as the module's README says).
        Path clustersDir = Files.createDirectories(dir.resolve("clusters"));
        JsonNode secret = JSON.readTree(TerraformCli.run(work, Map.of(), "output", "-json", "clusters_secret"));
        for (String name : CLUSTERS) {
            Path kubeconfig = clustersDir.resolve(name + ".kubeconfig");
            Files.writeString(kubeconfig, secret.path("stringData").path(name + ".kubeconfig").asText());
            readerKubeconfigs.put(name, kubeconfig);
        }
        callers = Files.createDirectories(dir.resolve("callers"));
        JsonNode files = JSON.readTree(TerraformCli.run(work, Map.of(), "output", "-json", "path_token_files"));
        for (String name : CLUSTERS) {
            StringBuilder joined = new StringBuilder();
            files.fields().forEachRemaining(f -> joined.append(f.getValue().path(name + ".path-tokens").asText()));
            assertEquals(tokens.get(name).values().stream().sorted().toList(),
                    joined.toString().lines().sorted().toList(), "one file per cluster, that cluster's tokens");
            Files.writeString(callers.resolve(name + ".path-tokens"), joined);
        }
    }

    /**
     * A token of the reader ServiceAccount through the TokenRequest API (v1.20 runs no token controller that would
     * fill the module's token Secret; `kubectl create token` came in 1.24).
     */
    static String readerToken(KubeApiServer c) throws IOException {
        Path request = Files.writeString(dir.resolve("token-request.json"), """
                {"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest", "spec": {"expirationSeconds": 7200}}
                """);
        String answer = c.kubectl("create", "--raw",
                "/api/v1/namespaces/tollgate/serviceaccounts/tollgate-reader/token", "-f", request.toString());
        String token = JSON.readTree(answer).path("status").path("token").asText();
        assertFalse(token.isEmpty(), answer);
        return token;
    }

    static void startBundle(Path runner) {
        Path policies = root.resolve("shared/simulator/policies");
        bundleLog = dir.resolve("bundle.log");
        // The kit's webhook certificate (SAN 127.0.0.1), whose CA Terraform put in both clusters' caBundle.
        bundle = HttpsFunction.start(runner, clusters.get("east"), bundlePort, managementPort, bundleLog, List.of(
                // Each cluster's callers and each cluster's connection, as Terraform wrote them. The token files are
                // re-read every second here (10 s by default), so the revocation below takes effect sooner.
                "-Dtollgate.auth.clusters-dir=" + callers,
                "-Dtollgate.auth.reload-period=1s",
                "-Dtollgate.clusters.dir=" + readerKubeconfigs.get("east").getParent(),
                // The simulator's shipped policies, without its namespaces.yaml: namespaces come from the clusters.
                "-Dtollgate.cel-policy.config=" + policies.resolve("cel-policy"),
                "-Dtollgate.cel-mutate.config=" + policies.resolve("cel-mutate")));
    }

    // ---- what each cluster got, against what tollgate review predicted for it ----

    @Test
    @Order(1)
    void eachClusterGetsTheDecisionsTollgateReviewPredictsForIt() throws Exception {
        Map<String, Integer> patches = new TreeMap<>();
        Map<String, Integer> warned = new TreeMap<>();
        for (String name : CLUSTERS) {
            List<String> args = new ArrayList<>(List.of("review", "--kubeconfig",
                    readerKubeconfigs.get(name).toString(), "-o", "json"));
            manifests.forEach(m -> args.add(m.toString()));
            PackagedCli.Result review = PackagedCli.run(dir, Duration.ofMinutes(5), args);
            assertEquals(1, review.exit(), review.stdout() + review.stderr());
            JsonNode reports = JSON.readTree(review.stdout()).path("manifests");
            assertEquals(manifests.size(), reports.size(), review.stdout());
            for (JsonNode predicted : reports) {
                String file = Path.of(predicted.path("source").asText()).getFileName().toString();
                KubeApiServer.Run actual = created.get(name).get(file);
                String where = name + " " + file + ": predicted " + predicted + "\nkubectl: " + actual;
                assertEquals(predicted.path("allowed").asBoolean(), actual.exit() == 0, where);
                if (!predicted.path("allowed").asBoolean()) {
                    // The API server calls the validating webhooks at once and reports whichever denial came first
                    // (validating/dispatcher.go); the simulator reports the first in order. Either is a denial the
                    // review saw.
                    List<String> denials = new ArrayList<>();
                    denials.add(predicted.path("message").asText());
                    predicted.path("webhooks").forEach(w -> {
                        if (w.path("result").asText().equals("denied")) {
                            denials.add(w.path("detail").asText());
                        }
                    });
                    assertTrue(denials.stream().anyMatch(actual.stderr()::contains), where);
                }
                List<String> warnings = actual.stderr().lines().filter(l -> l.startsWith("Warning: "))
                        .map(l -> l.substring("Warning: ".length())).sorted().toList();
                List<String> expected = new ArrayList<>();
                predicted.path("warnings").forEach(w -> expected.add(w.asText()));
                assertEquals(expected.stream().sorted().toList(), warnings, where);
                warned.merge(name, warnings.size(), Integer::sum);
                if (predicted.path("allowed").asBoolean()) {
                    Map<String, JsonNode> admission = annotations(predicted.path("auditAnnotations"));
                    Map<String, JsonNode> recorded = annotations(auditEvent(clusters.get(name), predicted)
                            .path("annotations"));
                    // Each webhook's answer names the cluster the bundle took the call for (its caller's token);
                    // the simulator plays one unnamed cluster, so it predicts no such annotation.
                    List<String> named = new ArrayList<>();
                    recorded.entrySet().removeIf(e -> {
                        if (e.getKey().endsWith(".tollgate.dev/cluster")) {
                            named.add(e.getValue().asText());
                            return true;
                        }
                        return false;
                    });
                    assertTrue(!named.isEmpty() && named.stream().allMatch(name::equals), where + ": " + named);
                    assertEquals(admission, recorded, where);
                    patches.merge(name, (int) admission.keySet().stream()
                            .filter(k -> k.startsWith("patch.webhook.admission.k8s.io/")).count(), Integer::sum);
                }
            }
        }
        // What was compared is not nothing: patches in both clusters (always-pull-images; in east also cel-mutate's
        // sidecar and always-pull-images again for it, west's pods got fewer), Pod Security warnings in both.
        assertTrue(patches.get("east") > patches.get("west") && patches.get("west") > 0, patches.toString());
        assertTrue(warned.get("east") > 0 && warned.get("west") > 0, warned.toString());
        // The binding that differs: the mesh sidecar in east only, as predicted above and as stored.
        assertEquals("mesh-proxy", clusters.get("east").kubectl("get", "pod", "web", "-n", "shop", "-o",
                "jsonpath={.spec.initContainers[*].name}").strip());
        assertEquals("", clusters.get("west").kubectl("get", "pod", "web", "-n", "shop", "-o",
                "jsonpath={.spec.initContainers[*].name}").strip());
        assertEquals("Always", clusters.get("west").kubectl("get", "pod", "web", "-n", "shop", "-o",
                "jsonpath={.spec.containers[0].imagePullPolicy}").strip());
        // Pod Security as each namespace's labels select it: restricted denies the plain pod in east, baseline lets
        // it into west.
        assertTrue(created.get("east").get("plain-pod.yaml").exit() != 0);
        assertEquals(0, created.get("west").get("plain-pod.yaml").exit());
    }

    /** The admission annotations the webhooks account for: mutations, patches and the webhooks' own, JSON parsed. */
    static Map<String, JsonNode> annotations(JsonNode all) {
        Map<String, JsonNode> out = new TreeMap<>();
        all.fields().forEachRemaining(e -> {
            String k = e.getKey();
            if (k.startsWith("mutation.webhook.admission.k8s.io/") || k.startsWith("patch.webhook.admission.k8s.io/")
                    || k.contains(".tollgate.dev/")) {
                JsonNode value;
                try {
                    value = JSON.readTree(e.getValue().asText());
                } catch (IOException notJson) {
                    value = e.getValue();
                }
                out.put(k, value);
            }
        });
        return out;
    }

    /** The create of this object as the cluster's audit log recorded it when the response was complete. */
    static JsonNode auditEvent(KubeApiServer cluster, JsonNode report) throws Exception {
        String resource = switch (report.path("kind").asText()) {
            case "Pod" -> "pods";
            case "Deployment" -> "deployments";
            case "Service" -> "services";
            default -> throw new AssertionError("no resource for " + report);
        };
        Path log = Path.of(cluster.env("KAS_AUDIT_LOG"));
        for (int i = 0; i < 100; i++) {
            for (String line : Files.readAllLines(log)) {
                JsonNode e = JSON.readTree(line);
                JsonNode ref = e.path("objectRef");
                if (e.path("verb").asText().equals("create") && e.path("stage").asText().equals("ResponseComplete")
                        && ref.path("resource").asText().equals(resource)
                        && ref.path("namespace").asText().equals(report.path("namespace").asText())
                        && ref.path("name").asText().equals(report.path("name").asText())) {
                    return e;
                }
            }
            Thread.sleep(100); // the audit backend writes after the response
        }
        throw new AssertionError("no audit event for the create of " + resource + " " + report.path("name")
                + " in " + log);
    }

    // ---- the cluster in decision logs and metrics ----

    @Test
    @Order(2)
    void decisionLogsAndMetricsNameTheCluster() throws Exception {
        List<JsonNode> decisions = new ArrayList<>();
        for (String line : Files.readAllLines(bundleLog)) {
            if (line.startsWith("{\"uid\"")) {
                decisions.add(JSON.readTree(line));
            }
        }
        assertFalse(decisions.isEmpty(), Files.readString(bundleLog));
        for (JsonNode d : decisions) {
            assertTrue(CLUSTERS.contains(d.path("cluster").asText()), d.toString());
        }
        // The same pod, the same cel-mutate: patched for east's namespace (a reinvocation, if any, finds the sidecar
        // there), allowed unchanged for west's.
        assertTrue(verdicts(decisions, "east", "cel-mutate", "web").contains("patched"), decisions.toString());
        assertEquals(List.of("allowed"), verdicts(decisions, "west", "cel-mutate", "web"), decisions.toString());

        String metrics = metrics();
        assertTrue(metrics.lines().anyMatch(l -> l.startsWith("tollgate_reviews_total{") && l.contains("cluster=\"east\"")
                && l.contains("function=\"cel-mutate\"") && l.contains("verdict=\"patched\"")), metrics);
        assertTrue(metrics.lines().anyMatch(l -> l.startsWith("tollgate_reviews_total{") && l.contains("cluster=\"west\"")
                && l.contains("function=\"cel-mutate\"") && l.contains("verdict=\"allowed\"")), metrics);
        assertFalse(metrics.lines().anyMatch(l -> l.startsWith("tollgate_reviews_total{")
                && l.contains("cluster=\"west\"") && l.contains("function=\"cel-mutate\"")
                && l.contains("verdict=\"patched\"")), metrics);
    }

    static List<String> verdicts(List<JsonNode> decisions, String cluster, String function, String name) {
        return decisions.stream().filter(d -> d.path("cluster").asText().equals(cluster)
                && d.path("function").asText().equals(function) && d.path("kind").asText().equals("Pod")
                && d.path("name").asText().equals(name)).map(d -> d.path("verdict").asText()).distinct().toList();
    }

    static String metrics() throws Exception {
        HttpRequest get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/q/metrics"))
                .timeout(Duration.ofSeconds(10)).build();
        return HttpClient.newHttpClient().send(get, HttpResponse.BodyHandlers.ofString()).body();
    }

    // ---- revoking one cluster's credential ----

    @Test
    @Order(3)
    void revokingOneClustersTokenStopsOnlyThatCluster() throws Exception {
        KubeApiServer east = clusters.get("east");
        KubeApiServer west = clusters.get("west");
        Path pod = Files.writeString(dir.resolve("later-pod.yaml"), PLAIN_POD.replace("name: plain", "name: later"));
        // East's token file rewritten with a token its webhook configurations do not carry: the runtime re-reads it
        // each reload period, after which east's calls are refused (401) and failurePolicy Fail refuses the create.
        Files.writeString(callers.resolve("east.path-tokens"), token("east", "rotated") + "\n");
        KubeApiServer.Run refused = null;
        for (int i = 0; i < 120 && refused == null; i++) {
            KubeApiServer.Run run = east.kubectlRun("create", "--dry-run=server", "-f", pod.toString());
            if (run.exit() != 0 && run.stderr().contains("failed calling webhook")) {
                refused = run;
            } else {
                Thread.sleep(500);
            }
        }
        assertTrue(refused != null, "east's calls are still accepted after its token file was rewritten:\n"
                + Files.readString(bundleLog));
        KubeApiServer.Run westRun = west.kubectlRun("create", "-f", pod.toString());
        assertEquals(0, westRun.exit(), westRun.toString());
        assertEquals("Always", west.kubectl("get", "pod", "later", "-n", "shop", "-o",
                "jsonpath={.spec.containers[0].imagePullPolicy}").strip());
        String metrics = metrics();
        assertTrue(metrics.lines().anyMatch(l -> l.startsWith("tollgate_rejected_callers_total{")
                && l.contains("check=\"path-token\"") && !l.endsWith(" 0.0")), metrics);
    }
}
