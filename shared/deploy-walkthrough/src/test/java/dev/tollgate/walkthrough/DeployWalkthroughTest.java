package dev.tollgate.walkthrough;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.testing.KubeApiServer;
import dev.tollgate.testing.Skip;

/**
 * The root README's deploy walk-through ("Knative, registered into an external cluster"), its marked blocks run as
 * written in one bash session, from a scratch copy of the repository's knative/ and terraform/:
 * <ul>
 * <li>the functions' cluster is a real kube-apiserver ({@code walkthrough-functions}) serving Knative's Service API
 * from Knative's own CRD ({@code ../shared/fixtures/schemas}); {@link KnativeStandIn} plays Knative's controller
 * (Ready, URL) and {@link RevisionProcess} the kubelet (the function's fast-jar started from the Service as applied,
 * over HTTPS with the governed cluster's webhook certificate standing in for the Knative domain's);</li>
 * <li>the governed cluster, kubectl context {@code east}, is another ({@code walkthrough-external}, v1.20, so
 * {@code namespace_exclusions = false}), {@link ServiceAccountStandIn} giving each new namespace its {@code default}
 * ServiceAccount as kube-controller-manager would;</li>
 * <li>the "edit" of {@code terraform.tfvars} is an {@code *.auto.tfvars.json} beside it naming that cluster; the
 * example's {@code cluster.tf} is removed (the hashicorp/kubernetes provider cannot be installed here), so the block
 * marked {@code register-without-provider} applies what it would have;</li>
 * <li>the {@code ./mvnw} line runs in the checkout (the scratch copy has no pom), where it rebuilds the deployer's
 * jar that the build running this test has just built (this module depends on it);</li>
 * </ul>
 * Then the decision is looked for where the README's last (not run) block looks: the function's decision log and
 * {@code tollgate_reviews_total} on its management port. Skipped, with a SKIPPED line, without the kube-apiserver
 * kit, Knative's CRD fixture or jq.
 */
class DeployWalkthroughTest {

    static final String TEST = "DeployWalkthroughTest";
    static final String NAMESPACE = "tollgate";
    static final List<String> FUNCTIONS = List.of("require-labels", "always-pull-images");

    static KubeApiServer functions;
    static KubeApiServer external;
    static KnativeStandIn knative;
    static ServiceAccountStandIn serviceAccounts;
    static final List<RevisionProcess> revisions = new ArrayList<>();

    @AfterAll
    static void stop() {
        revisions.forEach(RevisionProcess::close);
        if (knative != null) {
            knative.close();
        }
        if (serviceAccounts != null) {
            serviceAccounts.close();
        }
        if (functions != null) {
            functions.stop();
        }
        if (external != null) {
            external.stop();
        }
    }

