package dev.tollgate.simulator.cli;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.Operation;
import dev.tollgate.simulator.Configurations;
import dev.tollgate.simulator.HttpWebhookClient;
import dev.tollgate.simulator.SecretUrls;
import dev.tollgate.simulator.InputException;
import dev.tollgate.simulator.InputManifest;
import dev.tollgate.simulator.MatchConditionsSupport;
import dev.tollgate.simulator.Simulator;
import dev.tollgate.simulator.WebhookClient;
import dev.tollgate.simulator.audit.AuditOutput;
import dev.tollgate.simulator.audit.AuditPlan;
import dev.tollgate.simulator.audit.AuditResults;
import dev.tollgate.simulator.audit.Auditor;
import dev.tollgate.simulator.audit.Cluster;
import dev.tollgate.simulator.audit.ClusterException;
import dev.tollgate.simulator.audit.Discovery;
import dev.tollgate.simulator.audit.PolicyReports;
import dev.tollgate.simulator.audit.Progress;
import dev.tollgate.simulator.audit.ServedResource;
import io.quarkus.runtime.annotations.RegisterForReflection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tollgate audit}: what the admission webhooks would say about everything already in a cluster. The same
 * dispatch chain as {@code tollgate review} ({@link Simulator}), fed page by page from the cluster's lists.
 */
@Command(name = "audit", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Runs every object of a cluster that the webhook configurations match through them, as the UPDATE its "
                    + "next change would be (--as-create: as if created again), and reports what would be denied, "
                    + "changed or warned about. Read-only: only --apply writes (PolicyReports).",
            "With no --config, --url or --cluster-webhooks, the bundled functions are served in-process and the "
                    + "configurations are rendered from their webhook.yaml, as for review.",
            "Exit status: 0 when nothing would be denied, 1 when something would, 2 for bad input or a cluster "
                    + "that cannot be read." },
        exitCodeOnInvalidInput = 2, exitCodeOnExecutionException = 2)
@RegisterForReflection
public class AuditCommand implements Callable<Integer>, LocalBundle {

    private static final ServedResource NAMESPACES = new ServedResource("", "v1", "namespaces", "Namespace", false,
            List.of("list"));
    private static final ServedResource MUTATING = new ServedResource("admissionregistration.k8s.io", "v1",
            "mutatingwebhookconfigurations", Configurations.MUTATING, false, List.of("list"));
    private static final ServedResource VALIDATING = new ServedResource("admissionregistration.k8s.io", "v1",
            "validatingwebhookconfigurations", Configurations.VALIDATING, false, List.of("list"));

    @Option(names = "--kubeconfig", paramLabel = "FILE", description = "kubeconfig (default: KUBECONFIG, "
            + "~/.kube/config, else the in-cluster service account)")
    Path kubeconfig;

    @Option(names = "--context", paramLabel = "NAME", description = "kubeconfig context (default: the current one)")
    String context;

    @Option(names = { "-n", "--namespace" }, split = ",", paramLabel = "NS", description = "only these namespaces "
            + "(repeatable; cluster-scoped kinds are then left out; default: all namespaces)")
    List<String> namespaces = new ArrayList<>();

    @Option(names = { "-l", "--selector" }, paramLabel = "SELECTOR", description = "label selector for the "
            + "objects listed (as kubectl -l)")
    String selector;

    @Option(names = "--as-create", description = "review each object as if it were created again (CREATE, no "
            + "oldObject) instead of as the UPDATE its next change would be")
    boolean asCreate;

    @Option(names = "--cluster-webhooks", description = "take the webhook configurations from the cluster "
            + "(webhooks reached through clientConfig.service are left out, with a note)")
    boolean clusterWebhooks;

    @Option(names = { "-f", "--config" }, paramLabel = "FILE", description = "Mutating/ValidatingWebhookConfiguration "
            + "YAML or JSON, as for review; repeatable")
    List<Path> configs = new ArrayList<>();

    @Option(names = "--url", paramLabel = "[FUNCTION=]URL", description = "render the bundled catalog (or the "
            + "--webhook files) against remote functions, as for review; repeatable")
    List<String> urls = new ArrayList<>();

    @Option(names = "--webhook", paramLabel = "FILE", description = "a function's webhook.yaml, bundled or not, "
            + "rendered against --url instead of the bundled catalog, as for review; repeatable")
    List<Path> webhooks = new ArrayList<>();

    @Option(names = "--ca-file", paramLabel = "PEM", description = "CA certificates to trust for HTTPS webhooks")
    Path caFile;

