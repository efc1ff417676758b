package dev.tollgate.terraform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import dev.tollgate.testing.Skip;

/**
 * terraform validate for every module and example whose providers can be installed here. Where one cannot (the
 * hashicorp/kubernetes provider is not in this machine's mirror), the test is reported as skipped with that reason,
 * and the examples are still validated without their cluster.tf, the only file that uses it.
 */
class ValidateTest {

    @TestFactory
    Stream<DynamicTest> modulesAndExamplesValidate() {
        List<Path> dirs = new ArrayList<>(Terraform.folders("modules"));
        dirs.addAll(Terraform.folders("examples"));
        assertFalse(dirs.isEmpty(), "no modules or examples under terraform/");
        return dirs.stream().map(dir -> DynamicTest.dynamicTest(name(dir), () -> {
            Set<String> missing = missingProviders(dir);
            Skip.unless(missing.isEmpty(), "ValidateTest.modulesAndExamplesValidate[" + name(dir) + "]", () -> "terraform "
                    + "validate not run, provider(s) " + missing + " cannot be installed here (not in the filesystem "
                    + "mirror " + Terraform.MIRROR + "); checked by terraform fmt, and examples by the validate "
                    + "without cluster.tf");
            initAndValidate(dir);
        }));
    }

    /** The examples minus cluster.tf: everything but the kubernetes_manifest wiring, validated anywhere. */
    @TestFactory
    Stream<DynamicTest> examplesValidateWithoutTheClusterPart() {
        return Terraform.folders("examples").stream().map(dir -> DynamicTest.dynamicTest(name(dir) + " without cluster.tf",
                () -> {
                    assertTrue(Files.isRegularFile(dir.resolve("cluster.tf")), dir + " keeps its cluster wiring in cluster.tf");
                    Path copy = withoutClusterPart(dir);
                    Set<String> missing = missingProviders(copy);
                    Skip.unless(missing.isEmpty(), "ValidateTest.examplesValidateWithoutTheClusterPart[" + name(dir)
                            + "]", () -> "providers " + missing + " cannot be installed here");
                    initAndValidate(copy);
                }));
    }

