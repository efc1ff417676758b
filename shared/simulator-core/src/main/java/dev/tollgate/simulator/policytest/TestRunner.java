package dev.tollgate.simulator.policytest;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionPolicy;
import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.admission.conversion.ConversionPolicy;
import dev.tollgate.admission.registration.Registrations;
import dev.tollgate.admission.registration.WebhookRegistration;
import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.simulator.BundleCatalog;
import dev.tollgate.simulator.Configurations;
import dev.tollgate.simulator.Conversions;
import dev.tollgate.simulator.HttpWebhookClient;
import dev.tollgate.simulator.InProcessFunctions;
import dev.tollgate.gatekeeper.gator.GatorRunner;
import dev.tollgate.gatekeeper.gator.GatorSuite;
import dev.tollgate.simulator.InputException;
import dev.tollgate.simulator.InputManifest;
import dev.tollgate.simulator.KindCheck;
import dev.tollgate.simulator.ManifestReport;
import dev.tollgate.simulator.MatchConditionsSupport;
import dev.tollgate.simulator.Reports;
import dev.tollgate.simulator.ReviewSettings;
import dev.tollgate.simulator.Simulator;
import dev.tollgate.simulator.WebhookClient;

/**
 * Runs test files: each case through the simulator as {@code tollgate review} runs a manifest (the functions'
 * webhook configurations rendered as Terraform renders them, the whole admission chain) or, for a conversion case,
 * as {@code tollgate convert} converts a custom resource; then its expectations are checked. The functions are the
 * {@link Target}'s: the CLI's bundle, a URL, or one function's policy in this process (a function's own build).
 * Every CEL policy the run uses is type checked first ({@link TypeCheck}).
 */
public final class TestRunner {

