package dev.tollgate.simulator.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;

import org.eclipse.microprofile.config.ConfigProvider;

import dev.tollgate.admission.conversion.ConversionPolicy;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.runtime.PolicyDirectory;
import dev.tollgate.simulator.Configurations;
import dev.tollgate.simulator.InputException;
import dev.tollgate.simulator.SecretUrls;
import dev.tollgate.simulator.audit.Cluster;
import dev.tollgate.simulator.audit.ClusterException;
import dev.tollgate.simulator.audit.ServedResource;
import dev.tollgate.simulator.policytest.TestFile;
import dev.tollgate.simulator.policytest.TestOutput;
import dev.tollgate.simulator.policytest.TestRunner;
import io.quarkus.arc.Arc;
import io.quarkus.runtime.annotations.RegisterForReflection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tollgate test}: runs test files, each case's expected outcome checked against what admission does. */
@Command(name = "test", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Runs the cases of test files through the admission chain as tollgate review does (or through the CRD "
                    + "conversion as tollgate convert does) and checks each case's expectations: allowed or denied, "
                    + "status code, message, warnings, patch, the admitted or converted object (or a part of it), "
                    + "audit annotations. Every CEL policy the run uses is type checked first.",
            "With no --url, the bundled functions run in this process, cel-policy and cel-mutate with the policies "
                    + "each test file names.",
            "The schemas for type checking: the test files' schemas and the CRDs among their policies, then (with "
                    + "--kubeconfig) the CRDs the cluster serves, then the built-in kinds'.",
            "Exit status: 0 when every expectation holds, 1 when one does not (or a policy has an expression the "
                    + "API server would refuse), 2 for bad input or a --kubeconfig cluster that cannot be read." },
        exitCodeOnInvalidInput = 2, exitCodeOnExecutionException = 2)
@RegisterForReflection
public class TestCommand implements Callable<Integer>, LocalBundle {

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "test files (YAML)")
    List<Path> files;

    @Option(names = "--url", paramLabel = "URL", description = "a base URL serving every function (an all-in-one "
            + "bundle; a path token goes in the URL): the cases run against it instead of this process")
    String url;

    @Option(names = "--webhook", paramLabel = "FILE", description = "with --url: a function's webhook.yaml, bundled "
            + "or not (repeatable): the functions the cases may name are these, served at --url; each function is "
            + "its folder's name")
    List<Path> webhooks = new java.util.ArrayList<>();

    @Option(names = "--ca-file", paramLabel = "PEM", description = "CA certificates to trust for an HTTPS --url")
    Path caFile;

    @Option(names = "--kubeconfig", paramLabel = "FILE", description = "also type check against the "
            + "CustomResourceDefinitions this cluster serves (read-only: one list of customresourcedefinitions); the "
            + "test files' schemas and the CRDs among their policies win for their kinds")
    Path kubeconfig;

    @Option(names = "--context", paramLabel = "NAME", description = "the kubeconfig context for --kubeconfig "
            + "(default: the current one)")
    String context;

    @Option(names = { "-o", "--output" }, defaultValue = "text", description = "text (default: a table, then each "
            + "failure with expected vs actual) or json")
    String output;

    @Option(names = "--junit", paramLabel = "FILE", description = "also write the results as JUnit XML to FILE")
    Path junit;

    private final Supplier<String> localBundleUrl;
    private final Supplier<Map<String, ConversionPolicy>> conversions;
    private final Function<String, String> config;

    /** @param localBundleUrl the base URL of the bundle this process serves */
    public TestCommand(Supplier<String> localBundleUrl) {
        this(localBundleUrl, () -> Arc.container().instance(PolicyDirectory.class).get().conversions(),
                key -> ConfigProvider.getConfig().getOptionalValue(key, String.class).orElse(""));
    }

    /**
     * @param conversions the conversion policies bundled with this process, by function name
     * @param config      this process's configuration (the bundled CEL functions' {@code tollgate.cel-*.config})
     */
    public TestCommand(Supplier<String> localBundleUrl, Supplier<Map<String, ConversionPolicy>> conversions,
            Function<String, String> config) {
        this.localBundleUrl = localBundleUrl;
        this.conversions = conversions;
        this.config = config;
    }

    @Override
    public boolean needsLocalBundle() {
        return url == null;
    }

    @Override
    public Integer call() {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try {
            if (!output.equals("text") && !output.equals("json")) {
                throw new InputException("--output must be text or json, got '" + output + "'");
            }
            if (caFile != null && url == null) {
                throw new InputException("--ca-file goes with --url");
            }
            if (!webhooks.isEmpty() && url == null) {
                throw new InputException("--webhook needs --url: where its function is served (only the bundled "
                        + "functions run in-process), e.g. --url http://127.0.0.1:8080");
            }
            if (context != null && kubeconfig == null) {
                throw new InputException("--context needs --kubeconfig");
            }
            List<ConfigFiles.Document> clusterSchemas = kubeconfig == null ? List.of() : clusterCrds();
            String caPem = caFile == null ? "" : Configurations.readPem(caFile);
            String base = url == null ? null : url.replaceAll("/+$", "");
            TestRunner.Target target = base != null ? TestRunner.Target.url(base, caPem, webhooks)
                    : TestRunner.Target.bundle(localBundleUrl, conversions, shippedCelPolicies(), new PolicyOverrides());
            TestRunner.Run run = new TestRunner(target, clusterSchemas).run(files);
            out.print(output.equals("json") ? TestOutput.json(run) : TestOutput.text(run));
            if (output.equals("json")) {
                run.typeCheck().forEach(l -> System.err.println("tollgate test: type check: " + l.line()));
            }
            if (junit != null) {
                try {
                    Files.writeString(junit, TestOutput.junit(run));
                } catch (IOException e) {
                    throw new InputException("--junit " + junit + ": cannot write: " + e.getMessage());
                }
            }
            return run.passed() ? 0 : 1;
        } catch (InputException | ClusterException e) {
            System.err.println("tollgate test: " + SecretUrls.redactIn(e.getMessage().replaceAll("\\s*\\R\\s*", " ")));
            return 2;
        }
    }

    /**
     * The CustomResourceDefinitions the --kubeconfig cluster serves, for type checking (OpenApiSchemas takes every
     * served version's openAPIV3Schema). The failures are audit's and review's: one line naming the server.
     */
    private List<ConfigFiles.Document> clusterCrds() {
        try (Cluster cluster = Cluster.connect(kubeconfig, context)) {
            String source = "cluster " + cluster.host();
            return cluster.listAll(new ServedResource("apiextensions.k8s.io", "v1", "customresourcedefinitions",
                    "CustomResourceDefinition", false, List.of("list")), 500).stream()
                    .map(crd -> new ConfigFiles.Document(crd, source)).toList();
        }
    }

    /** The configuration the bundled cel-policy and cel-mutate serve (for type checking what the cases use). */
    private Map<String, List<Path>> shippedCelPolicies() {
        Map<String, List<Path>> out = new LinkedHashMap<>();
        if (url != null) {
            return out;
        }
        for (String fn : TestFile.CEL_FUNCTIONS) {
            out.put(fn, java.util.Arrays.stream(config.apply("tollgate." + fn + ".config").split(","))
                    .map(String::strip).filter(s -> !s.isEmpty()).map(Path::of).filter(Files::exists).toList());
        }
        return out;
    }
}
