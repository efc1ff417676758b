package dev.tollgate.simulator.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.zip.GZIPInputStream;

import dev.tollgate.admission.registration.WebhookRegistration;
import dev.tollgate.simulator.BundleCatalog;
import dev.tollgate.simulator.Configurations;
import dev.tollgate.simulator.HttpWebhookClient;
import dev.tollgate.simulator.InputException;
import dev.tollgate.simulator.InputManifest;
import dev.tollgate.simulator.MatchConditionsSupport;
import dev.tollgate.simulator.SecretUrls;
import dev.tollgate.simulator.Simulator;
import dev.tollgate.simulator.Webhook;
import dev.tollgate.simulator.audit.Progress;
import dev.tollgate.simulator.replay.ObjectCache;
import dev.tollgate.simulator.replay.Registrations;
import dev.tollgate.simulator.replay.ReplayOutput;
import dev.tollgate.simulator.replay.ReplayReader;
import dev.tollgate.simulator.replay.ReplayReport;
import dev.tollgate.simulator.replay.Replayer;
import io.quarkus.runtime.annotations.RegisterForReflection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tollgate replay}: recorded requests through the current or a candidate set, and what would change. */
@Command(name = "replay", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Feeds recorded requests (the kube-apiserver's audit log, audit.k8s.io/v1 Events at Request or "
                    + "RequestResponse level; Tollgate decision logs written with objects) through a set of webhooks "
                    + "and reports per function what would change: allowed<->denied, messages, warnings, patches.",
            "The baseline is what the log recorded, or (--baseline-url) a served set that reviews each request too. "
                    + "With no --config or --url, the candidate is the bundled functions served in-process, as for "
                    + "review.",
            "Exit status: 0 when nothing changed, 1 when something did, 2 for bad input." },
        exitCodeOnInvalidInput = 2, exitCodeOnExecutionException = 2)
@RegisterForReflection
public class ReplayCommand implements Callable<Integer>, LocalBundle {

    @Parameters(arity = "1..*", paramLabel = "LOG", description = "log files of JSON lines (- for stdin; .gz "
            + "files are read compressed), in the order they were written")
    List<String> logs;

    @Option(names = "--baseline", paramLabel = "recorded|served", description = "what the replay is compared "
            + "with: the outcome the log recorded (default), or the set of --baseline-url (the default when given)")
    String baseline;

    @Option(names = "--baseline-url", paramLabel = "[FUNCTION=]URL", description = "the served set to compare "
            + "with (the bundled catalog or the --webhook files rendered against it, as --url); repeatable")
    List<String> baselineUrls = new ArrayList<>();

    @Option(names = { "-f", "--config" }, paramLabel = "FILE", description = "Mutating/ValidatingWebhookConfiguration "
            + "YAML or JSON: the candidate set, as for review; repeatable")
    List<Path> configs = new ArrayList<>();

    @Option(names = "--url", paramLabel = "[FUNCTION=]URL", description = "render the bundled catalog (or the "
            + "--webhook files) against remote functions: the candidate set, as for review; repeatable")
    List<String> urls = new ArrayList<>();

    @Option(names = "--webhook", paramLabel = "FILE", description = "a function's webhook.yaml, rendered against "
            + "--url (and --baseline-url) instead of the bundled catalog, as for review; repeatable")
    List<Path> webhooks = new ArrayList<>();

    @Option(names = "--ca-file", paramLabel = "PEM", description = "CA certificates to trust for HTTPS webhooks")
    Path caFile;

    @Option(names = "--exclude-namespaces", split = ",", paramLabel = "NS",
            description = "namespaces the rendered configurations exclude (default: ${DEFAULT-VALUE})",
            defaultValue = "kube-system,kube-node-lease,knative-serving,knative-eventing,kourier-system,"
                    + "knative-operator,tollgate")
    List<String> excluded;

    @Option(names = "--namespaces", paramLabel = "FILE", description = "Namespace objects, for namespaceSelector "
            + "and namespaceObject, for the webhooks and the bundled CEL functions alike (before those the log shows "
            + "written, which come before --kubeconfig's)")
    List<Path> namespaces = new ArrayList<>();

    @Option(names = "--kubeconfig", paramLabel = "FILE", description = "take namespaces from this cluster, for the "
            + "webhooks and the bundled CEL functions alike (after --namespaces and those in the log)")
    Path kubeconfig;

    @Option(names = "--since", paramLabel = "TIME", description = "replay only audit events received at or after "
            + "this RFC 3339 time, e.g. 2026-11-28T10:00:00Z (earlier ones still give the stored objects and "
            + "namespaces)")
    String since;