    /**
     * Where the functions are: a whole bundle (this process's, or one at a URL) or one function's policy, in this
     * process. Make one with {@link #bundle}, {@link #url} or {@link #function}.
     *
     * @param url           a base URL serving every function (an all-in-one bundle), or null for this process's
     * @param caPem         PEM text to trust for an HTTPS {@code url}, or empty
     * @param registrations the webhook entries of the functions there, admission and conversion, by function
     * @param localBundle   the base URL of the bundle this process serves (asked only when a case calls a function
     *                      not answered in-process), or null when there is none
     * @param admission     admission policies answered in this process, by function name
     * @param conversions   the conversion policies in this process, by function name
     * @param shippedCel    per CEL function, the configuration the bundle serves (for type checking), when in-process
     * @param celFunctions  builds cel-policy and cel-mutate from a test file's {@code policies}, or null when this
     *                      target has no CEL functions
     * @param webhookYaml   the webhook.yaml of the one function under test, or null for a bundle
     */
    public record Target(String url, String caPem, List<WebhookRegistration> registrations,
            Supplier<String> localBundle, Map<String, AdmissionPolicy> admission,
            Supplier<Map<String, ConversionPolicy>> conversions, Map<String, List<Path>> shippedCel,
            CelFunctions celFunctions, Path webhookYaml) {

        /**
         * The functions bundled with this process ({@link BundleCatalog}), served on loopback; cel-policy and
         * cel-mutate built from a test file's own policies by {@code celFunctions}.
         */
        public static Target bundle(Supplier<String> localBundle, Supplier<Map<String, ConversionPolicy>> conversions,
                Map<String, List<Path>> shippedCel, CelFunctions celFunctions) {
            return new Target(null, "", catalog(), localBundle, Map.of(), conversions, shippedCel, celFunctions,
                    null);
        }

        /** The bundled functions as served at a base URL (an all-in-one bundle; a path token goes in the URL). */
        public static Target url(String url, String caPem) {
            return new Target(url, caPem, catalog(), null, Map.of(), Map::of, Map.of(), null, null);
        }

        /**
         * Functions of one's own, bundled or not, as served at a base URL: their webhook.yaml files say what is
         * registered (each function the folder's name, as {@code tollgate review --webhook}), admission and conversion
         * entries alike.
         *
         * @throws InputException for a webhook.yaml that cannot be read or declares no entry
         */
        public static Target url(String url, String caPem, List<Path> webhookYamls) {
            if (webhookYamls.isEmpty()) {
                return url(url, caPem);
            }
            List<WebhookRegistration> entries = new ArrayList<>();
            for (Path file : webhookYamls) {
                entries.addAll(registrations(file));
            }
            return new Target(url, caPem, List.copyOf(entries), null, Map.of(), Map::of, Map.of(), null,
                    webhookYamls.size() == 1 ? webhookYamls.get(0) : null);
        }

        /**
         * One admission function in this process, no HTTP server: its webhook.yaml rendered as Terraform renders
         * it (the function is the folder's name, as {@code tollgate review --webhook}), each call answered by
         * {@code policy} through the admission library's handler, the one the function runtime serves it with.
         *
         * @throws InputException for a webhook.yaml that cannot be read or declares no admission entry
         */
        public static Target function(AdmissionPolicy policy, Path webhookYaml) {
            List<WebhookRegistration> entries = registrations(webhookYaml, false);
            Map<String, AdmissionPolicy> byFunction = new LinkedHashMap<>();
            entries.forEach(r -> byFunction.put(served(r), policy));
            return new Target(null, "", entries, null, byFunction, Map::of, Map.of(), null, webhookYaml);
        }

        /** One conversion function in this process: its webhook.yaml's entry played by {@code policy}. */
        public static Target function(ConversionPolicy policy, Path webhookYaml) {
            List<WebhookRegistration> entries = registrations(webhookYaml, true);
            Map<String, ConversionPolicy> byFunction = Map.of(entries.get(0).function(), policy);
            return new Target(null, "", entries, null, Map.of(), () -> byFunction, Map.of(), null, webhookYaml);
        }

        private static List<WebhookRegistration> catalog() {
            List<WebhookRegistration> all = new ArrayList<>(BundleCatalog.registrations());
            all.addAll(BundleCatalog.conversions());
            return List.copyOf(all);
        }

        private static List<WebhookRegistration> registrations(Path webhookYaml) {
            if (!Files.isRegularFile(webhookYaml)) {
                throw new InputException(webhookYaml + ": no such file (the function's webhook.yaml)");
            }
            List<WebhookRegistration> entries;
            try {
                entries = Registrations.load(webhookYaml);
            } catch (RuntimeException e) {
                throw new InputException(webhookYaml + ": " + e.getMessage());
            }
            if (entries.isEmpty()) {
                throw new InputException(webhookYaml + ": declares no webhook entry");
            }
            return entries;
        }

        private static List<WebhookRegistration> registrations(Path webhookYaml, boolean conversion) {
            List<WebhookRegistration> kept = registrations(webhookYaml).stream()
                    .filter(r -> r.conversion() == conversion).toList();
            if (kept.isEmpty()) {
                throw new InputException(webhookYaml + ": declares no " + (conversion ? "conversion" : "admission")
                        + " webhook entry for a " + (conversion ? "ConversionPolicy" : "ValidatingPolicy or "
                                + "MutatingPolicy"));
            }
            return kept;
        }

        /** The function name a rendered entry's URL carries: the first segment of its {@code path}. */
        static String served(WebhookRegistration r) {
            String path = r.path();
            return path.length() > 1 ? path.substring(1).split("/")[0] : r.function();
        }
    }

    /**
     * Builds cel-policy and cel-mutate from a test file's {@code policies}, as each function builds itself from its
     * configuration at startup (the CLI's, which bundles them).
     */
    @FunctionalInterface
    public interface CelFunctions {
        /**
         * @param policies per function, its configuration files and folders
         * @param problems where the functions' compile errors go (the policy stays in force, as in the function)
         * @return the policies, by function name
         * @throws InputException for a configuration the function would refuse to start with
         */
        Map<String, AdmissionPolicy> build(Path testFile, Map<String, List<Path>> policies, List<String> problems);
    }

    /** One file's outcome. */
    public record FileRun(Path file, List<CaseResult> cases, List<String> notes) {
    }

    /** The whole run: the files, the type checker's findings and the CEL compile errors the functions logged. */
    public record Run(List<FileRun> files, List<TypeCheckLine> typeCheck) {

        public long failed() {
            return files.stream().flatMap(f -> f.cases().stream()).filter(c -> !c.passed()).count();
        }

        public long cases() {
            return files.stream().mapToLong(f -> f.cases().size()).sum();
        }

        public boolean typeErrors() {
            return typeCheck.stream().anyMatch(TypeCheckLine::error);
        }

        /** Exit status 0: every expectation held and no policy has a type error. */
        public boolean passed() {
            return failed() == 0 && !typeErrors();
        }
    }

    /** One finding of the type checker, as printed. */
    public record TypeCheckLine(boolean error, String line) {
    }

