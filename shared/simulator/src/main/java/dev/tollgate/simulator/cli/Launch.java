package dev.tollgate.simulator.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusBindException;
import io.quarkus.runtime.QuarkusApplication;
import picocli.CommandLine;

/**
 * What happens around the command: the version it prints, where the shipped policies are, and how a failure to start
 * is reported (one line on stderr, exit status 2, as any other bad input).
 */
final class Launch {

    /** The policy folders of the bundled CEL functions, relative to the simulator module (shared/simulator). */
    private static final String[][] POLICIES = {
        { "tollgate.cel-policy.config", "policies/cel-policy" },
        { "tollgate.cel-mutate.config", "policies/cel-mutate" } };

    private Launch() {
    }

    /**
     * Answers help and usage errors without starting anything ({@link Preflight}); otherwise starts Quarkus, listening
     * (on a free port of 127.0.0.1) only when the command calls the in-process bundle, then runs the command; exits
     * with the command's status, or 2 when Quarkus cannot start.
     */
    static void run(Class<? extends QuarkusApplication> app, String... args) {
        Preflight.Decision decision = Preflight.check(args, System.out, System.err);
        if (decision.exitNow() != null) {
            System.exit(decision.exitNow());
        }
        if (!decision.listen() && System.getProperty(HOST_ENABLED) == null) {
            System.setProperty(HOST_ENABLED, "false");
        }
        useInstalledPolicies();
        useTheClustersNamespaces(args, System.getenv());
        Quarkus.run(app, (status, failure) -> {
            if (failure != null) {
                System.err.println("tollgate: cannot start: " + dev.tollgate.simulator.SecretUrls.redactIn(oneLine(failure)));
                System.exit(2);
            }
            System.exit(status);
        }, args);
    }

    /** Quarkus's switch for its HTTP server's TCP listener (VertxHttpConfig.hostEnabled). */
    private static final String HOST_ENABLED = "quarkus.http.host-enabled";

    /**
     * The shipped policies are found from the installation (the folder of quarkus-run.jar is
     * shared/simulator/target/quarkus-app), not from the working directory; a value set with -D or the environment
     * (TOLLGATE_CEL_POLICY_CONFIG, ...) wins.
     */
    static void useInstalledPolicies() {
        Path module = installedModule();
        if (module == null) {
            return;
        }
        for (String[] p : POLICIES) {
            String env = p[0].toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
            if (System.getProperty(p[0]) == null && System.getenv(env) == null) {
                System.setProperty(p[0], module.resolve(p[1]) + "," + module.resolve("policies/namespaces.yaml"));
            }
        }
    }

    /**
     * The bundled cel-policy and cel-mutate, served in-process, take namespaces (namespaceSelector, namespaceObject)
     * from the cluster the command reads, as the API server of that cluster would: {@code audit} always (its
     * {@code --kubeconfig}/{@code --context}, else the usual lookup: the first file of KUBECONFIG, ~/.kube/config,
     * else the in-cluster ServiceAccount), {@code review} and {@code replay} when given {@code --kubeconfig}. The
     * functions read their configuration when Quarkus starts, so this is set before: the cluster {@code default} of
     * {@code tollgate.clusters.*} (shared/cel-admission ClusterContexts), and the shipped
     * {@code policies/namespaces.yaml} left out of their configuration (Namespace objects in the files would win).
     * Values set with -D win.
     */
    static void useTheClustersNamespaces(String[] args, java.util.Map<String, String> env) {
        if (args.length == 0 || !(args[0].equals("audit") || args[0].equals("review") || args[0].equals("replay"))) {
            return;
        }
        String kubeconfig = option(args, "--kubeconfig");
        String context = option(args, "--context");
        if (args[0].equals("replay") && kubeconfig == null) {
            // A replay gives the functions the namespaces it matches the webhooks with (--namespaces, the log's);
            // any other is assumed with its name label only, as the simulator assumes it, not as the shipped
            // namespaces.yaml describes the examples' (issue 45).
            withoutShippedNamespaces();
            return;
        }
        if (!args[0].equals("audit") && kubeconfig == null) {
            return;
        }
        String prefix = "tollgate.clusters.default.";
        if (System.getProperty(prefix + "kubeconfig") != null || System.getProperty(prefix + "in-cluster") != null) {
            return;
        }
        if (kubeconfig == null) {
            kubeconfig = defaultKubeconfig(env);
        }
        if (kubeconfig != null) {
            System.setProperty(prefix + "kubeconfig", Path.of(kubeconfig).toAbsolutePath().toString());
            if (context != null) {
                System.setProperty(prefix + "context", context);
            }
        } else if (dev.tollgate.cel.admission.ClusterConnection.inCluster().isPresent()) {
            System.setProperty(prefix + "in-cluster", "true");
        } else {
            return; // no cluster to read: the command says so when it connects
        }
        withoutShippedNamespaces();
    }