    @Test
    void theReadmesDeployWalkthroughRunsAsWritten() throws Exception {
        Path root = root();
        ReadmeBlocks readme = ReadmeBlocks.read(root.resolve("README.md"));
        assertEquals(List.of("setup", "deploy", "register", "register-without-provider", "check"), readme.names(),
                "the README's walk-through blocks, in order");
        assertEquals(2, readme.notRun(), "blocks marked not run: the image build, the decision log and metrics");

        Path crd = fixtures().resolve("schemas/knative-serving-service-crd.yaml");
        Skip.unless(Files.isRegularFile(crd), TEST, () -> crd + " is absent (Knative's Service CRD)");
        Skip.unless(onPath("jq").isPresent(), TEST, () -> "jq is not on the PATH (the walk-through uses it)");
        Skip.unless(onPath("openssl").isPresent(), TEST, () -> "openssl is not on the PATH (the walk-through uses it)");
        if (onPath("terraform").isEmpty()) {
            fail("terraform is not on the PATH: the walk-through registers the functions with Terraform >= 1.11");
        }
        Skip.unless(KubeApiServer.missing().isEmpty(), TEST, () -> KubeApiServer.missing().orElseThrow());
        functions = KubeApiServer.start(TEST, "walkthrough-functions").orElseThrow();
        external = KubeApiServer.start(TEST, "walkthrough-external").orElseThrow();
        Path work = Path.of(System.getProperty("basedir", ".")).resolve("target/walkthrough").toAbsolutePath();
        Scratch.delete(work);
        Files.createDirectories(work);
        // Knative's CRD as published, adapted for v1.20 (KnativeCrd: its empty-string defaults dropped).
        Path crdFor120 = work.resolve("knative-serving-service-crd.yaml");
        assertEquals(11, KnativeCrd.forV120(crd, crdFor120).size(), "the empty-string defaults v1.20 refuses");
        functions.kubectl("apply", "-f", crdFor120.toString());
        // Polled: kubectl 1.20's wait fails at once, instead of waiting, while the new CRD has no conditions yet
        // ("status.conditions accessor error"), which a loaded machine leaves long enough to meet.
        for (int i = 0; !functions.kubectl("get", "crd/services.serving.knative.dev", "-o",
                "jsonpath={.status.conditions[?(@.type==\"Established\")].status}").strip().equals("True"); i++) {
            assertTrue(i < 600, "Knative's Service CRD is not Established after 60 s");
            Thread.sleep(100);
        }
        Path clone = Scratch.clone(root, work.resolve("clone"));
        Map<String, Integer> ports = new LinkedHashMap<>();
        for (String f : FUNCTIONS) {
            ports.put(f, RevisionProcess.freePort());
        }
        knative = new KnativeStandIn(new KubeApi(functions), NAMESPACE, ports);
        serviceAccounts = new ServiceAccountStandIn(new KubeApi(external));
        ShellSession shell = new ShellSession(work.resolve("session"), clone, environment(work));

        // 1. The functions' namespace, the kept caller token and its Secret, the CEL functions' ServiceAccounts.
        List<ShellSession.Step> setup = shell.run("setup", readme.block("setup"));
        allSucceeded(setup);
        String token = Files.readString(clone.resolve("tollgate-path-token")).strip();
        assertTrue(token.matches("[0-9a-f]{48}"), "the kept token: " + token);
        assertEquals(token, new String(Base64.getDecoder().decode(functions.kubectl("get", "secret", "tollgate-auth",
                "-n", NAMESPACE, "-o", "jsonpath={.data.path-tokens}").strip()), StandardCharsets.UTF_8).strip(),
                "the Secret holds the kept token");

        // 2. The deployer built (in the checkout, the one place with a pom; it rebuilds what this build made), then
        // the Services created, Ready (the stand-in controller), their URLs written for Terraform.
        List<String> deploy = new ArrayList<>(readme.block("deploy"));
        List<String> maven = deploy.stream().filter(c -> c.startsWith("./mvnw ")).toList();
        assertEquals(1, maven.size(), "the deploy block builds the deployer once: " + maven);
        assertTrue(maven.get(0).contains("-pl shared/knative-deployer"), maven.get(0));
        deploy.removeAll(maven);
        Map<String, String> mavenEnv = new LinkedHashMap<>(System.getenv());
        mavenEnv.put("JAVA_HOME", System.getProperty("java.home"));
        allSucceeded(new ShellSession(work.resolve("maven"), root, mavenEnv).run("deploy-build", maven));
        List<ShellSession.Step> deployed = shell.run("deploy", deploy);
        allSucceeded(deployed);
        Path example = clone.resolve("terraform/examples/knative-external-cluster");
        JsonNode urls = KubeApi.JSON.readTree(example.resolve("function-urls.auto.tfvars.json").toFile());
        for (String f : FUNCTIONS) {
            assertEquals("https://127.0.0.1:" + ports.get(f), urls.path("function_urls").path(f).asText(),
                    "the deployer's Terraform input: " + urls);
        }

        // 3. Terraform: this machine cannot install hashicorp/kubernetes, so cluster.tf goes (README: then apply
        // knative_manifests_yaml with kubectl); the edit of terraform.tfvars names the governed kube-apiserver.
        Files.delete(example.resolve("cluster.tf"));
        ObjectNode edit = KubeApi.JSON.createObjectNode();
        ObjectNode east = edit.putObject("clusters").putObject("east");
        east.put("kubernetes_version", "1.20");
        east.put("server", external.url().toString());
        east.put("certificate_authority", Files.readString(external.caFile()));
        east.put("namespace_exclusions", false);
        edit.put("ca_bundle_file", external.env("KAS_WEBHOOK_CA_FILE"));
        Files.writeString(example.resolve("walkthrough.auto.tfvars.json"), edit.toPrettyString());
        List<ShellSession.Step> registered = shell.run("register", readme.block("register"));
        allSucceeded(registered);
        String applied = registered.get(registered.size() - 1).stdout();
        assertTrue(applied.contains("validatingwebhookconfiguration.admissionregistration.k8s.io/"), applied);
        assertTrue(applied.contains("mutatingwebhookconfiguration.admissionregistration.k8s.io/"), applied);
        assertTrue(external.kubectl("get", "validatingwebhookconfigurations", "-o", "jsonpath={..clientConfig.url}")
                .contains("https://127.0.0.1:" + ports.get("require-labels") + "/" + token + "/require-labels"),
                "the kept token in the registered URL");
        assertTrue(external.kubectl("get", "mutatingwebhookconfigurations", "-o", "jsonpath={..clientConfig.url}")
                .contains("https://127.0.0.1:" + ports.get("always-pull-images") + "/" + token + "/always-pull-images"));

        List<ShellSession.Step> withoutProvider = shell.run("register-without-provider",
                readme.block("register-without-provider"));
        allSucceeded(withoutProvider);
        for (String f : FUNCTIONS) {
            assertTrue(withoutProvider.get(0).stdout().contains("secret/tollgate-callers-" + f + " created"),
                    withoutProvider.get(0).describe());
            assertTrue(withoutProvider.get(0).stdout().contains("service.serving.knative.dev/" + f + " configured"),
                    withoutProvider.get(0).describe());
        }

        // 4. The revisions, from the Services as Terraform left them (per-cluster token files, budget deadline).
        for (String f : FUNCTIONS) {
            Path jar = root.resolve("functions").resolve(f).resolve("target/quarkus-app/quarkus-run.jar");
            if (!Files.isRegularFile(jar)) {
                fail(jar + " is missing: build it first (./mvnw -B package -DskipTests -pl functions/" + f + " -am)");
            }
            RevisionProcess revision = RevisionProcess.start(new KubeApi(functions), NAMESPACE, f, jar,
                    work.resolve("pods").resolve(f), ports.get(f), external.env("KAS_WEBHOOK_CERT_FILE"),
                    external.env("KAS_WEBHOOK_KEY_FILE"));
            revisions.add(revision);
            assertEquals("registry.example.com/platform/" + f + ":0.1.0-SNAPSHOT",
                    revision.container.path("image").asText(), "the image the deployer set");
            String env = revision.container.path("env").toString();
            assertTrue(env.contains("TOLLGATE_AUTH_CLUSTERS_DIR") && env.contains("TOLLGATE_DEADLINE_TIMEOUT"), env);
        }

        // 5. kubectl on the governed cluster: a denied Deployment, a mutated pod.
        List<ShellSession.Step> check = shell.run("check", readme.block("check"));
        assertEquals(4, check.size(), "the check block's commands");
        allSucceeded(check.subList(0, 2));
        ShellSession.Step denied = check.get(2);
        assertNotEquals(0, denied.exit(), denied.describe());
        assertTrue(denied.stderr().contains("admission webhook \"require-labels.tollgate.dev\" denied the request")
                && denied.stderr().contains("team"), denied.describe());
        ShellSession.Step mutated = check.get(3);
        assertEquals(0, mutated.exit(), mutated.describe());
        assertEquals("Always", mutated.stdout().strip(), mutated.describe());

        // 6. The decision, where the README's last block finds it: the decision log, and the metrics.
        RevisionProcess requireLabels = revisions.get(0);
        RevisionProcess alwaysPull = revisions.get(1);
        assertTrue(decisionLine(requireLabels, "\"function\":\"require-labels\"", "\"cluster\":\"east\"",
                "\"operation\":\"CREATE\"", "\"kind\":\"Deployment\"", "\"namespace\":\"demo\"", "\"name\":\"web\"",
                "\"verdict\":\"denied\""), requireLabels.output());
        assertTrue(decisionLine(alwaysPull, "\"function\":\"always-pull-images\"", "\"cluster\":\"east\"",
                "\"kind\":\"Pod\"", "\"namespace\":\"demo\"", "\"verdict\":\"patched\""), alwaysPull.output());
        assertTrue(counted(requireLabels, "function=\"require-labels\"", "cluster=\"east\"", "kind=\"Deployment\"",
                "verdict=\"denied\""), requireLabels.get("/q/metrics"));
        assertTrue(counted(alwaysPull, "function=\"always-pull-images\"", "cluster=\"east\"", "kind=\"Pod\"",
                "verdict=\"patched\""), alwaysPull.get("/q/metrics"));

        assertEquals(List.of(), knative.problems(), "the Knative stand-in");
        assertEquals(List.of(), serviceAccounts.problems(), "the service account stand-in");
    }

