package dev.tollgate.simulator.policytest;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.admission.conversion.ConversionPolicy;
import dev.tollgate.admission.registration.WebhookRegistration;
import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.simulator.BundleCatalog;
import dev.tollgate.simulator.Configurations;
import dev.tollgate.simulator.Conversions;
import dev.tollgate.simulator.HttpWebhookClient;
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
 * Runs test files: each case through the simulator as {@code tollgate review} runs a manifest (the bundled
 * functions' webhook configurations rendered as Terraform renders them, the whole admission chain) or, for a
 * conversion case, as {@code tollgate convert} converts a custom resource; then its expectations are checked.
 * Every CEL policy the run uses is type checked first ({@link TypeCheck}).
 */
public final class TestRunner {

    /**
     * Where the functions are.
     *
     * @param url          a base URL serving every function (an all-in-one bundle), or null for this process's
     * @param caPem        PEM text to trust for an HTTPS {@code url}, or empty
     * @param localBundle  the base URL of the bundle this process serves (asked only when a case calls it)
     * @param conversions  the conversion policies bundled with this process, by function name
     * @param shippedCel   per CEL function, the configuration the bundle serves (for type checking), when in-process
     */
    public record Target(String url, String caPem, Supplier<String> localBundle,
            Supplier<Map<String, ConversionPolicy>> conversions, Map<String, List<Path>> shippedCel) {
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

    public TestRunner(Target target) {
        this.target = target;
    }

    /**
     * Reads every file (all of them before running any: bad input is found first), type checks the policies, then
     * runs the cases.
     *
     * @throws InputException for a file, a case or a policy configuration that is wrong
     */
    public Run run(List<Path> files) {
        List<Plan> plans = new ArrayList<>();
        for (Path f : files) {
            plans.add(plan(TestFile.read(f)));
        }
        TypeCheck typeCheck = new TypeCheck();
        for (Plan p : plans) {
            typeCheck.check(celPolicies(p.test()), schemas(p.test()));
        }
        List<FileRun> runs = new ArrayList<>();
        for (Plan p : plans) {
            runs.add(run(p));
        }
        return new Run(runs, typeCheck.findings().stream().map(f -> new TypeCheckLine(
                f.severity() == dev.tollgate.cel.admission.PolicyTypeChecker.Severity.ERROR, TypeCheck.line(f)))
                .toList());
    }

    /**
     * A file ready to run: its functions known, its objects' kinds served, its own CEL policies loaded (with the
     * notes about them), the namespaces gathered.
     */
    private record Plan(TestFile test, List<InputManifest> namespaces, PolicyOverrides overrides,
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
            docs.addAll(PolicyOverrides.documents(t.path() + ": policies." + fn, paths));
        }
        return docs;
    }

    private static List<ConfigFiles.Document> schemas(TestFile t) {
        return PolicyOverrides.documents(t.path() + ": schemas", t.schemas());
    }

    /** Everything about a file that can be wrong, found before any case runs. */
    private Plan plan(TestFile t) {
        List<String> notes = new ArrayList<>();
        List<String> bundled = new ArrayList<>(BundleCatalog.registrations().stream()
                .map(WebhookRegistration::function).distinct().toList());
        BundleCatalog.conversions().stream().map(WebhookRegistration::function).forEach(bundled::add);
        for (String fn : t.functions()) {
            if (!bundled.contains(fn)) {
                throw new InputException(t.path() + ": functions: " + fn + " is not a bundled function (bundled: "
                        + String.join(", ", bundled) + ")");
            }
        }
        List<String> declaredKinds = schemas(t).stream()
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
        PolicyOverrides overrides = null;
        if (target.url() == null && !t.policies().isEmpty()) {
            for (List<Path> paths : t.policies().values()) {
                for (ConfigFiles.Document d : PolicyOverrides.documents(t.path() + ": policies", paths)) {
                    if (d.kind().equals("Namespace") && d.apiVersion().equals("v1")
                            && namespaces.stream().noneMatch(n -> n.name().equals(d.name()))) {
                        namespaces.add(new InputManifest(d.source(), d.object()));
                    }
                }
            }
            List<String> compileErrors = new ArrayList<>();
            overrides = PolicyOverrides.of(t.path(), t.policies(), new HttpWebhookClient(target.caPem()),
                    compileErrors);
            compileErrors.forEach(e -> notes.add("compilation error (the policy applies its failurePolicy): " + e));
        }
        return new Plan(t, namespaces, overrides, notes);
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

    private Simulator simulator(TestFile t, PolicyOverrides overrides) {
        List<WebhookRegistration> catalog = BundleCatalog.registrations().stream()
                .filter(r -> t.functions().isEmpty() || t.functions().contains(r.function())).toList();
        // In-process, the bundle served on loopback is needed only for functions without the file's own policies
        // (PolicyOverrides answers the others by their path, never calling the base URL).
        boolean allOverridden = overrides != null
                && catalog.stream().allMatch(r -> overrides.answers(r.function()));
        String base = target.url() != null ? target.url()
                : allOverridden ? "http://127.0.0.1" : target.localBundle().get();
        Configurations configurations = Configurations.render(catalog, f -> base,
                target.url() != null ? target.caPem() : "", Configurations.DEFAULT_EXCLUDED_NAMESPACES);
        WebhookClient client = overrides != null ? overrides : new HttpWebhookClient(target.caPem());
        MatchConditionsSupport conditions = new MatchConditionsSupport(KubeCel.standard());
        conditions.compileAll(configurations);
        return new Simulator(configurations, client, conditions);
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
            WebhookRegistration entry = BundleCatalog.conversions().stream()
                    .filter(r -> t.functions().isEmpty() || t.functions().contains(r.function())).findFirst()
                    .orElseThrow(() -> new InputException(t.path() + ": functions: no conversion function"));
            String ca = target.caPem().isEmpty() ? "" : Base64.getEncoder().encodeToString(
                    target.caPem().getBytes(StandardCharsets.UTF_8));
            return Conversions.remote(target.url() + entry.path(), ca, 30, new HttpWebhookClient(""));
        }
        List<Map.Entry<String, ConversionPolicy>> policies = target.conversions().get().entrySet().stream()
                .filter(p -> t.functions().isEmpty() || t.functions().contains(p.getKey())).toList();
        if (policies.size() != 1) {
            throw new InputException(t.path() + ": functions: " + (policies.isEmpty() ? "no bundled conversion "
                    + "function is selected" : "several conversion functions: name one in functions"));
        }
        return Conversions.inProcess(policies.get(0).getKey(), policies.get(0).getValue());
    }
}