    /** The shipped policies/namespaces.yaml left out of the CEL functions' configuration (set by -D or above). */
    private static void withoutShippedNamespaces() {
        for (String[] p : POLICIES) {
            String value = System.getProperty(p[0]);
            if (value != null) {
                System.setProperty(p[0], java.util.Arrays.stream(value.split(",")).map(String::strip)
                        .filter(f -> !f.endsWith("policies/namespaces.yaml"))
                        .collect(java.util.stream.Collectors.joining(",")));
            }
        }
    }

    /** The value of {@code --name VALUE} or {@code --name=VALUE} before a {@code --}, else null. */
    static String option(String[] args, String name) {
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--")) {
                break;
            }
            if (args[i].equals(name) && i + 1 < args.length) {
                return args[i + 1];
            }
            if (args[i].startsWith(name + "=")) {
                return args[i].substring(name.length() + 1);
            }
        }
        return null;
    }

    /** As kubectl and fabric8 look: the first existing file of KUBECONFIG, else ~/.kube/config; null if none. */
    private static String defaultKubeconfig(java.util.Map<String, String> env) {
        String list = env.getOrDefault("KUBECONFIG", "");
        for (String f : list.split(java.io.File.pathSeparator)) {
            if (!f.isBlank() && Files.isReadable(Path.of(f))) {
                return f;
            }
        }
        Path home = Path.of(System.getProperty("user.home"), ".kube", "config");
        return Files.isReadable(home) ? home.toString() : null;
    }

    /** shared/simulator when running from its target/quarkus-app/quarkus-run.jar, else null. */
    private static Path installedModule() {
        String classPath = System.getProperty("java.class.path", "");
        if (!classPath.endsWith("quarkus-run.jar") || classPath.contains(java.io.File.pathSeparator)) {
            return null;
        }
        Path app = Path.of(classPath).toAbsolutePath().getParent();
        Path module = app == null || app.getParent() == null ? null : app.getParent().getParent();
        return module != null && Files.isDirectory(module.resolve("policies")) ? module : null;
    }

    /**
     * The innermost cause's message: what went wrong, without the layers of wrapping and the stack; a port that is
     * taken is named (the innermost cause, Java's BindException, only says "Address already in use").
     */
    static String oneLine(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root && !(root instanceof QuarkusBindException)) {
            root = root.getCause();
        }
        if (root instanceof QuarkusBindException bind) {
            return "port " + bind.getPort() + " of " + bind.getHost() + " is in use";
        }
        String message = root.getMessage() == null ? root.toString() : root.getMessage();
        return message.strip().replaceAll("\\s*\\R\\s*", "; ");
    }

    /** {@code -V}/{@code --version} of the command and of its subcommands. */
    static void showVersion(CommandLine cli) {
        CommandLine.IVersionProvider version = () -> new String[] { "tollgate " + ConfigProvider.getConfig()
                .getOptionalValue("quarkus.application.version", String.class).orElse("(unknown version)")
                + " (Java " + Runtime.version() + ")" };
        cli.getCommandSpec().versionProvider(version);
        cli.getSubcommands().values().forEach(sub -> sub.getCommandSpec().versionProvider(version));
    }
}