    /**
     * The Knative example has no provider besides kubernetes: its terraform.tfvars.example must plan, with the path
     * tokens it takes from the environment (one per cluster and function); without them the plan is refused, naming
     * the clusters and functions; the Knative Services get the request timeout and deadline of the same budget as
     * the webhooks, the CEL functions the governed clusters' connections, and every Service its tokens as one file
     * per governed cluster (tollgate.auth.clusters-dir), never in the plan's text.
     */
    @TestFactory
    Stream<DynamicTest> exampleTfvarsPlanWhereNoCloudAccountIsNeeded() {
        return Terraform.folders("examples").stream()
                .filter(dir -> Terraform.requiredProviders(withoutClusterPart(dir)).isEmpty())
                .map(dir -> DynamicTest.dynamicTest(name(dir) + " plans with terraform.tfvars.example", () -> {
                    Path copy = withoutClusterPart(dir);
                    Terraform.runOk(copy, "init", "-backend=false", "-input=false", "-no-color");
                    String tfvars = "-var-file=" + dir.resolve("terraform.tfvars.example");
                    Terraform.Result refused = Terraform.run(copy, "plan", "-input=false", "-no-color",
                            "-refresh=false", tfvars, TWO_CLUSTERS);
                    String words = refused.flat();
                    assertTrue(words.contains("require a path token (caller_credentials) that path_tokens does not "
                            + "give them, so the cluster's every call would be refused: cluster east: "
                            + "always-pull-images, require-labels; cluster west: always-pull-images, require-labels"),
                            refused.output());
                    Terraform.Result plan = Terraform.runOk(copy, "plan", "-input=false", "-no-color", "-refresh=false",
                            tfvars, "-var=path_tokens=" + EXAMPLE_PATH_TOKENS, TWO_CLUSTERS);
                    assertTrue(plan.output().contains("Changes to Outputs"), plan.output());
                    // timeoutSeconds 10 declared, the example's budget (cold 4, evaluation 1, network 1): Knative 9 s,
                    // deadline 5000 ms, in the Services Terraform renders (no kn command to run by hand).
                    String flat = plan.flat();
                    assertTrue(flat.contains("name = \"TOLLGATE_DEADLINE_TIMEOUT\" + value = \"5000ms\""), plan.output());
                    assertTrue(flat.contains("timeoutSeconds = 9"), plan.output());
                    assertFalse(plan.output().contains("kn service update"), plan.output());
                    // Each cluster's tokens in a file of its own, which the runtime maps to the cluster.
                    assertTrue(flat.contains("name = \"TOLLGATE_AUTH_CLUSTERS_DIR\" + value = "
                            + "\"/var/run/tollgate/callers\""), plan.output());
                    assertTrue(flat.contains("secretName = \"tollgate-callers-require-labels\""), plan.output());
                    assertFalse(flat.contains("TOLLGATE_AUTH_PATH_TOKEN_FILES"), plan.output());
                    assertFalse(plan.output().contains("east-rl-0123456789ab"), plan.output());
                    assertFalse(flat.contains("TOLLGATE_ENFORCEMENT_"), plan.output());
                    // The callers' file names on each template: adding a cluster rolls a revision, which lists them.
                    assertEquals(2, count(flat, "\"tollgate.dev/callers\" = \"east.path-tokens,west.path-tokens\""),
                            plan.output());
                    // Enforcement modes: into each Service's environment, where the runtime reads them.
                    Terraform.Result modes = Terraform.runOk(copy, "plan", "-input=false", "-no-color",
                            "-refresh=false", tfvars, "-var=path_tokens=" + EXAMPLE_PATH_TOKENS, TWO_CLUSTERS,
                            "-var=enforcement={functions={always-pull-images=\"audit\"},clusters={west=\"warn\"}}");
                    String withModes = modes.flat();
                    assertTrue(withModes.contains("name = \"TOLLGATE_ENFORCEMENT_MODE\" + value = \"audit\""),
                            modes.output());
                    assertEquals(2, count(withModes, "name = \"TOLLGATE_ENFORCEMENT_CLUSTER_MODES\" + value = "
                            + "\"west=warn\""), modes.output());
                    assertEquals(1, count(withModes, "TOLLGATE_ENFORCEMENT_MODE\""), modes.output());
                    // The exceptions file, for the functions to apply what the API server cannot: mounted in every
                    // Service, whose template changes (a new revision) when the file does.
                    assertFalse(flat.contains("TOLLGATE_EXCEPTIONS_FILE"), plan.output());
                    Terraform.Result excepted = Terraform.runOk(copy, "plan", "-input=false", "-no-color",
                            "-refresh=false", tfvars, "-var=path_tokens=" + EXAMPLE_PATH_TOKENS, TWO_CLUSTERS,
                            "-var=exceptions_file=" + dir.resolve("exceptions.example.yaml"));
                    String withExceptions = excepted.flat();
                    assertEquals(2, count(withExceptions, "name = \"TOLLGATE_EXCEPTIONS_FILE\" + value = "
                            + "\"/etc/tollgate/exceptions/exceptions.yaml\""), excepted.output());
                    assertEquals(2, count(withExceptions, "mountPath = \"/etc/tollgate/exceptions\" + name = "
                            + "\"tollgate-exceptions\""), excepted.output());
                    assertEquals(2, count(withExceptions, "configMap = { + name = \"tollgate-exceptions\" }"),
                            excepted.output());
                    assertEquals(2, count(withExceptions, "\"tollgate.dev/exceptions-sha256\" = "), excepted.output());
                    // A function registered from the policies it serves: tollgate registration's JSON, per cluster.
                    Path policy = Files.writeString(copy.resolve("constraint.yaml"), """
                            apiVersion: constraints.gatekeeper.sh/v1beta1
                            kind: K8sRequiredLabels
                            metadata: {name: pods-need-owner}
                            spec: {match: {kinds: [{apiGroups: [""], kinds: [Pod]}]}}
                            """);
                    Path registration = Files.writeString(copy.resolve("registration.json"),
                            dev.tollgate.simulator.ServedPolicies.registration(List.of(policy),
                                    dev.tollgate.simulator.ServedPolicies.GATEKEEPER_OPERATIONS, "ValidateTest")
                                    .toString());
                    Terraform.Result derived = Terraform.runOk(copy, "plan", "-input=false", "-no-color",
                            "-refresh=false", tfvars, "-var=path_tokens=" + EXAMPLE_PATH_TOKENS, TWO_CLUSTERS,
                            "-var=policy_rules_files={\"require-labels\"=\"" + registration + "\"}");
                    assertEquals(2, count(derived.flat(), "policies = [ + \"K8sRequiredLabels/pods-need-owner\", ]"),
                            derived.output());
                }));
    }