    /** A decision-log line (one JSON object) holding every fragment. */
    static boolean decisionLine(RevisionProcess revision, String... fragments) {
        return revision.output().lines().filter(l -> l.startsWith("{"))
                .anyMatch(l -> List.of(fragments).stream().allMatch(l::contains));
    }

    /** A {@code tollgate_reviews_total} series with these labels, counted at least once. */
    static boolean counted(RevisionProcess revision, String... labels) throws Exception {
        return revision.get("/q/metrics").lines().filter(l -> l.startsWith("tollgate_reviews_total{"))
                .filter(l -> List.of(labels).stream().allMatch(l::contains))
                .anyMatch(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)) >= 1);
    }

    static void allSucceeded(List<ShellSession.Step> steps) {
        for (ShellSession.Step s : steps) {
            assertEquals(0, s.exit(), () -> s.describe());
        }
    }

    /**
     * The session's environment: kubectl (the kit's), this JVM's java, jq, openssl and terraform from the PATH; the
     * two clusters in one kubeconfig (current context: the functions' cluster; {@code east}: the governed one, named as in the example);
     * a HOME of its own (no user CLI configuration of kubectl or Terraform is read); no TF_* variables.
     */
    static Map<String, String> environment(Path work) throws IOException, InterruptedException {
        Path bin = Files.createDirectories(work.resolve("bin"));
        Files.createSymbolicLink(bin.resolve("kubectl"), KubeApiServer.dir().resolve("bin/kubectl"));
        Path home = Files.createDirectories(work.resolve("home"));
        Path kubeconfig = work.resolve("kubeconfig");
        Path kubectl = KubeApiServer.dir().resolve("bin/kubectl");
        String merged = run(Map.of("KUBECONFIG", functions.kubeconfig() + File.pathSeparator + external.kubeconfig()),
                kubectl.toString(), "config", "view", "--flatten");
        Files.writeString(kubeconfig, merged);
        Map<String, String> one = Map.of("KUBECONFIG", kubeconfig.toString());
        run(one, kubectl.toString(), "config", "rename-context", "kas-" + functions.name(), "functions");
        run(one, kubectl.toString(), "config", "rename-context", "kas-" + external.name(), "east");
        run(one, kubectl.toString(), "config", "use-context", "functions");

        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", bin + File.pathSeparator + Path.of(System.getProperty("java.home"), "bin")
                + File.pathSeparator + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("HOME", home.toString());
        env.put("KUBECONFIG", kubeconfig.toString());
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("CHECKPOINT_DISABLE", "1"); // no Terraform version check against the network
        env.put("LANG", "C.UTF-8");
        return env;
    }

    static String run(Map<String, String> env, String... command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }

    static Optional<Path> onPath(String program) {
        return List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)).stream()
                .filter(d -> !d.isBlank()).map(d -> Path.of(d, program)).filter(Files::isExecutable).findFirst();
    }

    static Path root() {
        String dir = System.getProperty("tollgate.root.dir");
        if (dir == null || dir.isBlank()) {
            throw new IllegalStateException("system property tollgate.root.dir is not set; run the test through Maven "
                    + "from the repository (./mvnw -B verify -pl shared/deploy-walkthrough -am)");
        }
        return Path.of(dir).toAbsolutePath().normalize();
    }

    static Path fixtures() {
        String dir = System.getProperty("tollgate.fixtures.dir");
        return (dir == null ? root().resolve("../shared/fixtures") : Path.of(dir)).toAbsolutePath().normalize();
    }
}
