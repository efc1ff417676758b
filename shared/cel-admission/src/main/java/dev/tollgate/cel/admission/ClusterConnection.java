package dev.tollgate.cel.admission;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * How to reach one cluster's API server, read-only: its URL, the CA to trust and the credential, as a fabric8
 * {@link Config}. Four ways to say it: the in-cluster ServiceAccount, a kubeconfig file (and context), a URL with
 * CA and token files (what a mounted Secret gives), or a URL and a token supplier (tests). Nothing is read from the
 * network until {@link #client(Duration)}; a kubeconfig is parsed then, so a connection of a cluster that is never
 * asked costs nothing.
 */
public final class ClusterConnection {

    static final Path SERVICE_ACCOUNT = Path.of("/var/run/secrets/kubernetes.io/serviceaccount");

    private final String describe;
    private final Supplier<Config> config;

    private ClusterConnection(String describe, Supplier<Config> config) {
        this.describe = describe;
        this.config = config;
    }

    /**
     * The in-cluster connection, as client-go's rest.InClusterConfig finds it: the service host and port from
     * {@code KUBERNETES_SERVICE_HOST}/{@code KUBERNETES_SERVICE_PORT}, the ServiceAccount token and CA mounted
     * under {@code /var/run/secrets/kubernetes.io/serviceaccount}. Empty outside a cluster (or without a mounted
     * token, e.g. {@code automountServiceAccountToken: false}).
     */
    public static Optional<ClusterConnection> inCluster() {
        return inCluster(System.getenv(), SERVICE_ACCOUNT);
    }

    static Optional<ClusterConnection> inCluster(Map<String, String> env, Path serviceAccount) {
        String host = env.getOrDefault("KUBERNETES_SERVICE_HOST", "");
        String port = env.getOrDefault("KUBERNETES_SERVICE_PORT", "");
        Path token = serviceAccount.resolve("token");
        Path ca = serviceAccount.resolve("ca.crt");
        if (host.isEmpty() || port.isEmpty() || !Files.isReadable(token) || !Files.isReadable(ca)) {
            return Optional.empty();
        }
        String authority = host.contains(":") ? "[" + host + "]:" + port : host + ":" + port;
        URI url = URI.create("https://" + authority);
        return Optional.of(new ClusterConnection("in-cluster " + url, () -> fromParts(url, ca,
                new TokenFile(token, System::nanoTime))));
    }

    /**
     * A kubeconfig file, its {@code context} (null: the current one). The file must be readable now; it is parsed
     * when the connection is first used.
     *
     * @throws IllegalArgumentException when the file cannot be read
     */
    public static ClusterConnection kubeconfig(Path file, String context) {
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException("kubeconfig " + file + ": cannot read it");
        }
        String where = "kubeconfig " + file + (context == null ? "" : " context " + context);
        return new ClusterConnection(where, () -> {
            if (!Files.isReadable(file)) {
                throw new UncheckedIOException(where + ": cannot read it", new IOException("not readable"));
            }
            Config c = Config.fromKubeconfig(context, file.toFile()); // relative paths in it: from its folder
            if (context != null && (c.getCurrentContext() == null || !context.equals(c.getCurrentContext()
                    .getName()))) {
                throw new IllegalArgumentException(where + ": no such context in the kubeconfig");
            }
            return c;
        });
    }

    /**
     * A kubeconfig's text (its current context), from {@code text} when the connection is first used; a failure is
     * reported with {@link #describe()}, {@code where}, in front, as for every connection.
     */
    static ClusterConnection kubeconfigText(String where, Supplier<String> text) {
        return new ClusterConnection(where, () -> Config.fromKubeconfig(text.get()));
    }

    /**
     * The API server at {@code url}, trusting the CA certificates in {@code caFile} (PEM), authenticating with the
     * token in {@code tokenFile}, re-read every minute (a mounted Secret is updated in place).
     *
     * @throws IllegalArgumentException when a file cannot be read
     */
    public static ClusterConnection files(URI url, Path caFile, Path tokenFile) {
        for (Path p : new Path[] { caFile, tokenFile }) {
            if (!Files.isReadable(p)) {
                throw new IllegalArgumentException(p + ": cannot read it");
            }
        }
        return new ClusterConnection(url.toString(), () -> fromParts(url, caFile, new TokenFile(tokenFile,
                System::nanoTime)));
    }

    /** The API server at {@code url} with a bearer token; {@code caFile} may be null for a plain-HTTP test server. */
    public static ClusterConnection of(URI url, Supplier<String> token, Path caFile) {
        return new ClusterConnection(url.toString(), () -> fromParts(url, caFile, token));
    }

    private static Config fromParts(URI url, Path caFile, Supplier<String> token) {
        ConfigBuilder b = new ConfigBuilder(Config.empty()).withMasterUrl(url.toString())
                .withOauthTokenProvider(token::get);
        if (caFile != null) {
            b.withCaCertFile(caFile.toString());
        }
        return b.build();
    }

    /** Where this connection goes, for logs and messages (never the credential). */
    public String describe() {
        return describe;
    }

    /**
     * A client for this cluster: one attempt per call (no retries: a review waits for it), {@code timeout} to
     * connect and for each request.
     */
    KubernetesClient client(Duration timeout) {
        int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        Config c = new ConfigBuilder(config.get()).withConnectionTimeout(millis).withRequestTimeout(millis)
                .withRequestRetryBackoffLimit(0).build();
        return new KubernetesClientBuilder().withConfig(c).build();
    }

    @Override
    public String toString() {
        return describe;
    }

    /**
     * A token file, re-read at most once a minute: the kubelet rotates a projected ServiceAccount token in place,
     * and client-go re-reads its token file on the same period (k8s.io/client-go/transport/token_source.go,
     * NewCachedFileTokenSource).
     */
    static final class TokenFile implements Supplier<String> {
        private static final long PERIOD_NANOS = Duration.ofMinutes(1).toNanos();
        private final Path file;
        private final LongSupplier clock;
        private String token;
        private long readAt;

        TokenFile(Path file, LongSupplier clock) {
            this.file = file;
            this.clock = clock;
        }

        @Override
        public synchronized String get() {
            long now = clock.getAsLong();
            if (token == null || now - readAt >= PERIOD_NANOS) {
                try {
                    token = Files.readString(file, StandardCharsets.UTF_8).strip();
                    readAt = now;
                } catch (IOException e) {
                    if (token == null) {
                        throw new NamespaceLookupException(0, "", "cannot read the token " + file + ": "
                                + e.getMessage());
                    }
                    // keep the last token until the file can be read again
                }
            }
            return token;
        }
    }
}
