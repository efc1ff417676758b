package dev.tollgate.simulator.cli;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

import dev.tollgate.admission.Operation;
import dev.tollgate.admission.registration.Registrations;
import dev.tollgate.admission.registration.WebhookRegistration;
import dev.tollgate.simulator.BundleCatalog;
import dev.tollgate.simulator.Configurations;
import dev.tollgate.simulator.HttpWebhookClient;
import dev.tollgate.simulator.SecretUrls;
import dev.tollgate.simulator.ServedPolicies;
import dev.tollgate.simulator.InputException;
import dev.tollgate.simulator.InputManifest;
import dev.tollgate.simulator.KindCheck;
import dev.tollgate.simulator.ManifestReport;
import dev.tollgate.simulator.MatchConditionsSupport;
import dev.tollgate.simulator.Reports;
import dev.tollgate.simulator.ReviewSettings;
import dev.tollgate.simulator.Simulator;
import io.quarkus.runtime.annotations.RegisterForReflection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tollgate review}: what the API server's dynamic admission would do to these manifests. */
@Command(name = "review", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Runs manifests through the admission webhooks as the API server would: matching, the mutating chain "
                    + "with reinvocation, the validating webhooks, failurePolicy, timeouts and response checks.",
            "With no --config or --url, the bundled functions are served in-process and the configurations are "
                    + "rendered from their webhook.yaml.",
            "Exit status: 0 when every manifest is allowed, 1 when any is denied, 2 for bad input." },
        exitCodeOnInvalidInput = 2, exitCodeOnExecutionException = 2)
@RegisterForReflection
public class ReviewCommand implements Callable<Integer>, LocalBundle {

    @Parameters(arity = "1..*", paramLabel = "MANIFEST",
            description = "YAML or JSON files, or folders of them (each document one object; Lists are expanded)")
    List<Path> manifests;

    @Option(names = { "-X", "--operation" }, defaultValue = "CREATE",
            description = "CREATE (default), UPDATE (with --old) or DELETE (the manifests are the objects deleted)")
    Operation operation;

    @Option(names = "--old", paramLabel = "FILE", description = "for UPDATE: the objects as stored now (matched by "
            + "kind, namespace and name)")
    List<Path> old = new ArrayList<>();

    @Option(names = "--namespaces", paramLabel = "FILE", description = "Namespace objects, for namespaceSelector "
            + "and namespaceObject (others are assumed to carry only the kubernetes.io/metadata.name label)")
    List<Path> namespaces = new ArrayList<>();

    @Option(names = "--kubeconfig", paramLabel = "FILE", description = "take namespaces (namespaceSelector, "
            + "namespaceObject) from this cluster, for the webhooks and the bundled CEL functions alike; --namespaces "
            + "and Namespaces among the manifests come first")
    Path kubeconfig;

    @Option(names = "--context", paramLabel = "NAME", description = "the kubeconfig context for --kubeconfig "
            + "(default: the current one)")
    String context;

    @Option(names = "--default-namespace", defaultValue = "default", paramLabel = "NS",
            description = "namespace of namespaced objects that name none (default: ${DEFAULT-VALUE})")
    String defaultNamespace;

    @Option(names = "--user", defaultValue = "kubernetes-admin", description = "userInfo.username "
            + "(default: ${DEFAULT-VALUE})")
    String user;

    @Option(names = "--group", paramLabel = "GROUP", description = "userInfo.groups, repeatable "
            + "(default: system:masters, system:authenticated)")
    List<String> groups = new ArrayList<>();

    @Option(names = "--dry-run", description = "send the requests as dry runs (webhooks with sideEffects other "
            + "than None/NoneOnDryRun reject them)")
    boolean dryRun;

    @Option(names = { "-f", "--config" }, paramLabel = "FILE", description = "Mutating/ValidatingWebhookConfiguration "
            + "YAML or JSON (e.g. the Terraform module's output); repeatable")
    List<Path> configs = new ArrayList<>();

    @Option(names = "--url", paramLabel = "[FUNCTION=]URL", description = "render the bundled catalog (or the "
            + "--webhook files) against remote functions: a base URL serving every function (an all-in-one bundle, "
            + "or the one function of --webhook), or FUNCTION=URL per function; repeatable")
    List<String> urls = new ArrayList<>();

    @Option(names = "--webhook", paramLabel = "FILE", description = "a function's webhook.yaml "
            + "(functions/<name>/webhook.yaml, bundled or not, e.g. one just generated): its webhooks are rendered "
            + "against --url instead of the bundled catalog; repeatable")
    List<Path> webhooks = new ArrayList<>();

    @Option(names = "--ca-file", paramLabel = "PEM", description = "CA certificates to trust for HTTPS webhooks "
            + "(put in the rendered caBundle; also used for configurations without one)")
    Path caFile;