    @Option(names = "--exclude-namespaces", split = ",", paramLabel = "NS",
            description = "namespaces the rendered configurations exclude (default: ${DEFAULT-VALUE})",
            defaultValue = "kube-system,kube-node-lease,knative-serving,knative-eventing,kourier-system,"
                    + "knative-operator,tollgate")
    List<String> excluded;

    @Option(names = "--user", defaultValue = "kubernetes-admin", description = "userInfo.username "
            + "(default: ${DEFAULT-VALUE})")
    String user;

    @Option(names = "--group", paramLabel = "GROUP", description = "userInfo.groups, repeatable "
            + "(default: system:masters, system:authenticated)")
    List<String> groups = new ArrayList<>();

    @Option(names = { "-o", "--output" }, defaultValue = "text", description = "text (default) or json")
    String output;

    @Option(names = "--policy-reports", paramLabel = "DIR", description = "write wgpolicyk8s.io/v1alpha2 "
            + "PolicyReports (one per namespace) and a ClusterPolicyReport to this folder")
    Path policyReports;

    @Option(names = "--apply", description = "create or replace the PolicyReports in the cluster (needs the "
            + "Policy Reports CRDs; the only write audit makes)")
    boolean apply;

    @Option(names = "--chunk-size", defaultValue = "500", paramLabel = "N", description = "objects per list "
            + "request (default: ${DEFAULT-VALUE}, as kubectl)")
    long chunkSize;

    @Option(names = "--concurrency", defaultValue = "8", paramLabel = "N", description = "objects reviewed at "
            + "once (default: ${DEFAULT-VALUE})")
    int concurrency;

    @Option(names = "--no-progress", description = "no progress line on stderr (the closing line stays)")
    boolean noProgress;

    private final Supplier<String> localBundleUrl;
    private final Function<AuditCommand, Cluster> connector;
    private final Function<String, WebhookClient> webhookClients;
    private final PrintStream out;
    private final PrintStream err;

    /** @param localBundleUrl the base URL of the bundle this process serves */
    public AuditCommand(Supplier<String> localBundleUrl) {
        this(localBundleUrl, c -> Cluster.connect(c.kubeconfig, c.context), HttpWebhookClient::new,
                new PrintStream(System.out, true, StandardCharsets.UTF_8), System.err);
    }

    /** For tests: the cluster connection, the webhook transport (by CA PEM) and the streams are given. */
    public AuditCommand(Supplier<String> localBundleUrl, Function<AuditCommand, Cluster> connector,
            Function<String, WebhookClient> webhookClients, PrintStream out, PrintStream err) {
        this.localBundleUrl = localBundleUrl;
        this.connector = connector;
        this.webhookClients = webhookClients;
        this.out = out;
        this.err = err;
    }

    @Override
    public boolean needsLocalBundle() {
        return !clusterWebhooks && configs.isEmpty() && urls.isEmpty() && webhooks.isEmpty();
    }

