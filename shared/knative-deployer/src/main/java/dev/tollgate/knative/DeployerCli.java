package dev.tollgate.knative;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tollgate-knative deploy|status|delete|kn|check}: see knative/README.md. */
@Command(name = "tollgate-knative", mixinStandardHelpOptions = true, version = "tollgate-knative 0.1.0",
        description = "Deploys Tollgate's functions as Knative Services and hands their URLs to Terraform.",
        subcommands = { DeployerCli.Deploy.class, DeployerCli.Status.class, DeployerCli.Delete.class,
                DeployerCli.Kn.class, DeployerCli.Check.class })
public final class DeployerCli {

    /** How a command gets its cluster client; tests point it at a mock server. */
    static Function<String, KubernetesClient> clients = DeployerCli::connect;
    static Deployer.Ticker ticker = Deployer.Ticker.SYSTEM;

    public static void main(String[] args) {
        System.exit(run(System.out, System.err, args));
    }

    static int run(PrintStream out, PrintStream err, String... args) {
        CommandLine cli = new CommandLine(new DeployerCli());
        cli.setOut(new java.io.PrintWriter(out, true));
        cli.setErr(new java.io.PrintWriter(err, true));
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof DeployException || e instanceof IllegalArgumentException
                    || e instanceof java.io.UncheckedIOException) {
                err.println("error: " + e.getMessage());
                return 1;
            }
            throw e;
        });
        return cli.execute(args);
    }

    static KubernetesClient connect(String context) {
        Config config = Config.autoConfigure(context);
        // Fail fast on an unreachable cluster instead of retrying for minutes.
        config.setConnectionTimeout(10_000);
        config.setRequestTimeout(30_000);
        config.setRequestRetryBackoffLimit(2);
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    /** Options every command shares. */
    static final class Selection {
        @Option(names = "--manifests", defaultValue = "knative", description = "Folder of <function>.yaml "
                + "manifests (default: ${DEFAULT-VALUE}, the native executables; knative/jvm for the JVM images).")
        Path manifests;

        @Option(names = { "-f", "--function" }, description = "Only this function (repeatable; default: all).")
        List<String> functions = new ArrayList<>();

        List<ServiceManifest> load() {
            List<ServiceManifest> all = ServiceManifest.readAll(manifests);
            if (functions.isEmpty()) {
                return all;
            }
            List<ServiceManifest> chosen = new ArrayList<>();
            for (String f : functions) {
                chosen.add(all.stream().filter(m -> m.name().equals(f)).findFirst().orElseThrow(() ->
                        new IllegalArgumentException("no manifest for function '" + f + "' in " + manifests
                                + " (have " + all.stream().map(ServiceManifest::name).toList() + ")")));
            }
            return chosen;
        }
    }

    /** Options of the commands that talk to a cluster. */
    static final class Cluster {
        @Option(names = "--context", description = "kubeconfig context (default: the current one).")
        String context;

        @Option(names = { "-n", "--namespace" }, description = "Namespace (default: the context's namespace, "
                + "else 'default').")
        String namespace;

        Deployer deployer(KubernetesClient client, PrintWriter progress) {
            String ns = namespace != null ? namespace
                    : client.getNamespace() != null ? client.getNamespace() : "default";
            return new Deployer(client, ns, progress, ticker);
        }
    }

    @Command(name = "deploy", description = "Create or update the Knative Services, wait until they are Ready and "
            + "write the Terraform input (function name -> HTTPS base URL).")
    static final class Deploy implements Callable<Integer> {
        @Mixin
        Selection selection;
        @Mixin
        Cluster cluster;
        @Spec
        CommandSpec spec;

        @Option(names = "--tag", description = "Image tag to deploy instead of the manifest's.")
        String tag;

        @Option(names = "--registry", description = "Registry and organisation replacing the manifest's "
                + "placeholder (e.g. registry.example.com/platform).")
        String registry;

        @Option(names = "--timeout", defaultValue = "300", description = "Seconds to wait for Ready (default: "
                + "${DEFAULT-VALUE}).")
        int timeoutSeconds;

        @Option(names = "--poll", defaultValue = "1000", description = "Milliseconds between status reads "
                + "(default: ${DEFAULT-VALUE}).")
        int pollMillis;

        @Option(names = "--bundle", defaultValue = "all-in-one", description = "The function that serves every "
                + "path; its URL becomes Terraform's default_url (default: ${DEFAULT-VALUE}).")
        String bundle;

        @Option(names = { "-o", "--output" }, defaultValue = "function-urls.auto.tfvars.json", description =
                "Terraform variables file to write (default: ${DEFAULT-VALUE}).")
        Path output;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            List<ServiceManifest> manifests = selection.load();
            try (KubernetesClient client = clients.apply(cluster.context)) {
                Deployer deployer = cluster.deployer(client, out);
                out.println("deploying " + manifests.stream().map(ServiceManifest::name).toList() + " to "
                        + client.getMasterUrl() + " namespace " + deployer.namespace());
                Map<String, String> urls = deployer.deploy(manifests, registry, tag, new Deployer.WaitOptions(
                        Duration.ofSeconds(timeoutSeconds), Duration.ofMillis(pollMillis), Duration.ofSeconds(10)));
                Map<String, String> functionUrls = new java.util.TreeMap<>(urls);
                String defaultUrl = functionUrls.remove(bundle);
                Map<String, String> images = new java.util.TreeMap<>();
                manifests.forEach(m -> images.put(m.name(), Deployer.deployedImage(m, registry, tag)));
                TerraformInput.Content all = TerraformInput.write(output, functionUrls, defaultUrl, images);
                out.println("wrote " + output + " (" + TerraformInput.VARIABLE + " for " + all.functionUrls().keySet()
                        + (all.defaultUrl() == null ? "" : ", " + TerraformInput.DEFAULT_URL + " "
                                + all.defaultUrl()) + ")");
            }
            return 0;
        }
    }

    @Command(name = "status", description = "List the functions' services: readiness, URL, latest revision.")
    static final class Status implements Callable<Integer> {
        @Mixin
        Selection selection;
        @Mixin
        Cluster cluster;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            List<ServiceManifest> manifests = selection.load();
            try (KubernetesClient client = clients.apply(cluster.context)) {
                Deployer deployer = cluster.deployer(client, out);
                List<ServiceState> states = deployer.status(manifests);
                out.printf("%-24s %-8s %-56s %s%n", "NAME", "READY", "URL", "LATEST REVISION");
                boolean allReady = true;
                for (ServiceState s : states) {
                    String ready = !s.exists() ? "-" : s.ready().isEmpty() ? "?" : s.ready();
                    out.printf("%-24s %-8s %-56s %s%n", s.name(), ready, s.exists() ? s.url() : "(not deployed)",
                            s.latestRevision());
                    if (s.exists() && !s.isReady()) {
                        out.println("    " + s.conditionList());
                    }
                    allReady &= s.isReady();
                }
                return allReady ? 0 : 3;
            }
        }
    }

    @Command(name = "delete", description = "Delete the functions' services.")
    static final class Delete implements Callable<Integer> {
        @Mixin
        Selection selection;
        @Mixin
        Cluster cluster;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            List<ServiceManifest> manifests = selection.load();
            try (KubernetesClient client = clients.apply(cluster.context)) {
                Deployer deployer = cluster.deployer(client, out);
                List<String> deleted = deployer.delete(manifests);
                out.println("deleted " + deleted.size() + " of " + manifests.size() + " services in "
                        + deployer.namespace());
            }
            return 0;
        }
    }

    @Command(name = "kn", description = "Print the kn service create command equivalent to each manifest.")
    static final class Kn implements Callable<Integer> {
        @Mixin
        Selection selection;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            for (ServiceManifest m : selection.load()) {
                out.println("# " + m.source());
                out.println(KnCommand.of(m).shell());
            }
            return 0;
        }
    }

    @Command(name = "check", description = "Check the manifests against the rules Knative enforces beyond its "
            + "schema.")
    static final class Check implements Callable<Integer> {
        @Mixin
        Selection selection;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            int problems = 0;
            for (ServiceManifest m : selection.load()) {
                List<Violation> violations = KnativeRules.DEFAULTS.check(m);
                KnCommand.of(m); // fails when kn could not express the manifest
                out.println(m.source() + ": " + (violations.isEmpty() ? "ok" : violations.size() + " problem(s)"));
                violations.forEach(v -> out.println("  " + v));
                problems += violations.size();
            }
            return problems == 0 ? 0 : 1;
        }
    }
}
