package dev.tollgate.testing;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A real kube-apiserver on loopback for a test, from the kit in {@code ../shared/tools/kube-apiserver} (its README
 * says what it is and what v1.20 lacks). The kit's built programs live outside the repository, in the directory
 * named by the system property {@code tollgate.kas.dir}, else the environment variable {@code TOLLGATE_KAS_DIR}, else
 * {@code ~/kas} (`.ci/run` sets it up). Without the kit or its build, {@link #start} prints
 * {@code SKIPPED <test>: <reason>} and returns empty, so the test skips.
 *
 * <p>
 * Each instance is an empty cluster with an admin kubeconfig; {@link #stop()} stops it by name (the kit stops only
 * the processes it recorded).
 */
public final class KubeApiServer implements AutoCloseable {

    private final Path kit;
    private final Path dir;
    private final String name;
    private final Path kubeconfig;
    private final Properties env;

    private KubeApiServer(Path kit, Path dir, String name, Path kubeconfig, Properties env) {
        this.kit = kit;
        this.dir = dir;
        this.name = name;
        this.kubeconfig = kubeconfig;
        this.env = env;
    }

    /** The kit's directory: {@code tools/kube-apiserver} beside the fixtures ({@code tollgate.fixtures.dir}). */
    public static Path kit() {
        String fixtures = System.getProperty("tollgate.fixtures.dir", "../shared/fixtures");
        return Path.of(fixtures).toAbsolutePath().normalize().resolveSibling("tools").resolve("kube-apiserver");
    }

    /** Where the kit's programs and instances are (outside the repository). */
    public static Path dir() {
        String d = System.getProperty("tollgate.kas.dir");
        if (d == null || d.isBlank()) {
            d = System.getenv("TOLLGATE_KAS_DIR");
        }
        if (d == null || d.isBlank()) {
            d = System.getProperty("user.home") + "/kas";
        }
        return Path.of(d);
    }

    /** Why real API servers cannot be started here, or empty when they can. */
    public static Optional<String> missing() {
        Path kit = kit();
        if (!Files.isExecutable(kit.resolve("start.sh"))) {
            return Optional.of(kit + "/start.sh is absent (the kube-apiserver kit)");
        }
        Path bin = dir().resolve("bin/kube-apiserver");
        if (!Files.isExecutable(bin)) {
            return Optional.of(bin + " is absent (run " + kit + "/setup.sh " + dir() + ")");
        }
        return Optional.empty();
    }

    /**
     * Starts (an empty cluster) the instance {@code name}, or prints {@code SKIPPED <test>: <reason>} and returns
     * empty when the kit or its build is absent.
     *
     * @param test the test's name for the SKIPPED line, e.g. {@code ClusterContextsTest}
     */
    public static Optional<KubeApiServer> start(String test, String name) {
        return start(test, name, List.of());
    }

    /**
     * As {@link #start(String, String)}, with options of the kit's start.sh after the name, e.g.
     * {@code --audit-policy FILE} or {@code -- --disable-admission-plugins=ServiceAccount}.
     */
    public static Optional<KubeApiServer> start(String test, String name, List<String> options) {
        Optional<String> missing = missing();
        if (missing.isPresent()) {
            System.out.println("SKIPPED " + test + ": " + missing.get());
            return Optional.empty();
        }
        Path kit = kit();
        Path dir = dir();
        List<String> command = new ArrayList<>(List.of(kit.resolve("start.sh").toString(), dir.toString(), name));
        command.addAll(options);
        String out = run(command, 180);
        Path kubeconfig = Path.of(out.strip().lines().reduce((a, b) -> b).orElse(""));
        Properties env = new Properties();
        try (Reader r = Files.newBufferedReader(dir.resolve("instances").resolve(name).resolve("env"))) {
            env.load(r);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Optional.of(new KubeApiServer(kit, dir, name, kubeconfig, env));
    }

    public String name() {
        return name;
    }

    /** The admin kubeconfig (static token, group system:masters, CA embedded). */
    public Path kubeconfig() {
        return kubeconfig;
    }

    /** https://127.0.0.1:PORT */
    public URI url() {
        return URI.create(env.getProperty("KAS_URL"));
    }

    /** The API server's CA (PEM). */
    public Path caFile() {
        return Path.of(env.getProperty("KAS_CA_FILE"));
    }

    /** A value of the instance's {@code env} file (KAS_WEBHOOK_CA_BUNDLE, KAS_WEBHOOK_P12_FILE, ...). */
    public String env(String key) {
        return env.getProperty(key);
    }

    /** Runs the kit's kubectl against this instance; its stdout, or an exception with its stderr. */
    public String kubectl(String... args) {
        return run(kubectlCommand(args), 60);
    }

    /** How one kubectl run exited and what it printed (kubectl prints an API server's warnings on stderr). */
    public record Run(int exit, String stdout, String stderr) {
    }

    /**
     * Runs the kit's kubectl against this instance and returns how it exited, whatever the status: for a test about
     * what the API server refused or warned about.
     */
    public Run kubectlRun(String... args) {
        return exec(kubectlCommand(args), 60);
    }

    private List<String> kubectlCommand(String... args) {
        List<String> command = new ArrayList<>(List.of(dir.resolve("bin/kubectl").toString(), "--kubeconfig",
                kubeconfig.toString()));
        command.addAll(List.of(args));
        return command;
    }

    /** {@code kubectl apply -f} of these YAML manifests (flow style too: a leading {@code ---} keeps kubectl from taking {@code {...}} for JSON). */
    public String apply(String manifests) {
        try {
            Path file = Files.createTempFile("tollgate-kas-", ".yaml");
            try {
                Files.writeString(file, "---\n" + manifests);
                return kubectl("apply", "-f", file.toString());
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A kubeconfig for this instance that authenticates as {@code user} with a client certificate signed by the
     * instance's CA (openssl, which the kit installs): the API server authorizes each request as that user, so RBAC
     * is checked as it would be for a ServiceAccount's own token (v1.20 runs no token controller that could issue
     * one). Written to {@code dir} (key, certificate, kubeconfig).
     */
    public Path kubeconfigFor(String user, Path dir) {
        Path pki = this.dir.resolve("instances").resolve(name).resolve("pki");
        Path key = dir.resolve("user.key");
        Path csr = dir.resolve("user.csr");
        Path crt = dir.resolve("user.crt");
        run(List.of("openssl", "req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", key.toString(), "-subj",
                "/CN=" + user, "-out", csr.toString()), 60);
        run(List.of("openssl", "x509", "-req", "-in", csr.toString(), "-CA", pki.resolve("ca.crt").toString(),
                "-CAkey", pki.resolve("ca.key").toString(), "-CAcreateserial", "-CAserial",
                dir.resolve("ca.srl").toString(), "-days", "1", "-out", crt.toString()), 60);
        Path file = dir.resolve("kubeconfig");
        try {
            Files.writeString(file, """
                    apiVersion: v1
                    kind: Config
                    clusters:
                    - name: %1$s
                      cluster: {server: "%2$s", certificate-authority: "%3$s"}
                    users:
                    - name: user
                      user: {client-certificate: "%4$s", client-key: "%5$s"}
                    contexts:
                    - name: %1$s
                      context: {cluster: %1$s, user: user}
                    current-context: %1$s
                    """.formatted(name, url(), caFile(), crt, key));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    @Override
    public void close() {
        stop();
    }

    /** Stops the instance (its files stay until the next start of the name). */
    public void stop() {
        run(List.of(kit.resolve("stop.sh").toString(), dir.toString(), name), 60);
    }

    private static String run(List<String> command, int seconds) {
        Run run = exec(command, seconds);
        if (run.exit() != 0) {
            throw new IllegalStateException(String.join(" ", command) + ": exit " + run.exit() + ": "
                    + run.stderr().strip());
        }
        return run.stdout();
    }

    private static Run exec(List<String> command, int seconds) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(false).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            byte[] err = p.getErrorStream().readAllBytes();
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + ": no exit within " + seconds + " s");
            }
            return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8),
                    new String(err, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