    @Option(names = "--context", paramLabel = "NAME", description = "the kubeconfig context for --kubeconfig")
    String context;

    @Option(names = "--examples", defaultValue = "3", paramLabel = "N", description = "examples per function and "
            + "kind of change (default: ${DEFAULT-VALUE})")
    int examples;

    @Option(names = "--cache-size", defaultValue = "" + ObjectCache.DEFAULT_CAPACITY, paramLabel = "N",
            description = "stored objects kept for later UPDATE and DELETE events (default: ${DEFAULT-VALUE}; the "
                    + "least recently used leave)")
    int cacheSize;

    @Option(names = { "-o", "--output" }, defaultValue = "text", description = "text (default) or json")
    String output;

    @Option(names = "--no-progress", description = "no progress line on stderr (the closing line stays)")
    boolean noProgress;

    private final Supplier<String> localBundleUrl;

    /** @param localBundleUrl the base URL of the bundle this process serves */
    public ReplayCommand(Supplier<String> localBundleUrl) {
        this.localBundleUrl = localBundleUrl;
    }

    @Override
    public boolean needsLocalBundle() {
        return configs.isEmpty() && urls.isEmpty() && webhooks.isEmpty();
    }

    @Override
    public Integer call() {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        PrintStream err = System.err;
        try {
            checkOptions();
            String caPem = caFile == null ? "" : Configurations.readPem(caFile);
            Configurations candidate = ReviewCommand.configurations(configs, webhooks, urls, caPem, excluded,
                    localBundleUrl, Map.of());
            boolean served = "served".equals(baseline) || (baseline == null && !baselineUrls.isEmpty());
            Configurations base = served ? ReviewCommand.configurations(List.of(), webhooks, baselineUrls, caPem,
                    excluded, localBundleUrl, Map.of()) : null;
            Function<String, String> functionOf = functionOf();
            MatchConditionsSupport conditions = new MatchConditionsSupport(dev.tollgate.cel.KubeCel.standard());
            conditions.compileAll(candidate);
            if (base != null) {
                conditions.compileAll(base);
            }
            List<String> files = spooled(logs);
            ReplayReader reader = new ReplayReader(functionOf, cacheSize, givenNamespaces(), clusterNamespaces())
                    .since(sinceTime());
            ReplayReport report = new ReplayReport(examples);
            Registrations registrations = registrations(files);
            List<Webhook> webhooks = new ArrayList<>(candidate.mutating());
            webhooks.addAll(candidate.validating());
            try (Simulator candidateSim = new Simulator(candidate, new HttpWebhookClient(caPem), conditions);
                    Simulator baseSim = base == null ? null
                            : new Simulator(base, new HttpWebhookClient(caPem), conditions);
                    Progress progress = new Progress(err, !noProgress, System.console() != null, "replay", "lines",
                            "reading")) {
                Replayer replayer = new Replayer(candidateSim, baseSim, functionOf, reader, report, registrations,
                        webhooks);
                progress.expect(null);
                progress.start();
                for (int i = 0; i < logs.size(); i++) {
                    String log = logs.get(i);
                    progress.listing(log);
                    try (BufferedReader in = open(files.get(i), log.endsWith(".gz"))) {
                        replayer.replay(log.equals("-") ? "stdin" : log, in, progress::done);
                    } catch (IOException e) {
                        throw new InputException(log + ": cannot read: " + e.getMessage());
                    }
                }
                progress.finish();
            }
            ReplayOutput.Run run = new ReplayOutput.Run(logs, target(), served ? "served by "
                    + SecretUrls.redactIn(String.join(", ", baselineUrls)) : "recorded", reader.stored().capacity(),
                    reader.stored().evicted());
            out.print(output.equals("json") ? ReplayOutput.json(run, report) : ReplayOutput.text(run, report));
            return report.changed() > 0 ? 1 : 0;
        } catch (InputException | dev.tollgate.simulator.audit.ClusterException e) {
            err.println("tollgate replay: " + SecretUrls.redactIn(e.getMessage()));
            return 2;
        }
    }