    private final Target target;
    private final List<ConfigFiles.Document> clusterSchemas;

    public TestRunner(Target target) {
        this(target, List.of());
    }

    /**
     * @param clusterSchemas the CustomResourceDefinitions a cluster serves ({@code tollgate test --kubeconfig}):
     *                       schemas for type checking below the test files' (their {@code schemas} and the CRDs
     *                       among their policies) and above the built-in kinds'; their kinds may be the objects of
     *                       admission cases, as those of a CRD in {@code schemas}
     */
    public TestRunner(Target target, List<ConfigFiles.Document> clusterSchemas) {
        this.target = target;
        this.clusterSchemas = List.copyOf(clusterSchemas);
    }

    /**
     * Reads every file (all of them before running any: bad input is found first), type checks the policies, then
     * runs the cases.
     *
     * @throws InputException for a file, a case or a policy configuration that is wrong
     */
    public Run run(List<Path> files) {
        // Each file is a test file of Tollgate's or a gator suite (Gatekeeper's test.gatekeeper.sh Suite).
        List<Object> plans = new ArrayList<>();
        for (Path f : files) {
            plans.add(GatorRunner.isSuiteFile(f) ? suite(f) : plan(TestFile.read(f)));
        }
        TypeCheck typeCheck = new TypeCheck();
        for (Object p : plans) {
            if (p instanceof Plan plan) {
                typeCheck.check(celPolicies(plan.test()), schemas(plan.test()), clusterSchemas);
            }
        }
        List<FileRun> runs = new ArrayList<>();
        for (Object p : plans) {
            runs.add(p instanceof Plan plan ? run(plan) : run((GatorSuite) p));
        }
        return new Run(runs, typeCheck.findings().stream().map(f -> new TypeCheckLine(
                f.severity() == dev.tollgate.cel.admission.PolicyTypeChecker.Severity.ERROR, TypeCheck.line(f)))
                .toList());
    }

    /**
     * A file ready to run: its functions known, its objects' kinds served, its own CEL policies loaded (with the
     * notes about them), the namespaces gathered.
     */
    private record Plan(TestFile test, List<InputManifest> namespaces, Map<String, AdmissionPolicy> overrides,
            List<String> notes) {
    }

    /** The CEL policy documents the file's cases use: its own, else (in-process) the bundle's. */
    private List<ConfigFiles.Document> celPolicies(TestFile t) {
        List<ConfigFiles.Document> docs = new ArrayList<>();
        for (String fn : TestFile.CEL_FUNCTIONS) {
            if (!t.functions().isEmpty() && !t.functions().contains(fn)) {
                continue;
            }
            List<Path> paths = t.policies().containsKey(fn) ? t.policies().get(fn)
                    : target.url() == null ? target.shippedCel().getOrDefault(fn, List.of()) : List.of();
            docs.addAll(PolicyDocuments.read(t.path() + ": policies." + fn, paths));
        }
        return docs;
    }

    private static List<ConfigFiles.Document> schemas(TestFile t) {
        return PolicyDocuments.read(t.path() + ": schemas", t.schemas());
    }