    @Option(names = "--exclude-namespaces", split = ",", paramLabel = "NS",
            description = "namespaces the rendered configurations exclude (default: ${DEFAULT-VALUE})",
            defaultValue = "kube-system,kube-node-lease,knative-serving,knative-eventing,kourier-system,"
                    + "knative-operator,tollgate")
    List<String> excluded;

    @Option(names = "--custom-kind", paramLabel = "KIND[.GROUP]", description = "a kind that is not built in (a "
            + "custom resource) that the manifests may use, e.g. Widget.example.com; repeatable. Kinds that rules of "
            + "the --config webhooks name are accepted too; any other unknown kind is bad input")
    List<String> customKinds = new ArrayList<>();

    @Option(names = { "-o", "--output" }, defaultValue = "text", description = "text (default) or json")
    String output;

    @Option(names = { "-v", "--verbose" }, description = "list every webhook in the text report, also those skipped "
            + "(by default a count of them)")
    boolean verbose;

    @Option(names = "--registration-from-policies", description = "register the in-process cel-policy and cel-mutate "
            + "for what their policies select (tollgate registration's rules and selectors, as Terraform registers "
            + "them with policy_rules) instead of their webhook.yaml; their policy files' Namespaces are known "
            + "namespaces")
    boolean registrationFromPolicies;

    private final Supplier<String> localBundleUrl;

    /** @param localBundleUrl the base URL of the bundle this process serves */
    public ReviewCommand(Supplier<String> localBundleUrl) {
        this.localBundleUrl = localBundleUrl;
    }

    /** The namespaces of the --kubeconfig cluster (after those given in files: the first of a name counts). */
    private List<InputManifest> clusterNamespaces() {
        try (dev.tollgate.simulator.audit.Cluster cluster = dev.tollgate.simulator.audit.Cluster.connect(kubeconfig,
                context)) {
            return cluster.listAll(new dev.tollgate.simulator.audit.ServedResource("", "v1", "namespaces",
                    "Namespace", false, List.of("list")), 500).stream().map(ns -> new InputManifest("cluster", ns))
                    .toList();
        }
    }

    @Override
    public boolean needsLocalBundle() {
        return configs.isEmpty() && urls.isEmpty() && webhooks.isEmpty();
    }

    @Override
    public Integer call() {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try {
            if (!output.equals("text") && !output.equals("json")) {
                throw new InputException("--output must be text or json, got '" + output + "'");
            }
            String caPem = caFile == null ? "" : Configurations.readPem(caFile);
            Configurations configurations = configurations(configs, webhooks, urls, caPem, excluded,
                    localBundleUrl, registrationFromPolicies ? servedPolicies() : Map.of());
            List<String> problems = new ArrayList<>();
            List<InputManifest> inputs = InputManifest.read(manifests, problems);
            problems.addAll(new KindCheck(customKinds, configs.isEmpty() ? List.of() : configurations.objects())
                    .problems(inputs));
            if (!problems.isEmpty()) {
                throw InputException.of("bad input", problems);
            }
            if (inputs.isEmpty()) {
                throw new InputException("no manifests found in " + manifests);
            }
            // As with kubectl apply on a folder, Namespaces among the manifests exist for the objects after them.
            List<InputManifest> knownNamespaces = new ArrayList<>(InputManifest.read(namespaces));
            inputs.stream().filter(m -> m.kind().equals("Namespace") && m.apiVersion().equals("v1"))
                    .forEach(knownNamespaces::add);
            if (kubeconfig != null) {
                knownNamespaces.addAll(clusterNamespaces());
            } else if (context != null) {
                throw new InputException("--context needs --kubeconfig");
            }
            if (registrationFromPolicies && needsLocalBundle()) {
                // The in-process CEL functions know the Namespaces of their policy files; the API server played here
                // selects their webhooks (registered from those policies) with the same labels.
                ServedPolicies.namespaces(servedPolicies()).forEach(ns -> knownNamespaces.add(
                        new InputManifest("policy configuration", ns)));
            }
            ReviewSettings settings = new ReviewSettings(operation, InputManifest.read(old), knownNamespaces, user,
                    groups.isEmpty() ? List.of("system:masters", "system:authenticated") : groups, dryRun,
                    defaultNamespace);
            MatchConditionsSupport conditions = new MatchConditionsSupport(dev.tollgate.cel.KubeCel.standard());
            conditions.compileAll(configurations);
            List<ManifestReport> reports = new ArrayList<>();
            try (Simulator simulator = new Simulator(configurations, new HttpWebhookClient(caPem),
                    conditions)) {
                for (InputManifest m : inputs) {
                    reports.add(simulator.review(m, settings));
                }
            }
            out.print(output.equals("json") ? Reports.json(reports) : Reports.text(reports, verbose));
            return reports.stream().allMatch(ManifestReport::allowed) ? 0 : 1;
        } catch (InputException | dev.tollgate.simulator.audit.ClusterException e) {
            System.err.println("tollgate review: " + SecretUrls.redactIn(e.getMessage()));
            return 2;
        }
    }