    private void checkOptions() {
        if (!output.equals("text") && !output.equals("json")) {
            throw new InputException("--output must be text or json, got '" + output + "'");
        }
        if (baseline != null && !baseline.equals("recorded") && !baseline.equals("served")) {
            throw new InputException("--baseline must be recorded or served, got '" + baseline + "'");
        }
        if ("served".equals(baseline) && baselineUrls.isEmpty()) {
            throw new InputException("--baseline served needs --baseline-url: where the baseline set is served");
        }
        if ("recorded".equals(baseline) && !baselineUrls.isEmpty()) {
            throw new InputException("--baseline recorded compares with the log: leave out --baseline-url");
        }
        if (examples < 0) {
            throw new InputException("--examples must be 0 or more, got " + examples);
        }
        if (cacheSize < 1) {
            throw new InputException("--cache-size must be at least 1, got " + cacheSize);
        }
        if (context != null && kubeconfig == null) {
            throw new InputException("--context needs --kubeconfig");
        }
        for (String log : logs) {
            if (!log.equals("-") && !Files.isRegularFile(Path.of(log))) {
                throw new InputException(log + ": no such file");
            }
        }
    }

    /** A log file, line by line; gzip when its name says so. */
    private static BufferedReader open(String file, boolean gzip) throws IOException {
        InputStream in = Files.newInputStream(Path.of(file));
        if (gzip) {
            in = new GZIPInputStream(in, 64 * 1024);
        }
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 64 * 1024);
    }

    /**
     * The files to read, stdin ({@code -}) copied to a temporary file first: the log is read twice, once for the
     * webhooks' registrations (a request is logged before a registration that comes after it), then replayed.
     */
    private static List<String> spooled(List<String> logs) {
        List<String> files = new ArrayList<>();
        for (String log : logs) {
            if (!log.equals("-")) {
                files.add(log);
                continue;
            }
            try {
                Path copy = Files.createTempFile("tollgate-replay-", ".log");
                copy.toFile().deleteOnExit();
                Files.copy(System.in, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                files.add(copy.toString());
            } catch (IOException e) {
                throw new InputException("stdin: cannot read: " + e.getMessage());
            }
        }
        return files;
    }

    /** When the logs show the webhook configurations written. */
    private Registrations registrations(List<String> files) {
        Registrations registrations = Registrations.none();
        for (int i = 0; i < files.size(); i++) {
            try (BufferedReader in = open(files.get(i), logs.get(i).endsWith(".gz"))) {
                registrations.scan(in);
            } catch (IOException e) {
                throw new InputException(logs.get(i) + ": cannot read: " + e.getMessage());
            }
        }
        return registrations;
    }

    private java.time.Instant sinceTime() {
        if (since == null) {
            return null;
        }
        try {
            return java.time.Instant.parse(since);
        } catch (java.time.format.DateTimeParseException e) {
            throw new InputException("--since must be an RFC 3339 time such as 2026-11-28T10:00:00Z, got '" + since
                    + "'");
        }
    }

    /**
     * The function of a webhook, as review's reports name them: the catalog's (or the --webhook files') entry of
     * that name; a webhook of a --config file that no entry names is its own function.
     */
    private Function<String, String> functionOf() {
        List<WebhookRegistration> catalog = webhooks.isEmpty() ? BundleCatalog.registrations()
                : ReviewCommand.catalog(webhooks);
        Map<String, String> byName = new HashMap<>();
        catalog.forEach(r -> byName.putIfAbsent(r.name(), r.function()));
        return name -> byName.getOrDefault(name, name);
    }

    private Map<String, InputManifest> givenNamespaces() {
        Map<String, InputManifest> out = new LinkedHashMap<>();
        for (InputManifest m : InputManifest.read(namespaces)) {
            if (!m.kind().equals("Namespace")) {
                throw new InputException(m.source() + ": expected a Namespace, got " + m.kind());
            }
            out.putIfAbsent(m.name(), m);
        }
        return out;
    }

    private Map<String, InputManifest> clusterNamespaces() {
        Map<String, InputManifest> out = new LinkedHashMap<>();
        if (kubeconfig != null) {
            try (dev.tollgate.simulator.audit.Cluster cluster = dev.tollgate.simulator.audit.Cluster.connect(
                    kubeconfig, context)) {
                cluster.listAll(new dev.tollgate.simulator.audit.ServedResource("", "v1", "namespaces", "Namespace",
                        false, List.of("list")), 500).forEach(ns -> {
                            InputManifest m = new InputManifest("cluster", ns);
                            out.putIfAbsent(m.name(), m);
                        });
            }
        }
        return out;
    }

    private String target() {
        if (!configs.isEmpty()) {
            return "the --config webhooks" + (urls.isEmpty() ? "" : " and the functions at "
                    + SecretUrls.redactIn(String.join(", ", urls)));
        }
        if (!urls.isEmpty()) {
            return "the functions at " + SecretUrls.redactIn(String.join(", ", urls));
        }
        return "the in-process bundle";
    }
}