    /** Everything about a file that can be wrong, found before any case runs. */
    private Plan plan(TestFile t) {
        List<String> notes = new ArrayList<>();
        List<String> bundled = target.registrations().stream().map(WebhookRegistration::function).distinct()
                .toList();
        for (String fn : t.functions()) {
            if (!bundled.contains(fn)) {
                String offered = String.join(", ", bundled);
                throw new InputException(t.path() + ": functions: " + fn + (target.webhookYaml() != null
                        ? " is not the function under test (" + target.webhookYaml() + ": " + offered + ")"
                        : target.registrations().equals(Target.catalog())
                                ? " is not a bundled function (bundled: " + offered + ")"
                                : " is not among the functions given (" + offered + ")"));
            }
        }
        if (!t.policies().isEmpty() && target.url() == null && target.celFunctions() == null) {
            throw new InputException(t.path() + ": policies: configures the bundled " + String.join(" and ",
                    t.policies().keySet()) + "; the function under test (" + target.webhookYaml()
                    + ") runs its own policy");
        }
        List<ConfigFiles.Document> crds = new ArrayList<>(schemas(t));
        crds.addAll(clusterSchemas);
        List<String> declaredKinds = crds.stream()
                .filter(d -> d.kind().equals("CustomResourceDefinition"))
                .map(d -> d.object().path("spec").path("names").path("kind").asText() + "."
                        + d.object().path("spec").path("group").asText()).toList();
        KindCheck kinds = new KindCheck(declaredKinds, List.of());
        for (TestFile.TestCase c : t.cases()) {
            List<String> problems = c.conversion() ? List.of() : kinds.problems(List.of(c.object()));
            if (!problems.isEmpty()) {
                String p = problems.get(0);
                p = p.substring(p.indexOf(": kind ") + 2);
                int hint = p.indexOf("; for a custom resource");
                throw new InputException(t.path() + ": case '" + c.name() + "': object: "
                        + (hint < 0 ? p : p.substring(0, hint)) + "; for a custom resource, give its CRD in schemas");
            }
        }
        if (t.cases().stream().anyMatch(TestFile.TestCase::conversion)) {
            conversionTarget(t); // the conversion function is there
        }
        List<InputManifest> namespaces = new ArrayList<>(InputManifest.read(t.namespaces()));
        if (!t.policies().isEmpty() && target.url() != null) {
            notes.add("policies: not loaded: the functions at --url serve their own configuration");
        }
        Map<String, AdmissionPolicy> overrides = new LinkedHashMap<>(target.admission());
        if (target.url() == null && !t.policies().isEmpty()) {
            for (List<Path> paths : t.policies().values()) {
                for (ConfigFiles.Document d : PolicyDocuments.read(t.path() + ": policies", paths)) {
                    if (d.kind().equals("Namespace") && d.apiVersion().equals("v1")
                            && namespaces.stream().noneMatch(n -> n.name().equals(d.name()))) {
                        namespaces.add(new InputManifest(d.source(), d.object()));
                    }
                }
            }
            List<String> compileErrors = new ArrayList<>();
            overrides.putAll(target.celFunctions().build(t.path(), t.policies(), compileErrors));
            compileErrors.forEach(e -> notes.add("compilation error (the policy applies its failurePolicy): " + e));
        }
        return new Plan(t, namespaces, overrides, notes);
    }

    private static GatorSuite suite(Path file) {
        try {
            return GatorSuite.read(file);
        } catch (IllegalArgumentException e) {
            throw new InputException(e.getMessage());
        }
    }

    /**
     * A gator suite, run as {@code gator verify} runs it (shared/gatekeeper GatorRunner: the template and constraint
     * evaluated directly, not through the webhooks); each case a result named {@code <test>/<case>}, its failed
     * assertion the mismatch, skipped cases left out.
     */
    private static FileRun run(GatorSuite suite) {
        List<CaseResult> results = new ArrayList<>();
        for (GatorRunner.CaseResult r : new GatorRunner(dev.tollgate.cel.KubeCel.standard()).run(suite)) {
            if (r.skipped()) {
                continue;
            }
            var report = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
            r.violations().forEach(report.putArray("violations")::add);
            results.add(new CaseResult(suite.file().toString(), r.test() + "/" + r.name(), r.error() == null
                    ? List.of() : List.of(new CaseResult.Mismatch("assertions", "as the suite states", r.error(),
                            List.of())), r.violations().size() + " violation" + (r.violations().size() == 1 ? "" : "s"),
                    r.millis(), report));
        }
        return new FileRun(suite.file(), List.copyOf(results), List.of());
    }

    private FileRun run(Plan plan) {
        TestFile t = plan.test();
        List<CaseResult> results = new ArrayList<>();
        boolean admission = t.cases().stream().anyMatch(c -> !c.conversion());
        Simulator simulator = admission ? simulator(t, plan.overrides()) : null;
        try {
            for (TestFile.TestCase c : t.cases()) {
                try {
                    results.add(c.conversion() ? convert(t, c) : review(t, c, simulator, plan.namespaces()));
                } catch (InputException e) {
                    throw new InputException(t.path() + ": case '" + c.name() + "': " + e.getMessage());
                }
            }
        } finally {
            if (simulator != null) {
                simulator.close();
            }
        }
        return new FileRun(t.path(), List.copyOf(results), plan.notes());
    }