    /** The admission entries of the given webhook.yaml files, each of the function its folder names (also replay's). */
    static List<WebhookRegistration> catalog(List<Path> webhooks) {
        List<WebhookRegistration> out = new ArrayList<>();
        for (Path file : webhooks) {
            if (!java.nio.file.Files.isRegularFile(file)) {
                throw new InputException("--webhook " + file + ": no such file");
            }
            try {
                Registrations.load(file).stream().filter(r -> !r.conversion()).forEach(out::add);
            } catch (RuntimeException e) {
                throw new InputException("--webhook " + file + ": " + e.getMessage());
            }
        }
        if (out.isEmpty()) {
            throw new InputException("--webhook " + webhooks + ": no admission webhook entries (conversion entries "
                    + "belong to tollgate convert)");
        }
        return out;
    }

    /** The configuration paths of the bundled CEL functions this process serves (tollgate.cel-policy.config...). */
    static Map<String, List<Path>> servedPolicies() {
        Map<String, List<Path>> out = new LinkedHashMap<>();
        var config = org.eclipse.microprofile.config.ConfigProvider.getConfig();
        ServedPolicies.CONFIG_KEYS.forEach((function, key) -> config.getOptionalValue(key, String.class)
                .ifPresent(v -> out.put(function, java.util.Arrays.stream(v.split(",")).map(String::trim)
                        .filter(p -> !p.isEmpty()).map(Path::of).toList())));
        return out;
    }

    /**
     * The configurations to play: from {@code --config} files, rendered from the catalog for {@code --url}s, or (with
     * neither) rendered for the bundle this process serves, its functions as their webhook.yaml declares them except
     * those of {@code fromPolicies} (function: its policy files), registered from their policies. Shared with
     * {@code tollgate audit} and {@code replay}.
     */
    static Configurations configurations(List<Path> configs, List<Path> webhooks, List<String> urls, String caPem,
            List<String> excluded, Supplier<String> localBundleUrl, Map<String, List<Path>> fromPolicies) {
        List<Configurations> parts = new ArrayList<>();
        if (!configs.isEmpty()) {
            parts.add(Configurations.read(configs));
        }
        if (!webhooks.isEmpty() && urls.isEmpty()) {
            throw new InputException("--webhook needs --url: where its function is served (only the bundled "
                    + "functions are served in-process), e.g. --url http://127.0.0.1:8080");
        }
        List<WebhookRegistration> catalog = webhooks.isEmpty() ? BundleCatalog.registrations() : catalog(webhooks);
        if (!urls.isEmpty()) {
            String base = null;
            Map<String, String> byFunction = new LinkedHashMap<>();
            for (String u : urls) {
                int eq = u.indexOf('=');
                if (eq > 0 && !u.substring(0, eq).contains(":")) {
                    byFunction.put(u.substring(0, eq), u.substring(eq + 1));
                } else if (base == null) {
                    base = u;
                } else {
                    throw new InputException("--url: only one base URL for all functions, got " + base + " and " + u);
                }
            }
            List<String> unknown = byFunction.keySet().stream()
                    .filter(f -> catalog.stream().noneMatch(r -> r.function().equals(f))).toList();
            if (!unknown.isEmpty()) {
                throw new InputException(webhooks.isEmpty() ? "--url names functions that are not bundled: " + unknown
                        + "; give another function's webhook.yaml with --webhook"
                        : "--url names functions that no --webhook file declares: " + unknown + " (declared: "
                        + catalog.stream().map(WebhookRegistration::function).distinct().toList() + ")");
            }
            String fallback = base;
            List<String> missing = catalog.stream().map(WebhookRegistration::function).distinct()
                    .filter(f -> fallback == null && !byFunction.containsKey(f)).toList();
            if (!missing.isEmpty()) {
                System.err.println("tollgate review: note: no --url for " + missing + "; their webhooks are left out");
            }
            parts.add(Configurations.render(catalog, f -> byFunction.getOrDefault(f, fallback), caPem, excluded));
        }
        if (parts.isEmpty()) {
            // Nothing given: the bundle is served by this very process, on a loopback port; the CEL functions asked
            // for are registered for what the policies they serve select (as Terraform does with policy_rules).
            String local = localBundleUrl.get();
            parts.add(Configurations.render(ServedPolicies.apply(catalog, fromPolicies), f -> local, "", excluded));
        }
        List<com.fasterxml.jackson.databind.node.ObjectNode> all = new ArrayList<>();
        java.util.Set<String> names = new java.util.HashSet<>();
        for (Configurations c : parts) {
            for (var o : c.objects()) {
                String id = o.path("kind").asText() + "/" + o.path("metadata").path("name").asText();
                if (!names.add(id)) {
                    throw new InputException(id + " is given twice (by --config and by the --url rendering)");
                }
                all.add(o);
            }
        }
        return new Configurations(all);
    }
}