    /**
     * The Lambda example's terraform.tfvars.example plans with throwaway AWS credentials (the aws provider told not to
     * check them, so no account is called): refused without tokens, naming each cluster and its functions, and a
     * token given to two clusters; with one token per cluster and function, both functions get
     * TOLLGATE_AUTH_CLUSTERS_JSON and no token shows in the plan's text.
     */
    @org.junit.jupiter.api.Test
    void lambdaExamplePlansTwoClustersWithThrowawayCredentials() throws IOException {
        Path dir = Terraform.workTree().resolve("examples").resolve("lambda-external-cluster");
        Path copy = withoutClusterPart(dir);
        Skip.unless(Terraform.providerAvailable("hashicorp/aws"), "ValidateTest.lambdaExamplePlansTwoClustersWith"
                + "ThrowawayCredentials", () -> "hashicorp/aws cannot be installed here");
        // Merged into the example's provider block (Terraform's *_override.tf): no credentials, no AWS call.
        Files.writeString(copy.resolve("throwaway_credentials_override.tf"), """
                provider "aws" {
                  access_key                  = "throwaway"
                  secret_key                  = "throwaway"
                  skip_credentials_validation = true
                  skip_requesting_account_id  = true
                  skip_metadata_api_check     = true
                }
                """);
        Terraform.runOk(copy, "init", "-backend=false", "-input=false", "-no-color");
        String zip = Terraform.workTree().resolve("modules/aws-lambda-functions/tests/fixtures/function.zip").toString();
        String[] base = { "plan", "-input=false", "-no-color", "-refresh=false",
                "-var-file=" + dir.resolve("terraform.tfvars.example"),
                "-var=functions={require-labels={package_file=\"" + zip + "\"},always-pull-images={package_file=\""
                        + zip + "\"}}" };
        Terraform.Result refused = Terraform.run(copy, base);
        assertFalse(refused.ok(), refused.output());
        assertTrue(refused.flat().contains("Every cluster calls every function with a token of its own, but these "
                + "have none (path_tokens or bearer_tokens): cluster east: always-pull-images, require-labels; "
                + "cluster west: always-pull-images, require-labels."), refused.output());

        String shared = EXAMPLE_PATH_TOKENS.replace("west-rl-0123456789ab", "east-rl-0123456789ab");
        Terraform.Result sharing = Terraform.run(copy, concat(base, "-var=path_tokens=" + shared));
        assertFalse(sharing.ok(), sharing.output());
        assertTrue(sharing.flat().contains("but these clusters share one: east and west (path token)"),
                sharing.output());
        assertFalse(sharing.output().contains("east-rl-0123456789ab"), sharing.output());

        Terraform.Result plan = Terraform.runOk(copy, concat(base, "-var=path_tokens=" + EXAMPLE_PATH_TOKENS));
        String flat = plan.flat();
        assertEquals(2, count(flat, "+ \"TOLLGATE_AUTH_CLUSTERS_JSON\" = (sensitive value)"), plan.output());
        assertFalse(flat.contains("TOLLGATE_AUTH_PATH_TOKEN_VALUES"), plan.output());
        for (String token : new String[] { "east-rl-0123456789ab", "west-rl-0123456789ab", "east-api-0123456789ab",
                "west-api-0123456789ab" }) {
            assertFalse(plan.output().contains(token), plan.output());
        }
        assertTrue(flat.contains("+ exceptions_applied_by_function = { + east = {} + west = {} }"), plan.output());
    }