    private Simulator simulator(TestFile t, Map<String, AdmissionPolicy> overrides) {
        List<WebhookRegistration> catalog = target.registrations().stream().filter(r -> !r.conversion())
                .filter(r -> t.functions().isEmpty() || t.functions().contains(r.function())).toList();
        // In-process, the bundle served on loopback is needed only for functions not answered in this process
        // (InProcessFunctions answers those by their path, never calling the base URL).
        InProcessFunctions inProcess = new InProcessFunctions(target.url() == null ? overrides : Map.of(),
                new HttpWebhookClient(target.caPem()));
        boolean allInProcess = catalog.stream().allMatch(r -> inProcess.answers(served(r)));
        String base = target.url() != null ? target.url()
                : allInProcess ? "http://127.0.0.1" : localBundle(t);
        Configurations configurations = Configurations.render(catalog, f -> base,
                target.url() != null ? target.caPem() : "", Configurations.DEFAULT_EXCLUDED_NAMESPACES);
        WebhookClient client = inProcess;
        MatchConditionsSupport conditions = new MatchConditionsSupport(KubeCel.standard());
        conditions.compileAll(configurations);
        return new Simulator(configurations, client, conditions);
    }

    private String localBundle(TestFile t) {
        if (target.localBundle() == null) {
            throw new InputException(t.path() + ": no function in this process answers every webhook of "
                    + target.registrations().stream().map(WebhookRegistration::function).distinct().toList());
        }
        return target.localBundle().get();
    }

    /** The function name a rendered entry's URL carries: the first segment of its {@code path}. */
    private static String served(WebhookRegistration r) {
        return Target.served(r);
    }

    private static CaseResult review(TestFile t, TestFile.TestCase c, Simulator simulator,
            List<InputManifest> namespaces) {
        ReviewSettings settings = new ReviewSettings(c.operation(),
                c.oldObject() == null ? List.of() : List.of(c.oldObject()), namespaces, c.user(), c.groups(), false,
                "default");
        long start = System.nanoTime();
        ManifestReport r = simulator.review(c.object(), settings);
        double millis = (System.nanoTime() - start) / 1e6;
        return new CaseResult(t.path().toString(), c.name(), Expectations.check(c.expect(), r),
                Expectations.outcome(r), millis, Reports.json(r));
    }

    private CaseResult convert(TestFile t, TestFile.TestCase c) {
        Conversions.Target via = conversionTarget(t);
        Map<String, Conversions.Outcome> outcomes = new LinkedHashMap<>();
        ObjectNode report = JsonNodeFactory.instance.objectNode();
        long start = System.nanoTime();
        for (String version : c.expect().converted().keySet()) {
            Conversions.Run run = Conversions.convert(List.of(c.object()), version, ReviewVersion.V1, via);
            Conversions.Outcome o = run.outcomes().get(0);
            outcomes.put(version, o);
            ObjectNode v = report.putObject(version);
            v.put("status", o.status());
            v.put("message", o.message() == null ? "" : o.message());
            v.set("object", o.converted());
        }
        double millis = (System.nanoTime() - start) / 1e6;
        List<String> failed = outcomes.entrySet().stream()
                .filter(e -> e.getValue().status().equals(Conversions.Outcome.FAILED)).map(Map.Entry::getKey).toList();
        String outcome = failed.isEmpty() ? "converted to " + String.join(", ", outcomes.keySet())
                : "failed to convert to " + String.join(", ", failed);
        return new CaseResult(t.path().toString(), c.name(), Expectations.check(c.expect(), outcomes), outcome,
                millis, report);
    }

    /** The bundled conversion policy in-process, or the conversion function's path under {@code --url}. */
    private Conversions.Target conversionTarget(TestFile t) {
        if (target.url() != null) {
            WebhookRegistration entry = target.registrations().stream().filter(WebhookRegistration::conversion)
                    .filter(r -> t.functions().isEmpty() || t.functions().contains(r.function())).findFirst()
                    .orElseThrow(() -> new InputException(t.path() + ": functions: no conversion function"));
            String ca = target.caPem().isEmpty() ? "" : Base64.getEncoder().encodeToString(
                    target.caPem().getBytes(StandardCharsets.UTF_8));
            return Conversions.remote(target.url() + entry.path(), ca, 30, new HttpWebhookClient(""));
        }
        List<Map.Entry<String, ConversionPolicy>> policies = target.conversions().get().entrySet().stream()
                .filter(p -> t.functions().isEmpty() || t.functions().contains(p.getKey())).toList();
        if (policies.size() != 1) {
            throw new InputException(t.path() + ": functions: " + (policies.isEmpty() ? (target.webhookYaml() == null
                    ? "no bundled conversion function is selected" : "the function under test ("
                            + target.webhookYaml() + ") is not a conversion function")
                    : "several conversion functions: name one in functions"));
        }
        return Conversions.inProcess(policies.get(0).getKey(), policies.get(0).getValue());
    }
}