    @Override
    public Integer call() {
        try {
            checkOptions();
            String caPem = caFile == null ? "" : Configurations.readPem(caFile);
            Configurations configurations = clusterWebhooks ? null
                    : ReviewCommand.configurations(configs, webhooks, urls, caPem, excluded, localBundleUrl,
                            Map.of());
            try (Cluster cluster = connector.apply(this)) {
                List<String> notes = new ArrayList<>();
                if (configurations == null) {
                    configurations = fromCluster(cluster, notes);
                }
                MatchConditionsSupport conditions = new MatchConditionsSupport(dev.tollgate.cel.KubeCel.standard());
                conditions.compileAll(configurations);
                Configurations chosen = configurations;
                java.util.function.Predicate<String> wanted = AuditPlan.groupsOf(chosen);
                Discovery discovery = cluster.discover(apply ? wanted.or(PolicyReports.GROUP::equals) : wanted);
                List<ServedResource> reportResources = apply ? PolicyReports.served(discovery, cluster.host()) : null;
                Operation operation = asCreate ? Operation.CREATE : Operation.UPDATE;
                AuditPlan plan = AuditPlan.of(chosen, discovery, operation, !namespaces.isEmpty());
                Map<String, InputManifest> known = namespaces(cluster);
                for (String ns : namespaces) {
                    if (!known.containsKey(ns)) {
                        throw new InputException("-n " + ns + ": no such namespace in the cluster at "
                                + cluster.host());
                    }
                }
                AuditResults results = new AuditResults();
                chosen.mutating().forEach(w -> results.webhook(w.name(), w.configuration(), "mutating"));
                chosen.validating().forEach(w -> results.webhook(w.name(), w.configuration(), "validating"));
                notes.forEach(results::note);
                plan.notes().forEach(results::note);
                Auditor.Options options = new Auditor.Options(operation, namespaces, selector, chunkSize, concurrency,
                        user, groups.isEmpty() ? List.of("system:masters", "system:authenticated") : groups);
                double seconds;
                try (Simulator simulator = new Simulator(chosen, webhookClients.apply(caPem), conditions);
                        Progress progress = new Progress(err, !noProgress, System.console() != null)) {
                    new Auditor(cluster, simulator, options, progress).run(plan, known, results);
                    seconds = progress.seconds();
                    progress.finish();
                }
                AuditOutput.Run run = new AuditOutput.Run(cluster.host(), operation.name(), scope(), seconds);
                out.print(output.equals("json") ? AuditOutput.json(run, results) : AuditOutput.text(run, results));
                if (policyReports != null || apply) {
                    List<ObjectNode> reports = PolicyReports.build(results, operation.name(), Instant.now());
                    if (policyReports != null) {
                        List<Path> files = PolicyReports.write(policyReports, reports);
                        err.println("tollgate audit: wrote " + files.size() + " policy report(s) to "
                                + policyReports);
                    }
                    if (apply) {
                        PolicyReports.apply(cluster, reportResources, reports);
                        err.println("tollgate audit: applied " + reports.size() + " policy report(s) to "
                                + cluster.host());
                    }
                }
                if (!results.unreviewed().isEmpty()) {
                    err.println("tollgate audit: " + results.unreviewed().size() + " object(s) could not be "
                            + "reviewed (listed under Notes): the audit is incomplete");
                    return 2;
                }
                return results.denied() > 0 ? 1 : 0;
            }
        } catch (InputException | ClusterException e) {
            err.println("tollgate audit: " + SecretUrls.redactIn(e.getMessage()));
            return 2;
        }
    }

    private void checkOptions() {
        if (!output.equals("text") && !output.equals("json")) {
            throw new InputException("--output must be text or json, got '" + output + "'");
        }
        if (chunkSize < 1) {
            throw new InputException("--chunk-size must be at least 1, got " + chunkSize);
        }
        if (concurrency < 1) {
            throw new InputException("--concurrency must be at least 1, got " + concurrency);
        }
        if (clusterWebhooks && (!configs.isEmpty() || !urls.isEmpty() || !webhooks.isEmpty())) {
            throw new InputException("--cluster-webhooks takes the configurations from the cluster: leave out "
                    + "--config, --url and --webhook");
        }
    }

    private String scope() {
        String where = namespaces.isEmpty() ? "all namespaces" : "namespace" + (namespaces.size() == 1 ? " " : "s ")
                + String.join(", ", namespaces);
        return selector == null || selector.isEmpty() ? where : where + ", -l " + selector;
    }

    /** The cluster's namespaces by name, as the simulator takes them (namespaceSelector, namespaceObject). */
    private Map<String, InputManifest> namespaces(Cluster cluster) {
        Map<String, InputManifest> out = new LinkedHashMap<>();
        for (ObjectNode ns : cluster.listAll(NAMESPACES, chunkSize)) {
            InputManifest m = new InputManifest("cluster", ns);
            out.put(m.name(), m);
        }
        return out;
    }

    /**
     * The cluster's own webhook configurations. Webhooks behind {@code clientConfig.service} cannot be called from
     * outside the cluster: they are left out, and a note says which.
     */
    private Configurations fromCluster(Cluster cluster, List<String> notes) {
        List<ObjectNode> objects = new ArrayList<>(cluster.listAll(MUTATING, chunkSize));
        objects.addAll(cluster.listAll(VALIDATING, chunkSize));
        List<ObjectNode> usable = new ArrayList<>();
        for (ObjectNode config : objects) {
            ArrayNode kept = config.arrayNode();
            for (JsonNode w : config.path("webhooks")) {
                if (w.path("clientConfig").hasNonNull("url")) {
                    kept.add(w);
                } else {
                    notes.add(config.path("kind").asText() + " " + config.path("metadata").path("name").asText()
                            + ": webhook " + w.path("name").asText() + " is reached through clientConfig.service, "
                            + "which cannot be called from here: left out");
                }
            }
            if (!kept.isEmpty()) {
                ObjectNode copy = config.deepCopy();
                copy.set("webhooks", kept);
                usable.add(copy);
            }
        }
        if (usable.isEmpty()) {
            throw new InputException("--cluster-webhooks: the cluster at " + cluster.host() + " has no webhook "
                    + "configuration with a clientConfig.url webhook to audit against");
        }
        return new Configurations(usable);
    }
}