    private static String[] concat(String[] args, String more) {
        String[] all = java.util.Arrays.copyOf(args, args.length + 1);
        all[args.length] = more;
        return all;
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    /**
     * The root README's register block, as a user runs it after copying terraform.tfvars.example: the tokens its
     * {@code export TF_VAR_path_tokens=...} command computes from the catalog plan with the example unedited (a
     * cluster of the example without tokens, or tokens for a cluster it does not declare, refuse the plan), and every
     * cluster the README's blocks name ({@code jq -r .<cluster>}, {@code --context <cluster>}) has those tokens.
     */
    @Test
    void readmeRegisterBlockPlansWithTheExampleAsCopied() throws IOException, InterruptedException {
        Path root = ProjectRoot.get();
        String readme = Files.readString(root.resolve("README.md"));
        String register = block(readme, "<!-- walkthrough: register -->");
        String export = continued(register, "export TF_VAR_path_tokens=");
        // Where the README's setup block left the kept token, beside the checkout's terraform/.
        Path session = Terraform.scratchDir("readme-register");
        Files.createSymbolicLink(session.resolve("terraform"), root.resolve("terraform"));
        Files.writeString(session.resolve("tollgate-path-token"), "0123456789abcdef0123456789abcdef0123456789abcdef\n");
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", export + "\nprintf %s \"$TF_VAR_path_tokens\"")
                .directory(session.toFile()).redirectErrorStream(true);
        Process p = pb.start();
        String tokens = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), export + "\n" + tokens);
        Set<String> clusters = new java.util.TreeSet<>();
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(tokens).fieldNames().forEachRemaining(clusters::add);
        assertFalse(clusters.isEmpty(), tokens);
        String named = register + block(readme, "<!-- walkthrough: check -->");
        java.util.regex.Matcher used = java.util.regex.Pattern.compile("(?:jq -r \\.|--context )([a-z0-9-]+)")
                .matcher(named);
        while (used.find()) {
            assertTrue(clusters.contains(used.group(1)), "README.md's blocks name cluster " + used.group(1)
                    + ", which its TF_VAR_path_tokens (" + clusters + ") does not hold");
        }

        Path dir = Terraform.folders("examples").stream()
                .filter(d -> d.getFileName().toString().equals("knative-external-cluster")).findFirst().orElseThrow();
        Path copy = withoutClusterPart(dir);
        Terraform.runOk(copy, "init", "-backend=false", "-input=false", "-no-color");
        Terraform.Result plan = Terraform.run(copy, "plan", "-input=false", "-no-color", "-refresh=false",
                "-var-file=" + dir.resolve("terraform.tfvars.example"), "-var=path_tokens=" + tokens);
        assertEquals(0, plan.exit(), "README.md's register block with " + dir.getFileName()
                + "/terraform.tfvars.example as copied: " + plan.output());
    }

    /**
     * A cluster before 1.21 with the namespace exclusions on is refused naming the cluster and the setting a user of
     * cluster-registration has (namespace_exclusions), not webhook-configurations' variables.
     */
    @Test
    void aClusterBefore121IsRefusedNamingItAndNamespaceExclusions() {
        Path dir = Terraform.folders("examples").stream()
                .filter(d -> d.getFileName().toString().equals("knative-external-cluster")).findFirst().orElseThrow();
        Path copy = withoutClusterPart(dir);
        Terraform.runOk(copy, "init", "-backend=false", "-input=false", "-no-color");
        Terraform.Result refused = Terraform.run(copy, "plan", "-input=false", "-no-color", "-refresh=false",
                "-var-file=" + dir.resolve("terraform.tfvars.example"), "-var=path_tokens=" + EXAMPLE_PATH_TOKENS,
                TWO_CLUSTERS.replace("\"1.29\"", "\"1.20\""));
        assertFalse(refused.ok(), refused.output());
        assertTrue(refused.flat().contains("cluster west: Kubernetes 1.20 does not put the kubernetes.io/metadata.name "
                + "label on namespaces (it does from 1.21), so the namespace exclusions would exclude nothing: set "
                + "namespace_exclusions = false in that cluster's entry of clusters"), refused.output());
        assertFalse(refused.output().contains("excluded_namespaces"), refused.output());
    }

    /** The fenced block after a README marker line. */
    private static String block(String readme, String marker) {
        int at = readme.indexOf(marker);
        assertTrue(at >= 0, "README.md has no " + marker);
        int open = readme.indexOf("```bash\n", at) + "```bash\n".length();
        return readme.substring(open, readme.indexOf("\n```", open));
    }

    /** A command of a block from its first line through its backslash-continued lines. */
    private static String continued(String block, String start) {
        int at = block.indexOf(start);
        assertTrue(at >= 0, "no " + start + " in " + block);
        StringBuilder command = new StringBuilder();
        for (String line : block.substring(at).split("\n")) {
            command.append(line).append('\n');
            if (!line.endsWith("\\")) {
                break;
            }
        }
        return command.toString();
    }

    /** The example's cluster east with a second cluster, west, for the plans about several clusters. */
    static final String TWO_CLUSTERS = "-var=clusters={east={kubernetes_version=\"1.30\",server=\"https://east.k8s.example"
            + ".com:6443\",certificate_authority=null},west={kubernetes_version=\"1.29\",server=\"https://west.k8s.example"
            + ".com:6443\",certificate_authority=null}}";

    /** What TF_VAR_path_tokens holds for the example's clusters and functions (throwaway values). */
    static final String EXAMPLE_PATH_TOKENS = "{east={require-labels=\"east-rl-0123456789ab\",always-pull-images="
            + "\"east-api-0123456789ab\"},west={require-labels=\"west-rl-0123456789ab\",always-pull-images="
            + "\"west-api-0123456789ab\"}}";

    private static void initAndValidate(Path dir) {
        Terraform.runOk(dir, "init", "-backend=false", "-input=false", "-no-color");
        Terraform.Result r = Terraform.runOk(dir, "validate", "-no-color");
        assertTrue(r.output().contains("The configuration is valid"), r.output());
    }

    private static Set<String> missingProviders(Path dir) {
        Set<String> required = Terraform.requiredProviders(dir);
        required.removeIf(Terraform::providerAvailable);
        return required;
    }

    /** A copy of an example without cluster.tf, its module sources pointed back at the work tree's modules. */
    static Path withoutClusterPart(Path example) {
        Path copy = Terraform.target().resolve("terraform-work").resolve("partial-" + example.getFileName());
        try {
            Files.createDirectories(copy);
            try (Stream<Path> files = Files.list(example)) {
                for (Path f : files.filter(f -> f.toString().endsWith(".tf")).toList()) {
                    if (f.getFileName().toString().equals("cluster.tf")) {
                        continue;
                    }
                    // Relative paths: a module that calls another by "../" must stay in the same package, which an
                    // absolute source would make it.
                    String tree = copy.relativize(Terraform.workTree()).toString().replace('\\', '/');
                    String text = Files.readString(f)
                            .replace("\"../../modules/", "\"" + tree + "/modules/")
                            .replace("${path.module}/../../catalog/", Terraform.workTree().resolve("catalog") + "/")
                            .replace("${path.module}/../../../knative", ProjectRoot.get().resolve("knative").toString())
                            .replace("${path.module}/../../..", Terraform.workTree().getParent().toString());
                    Files.writeString(copy.resolve(f.getFileName()), text);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return copy;
    }

    private static String name(Path dir) {
        return dir.getParent().getFileName() + "/" + dir.getFileName();
    }
}
