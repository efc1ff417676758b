package dev.tollgate.cel.admission;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.match.LabelSyntax;

/**
 * Namespaces read from the Kubernetes API on demand, with the function's ServiceAccount, and kept for a short
 * time: the API server answers namespaceSelector and namespaceObject from its namespace informer; a function that
 * scales to zero has no informer worth starting for one review, so it GETs the namespace a review needs
 * ({@code GET /api/v1/namespaces/<name>}, RBAC: get on namespaces) and caches it ({@link Settings#ttl()}, at most
 * {@link Settings#maxEntries()} namespaces, least recently used dropped first). Concurrent reviews for the same
 * namespace share one GET. Failures are not cached, so the next review asks again (as the API server does a live
 * GET when its cache misses: webhook/predicates/namespace/matcher.go, Provider.GetNamespace).
 *
 * <p>
 * Why {@code java.net.http} and not a Kubernetes client library: one GET of one kind needs a bearer token, the
 * cluster CA and JSON, all of which the JDK and Jackson (already here) provide; fabric8's client (used only by tests
 * and the simulator) or quarkus-kubernetes-client would add some megabytes, start-up work, reflection
 * registrations for a native image and, for the Quarkus extension, generated RBAC broader than get on namespaces.
 */
public final class ClusterNamespaces implements NamespaceSource {

    /** Cache and call limits. */
    public record Settings(Duration ttl, int maxEntries, Duration timeout) {
        public Settings {
            if (ttl.isNegative()) {
                throw new IllegalArgumentException("namespace cache TTL must not be negative, got " + ttl);
            }
            if (maxEntries < 1) {
                throw new IllegalArgumentException("namespace cache size must be at least 1, got " + maxEntries);
            }
            if (timeout.isZero() || timeout.isNegative()) {
                throw new IllegalArgumentException("namespace lookup timeout must be positive, got " + timeout);
            }
        }

        /** 30 s, 1000 namespaces, 2 s per GET. */
        public static Settings defaults() {
            return new Settings(Duration.ofSeconds(30), 1000, Duration.ofSeconds(2));
        }
    }

    /**
     * Where the API server is and how to authenticate.
     *
     * @param apiServer base URL, e.g. {@code https://10.96.0.1:443}
     * @param token     the bearer token, asked for on every call (it may be re-read from a file)
     * @param ssl       trust for the API server's certificate; null only for a plain-HTTP test server
     */
    public record Connection(URI apiServer, Supplier<String> token, SSLContext ssl) {

        static final Path SERVICE_ACCOUNT = Path.of("/var/run/secrets/kubernetes.io/serviceaccount");

        /**
         * The in-cluster connection, as client-go's rest.InClusterConfig finds it: the service host and port from
         * {@code KUBERNETES_SERVICE_HOST}/{@code KUBERNETES_SERVICE_PORT}, the ServiceAccount token and CA mounted
         * under {@code /var/run/secrets/kubernetes.io/serviceaccount}. Empty outside a cluster (or without a
         * mounted token, e.g. {@code automountServiceAccountToken: false}).
         */
        public static Optional<Connection> inCluster() {
            return inCluster(System.getenv(), SERVICE_ACCOUNT);
        }

        static Optional<Connection> inCluster(Map<String, String> env, Path serviceAccount) {
            String host = env.getOrDefault("KUBERNETES_SERVICE_HOST", "");
            String port = env.getOrDefault("KUBERNETES_SERVICE_PORT", "");
            Path token = serviceAccount.resolve("token");
            Path ca = serviceAccount.resolve("ca.crt");
            if (host.isEmpty() || port.isEmpty() || !Files.isReadable(token) || !Files.isReadable(ca)) {
                return Optional.empty();
            }
            String authority = host.contains(":") ? "[" + host + "]:" + port : host + ":" + port;
            return Optional.of(new Connection(URI.create("https://" + authority), new TokenFile(token,
                    System::nanoTime), trusting(ca)));
        }

        /** Trust exactly the CA certificates in the PEM file. */
        public static SSLContext trusting(Path caFile) {
            try (InputStream in = Files.newInputStream(caFile)) {
                KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
                trust.load(null, null);
                int i = 0;
                for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                    trust.setCertificateEntry("ca-" + i++, c);
                }
                if (i == 0) {
                    throw new IllegalArgumentException(caFile + ": no certificate in it");
                }
                TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(trust);
                SSLContext ssl = SSLContext.getInstance("TLS");
                ssl.init(null, tmf.getTrustManagers(), null);
                return ssl;
            } catch (IOException e) {
                throw new UncheckedIOException(caFile + ": " + e.getMessage(), e);
            } catch (GeneralSecurityException e) {
                throw new IllegalArgumentException(caFile + ": not a PEM CA bundle: " + e.getMessage(), e);
            }
        }
    }

    /**
     * A projected ServiceAccount token, re-read at most once a minute: the kubelet rotates it in place, and
     * client-go re-reads its token file on the same period (k8s.io/client-go/transport/token_source.go,
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
                        throw new NamespaceLookupException(0, "", "cannot read the ServiceAccount token " + file
                                + ": " + e.getMessage());
                    }
                    // keep the last token until the file can be read again
                }
            }
            return token;
        }
    }

    private record Cached(ObjectNode namespace, long expiresAt) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Connection connection;
    private final Settings settings;
    private final HttpClient http;
    private final LongSupplier clock;
    private final AtomicLong gets = new AtomicLong();
    // Least recently used first; guarded by itself.
    private final LinkedHashMap<String, Cached> cache = new LinkedHashMap<>(16, 0.75f, true);
    private final ConcurrentHashMap<String, CompletableFuture<ObjectNode>> inFlight = new ConcurrentHashMap<>();

    public ClusterNamespaces(Connection connection, Settings settings) {
        this(connection, settings, System::nanoTime);
    }

    ClusterNamespaces(Connection connection, Settings settings, LongSupplier clock) {
        this.connection = connection;
        this.settings = settings;
        this.clock = clock;
        HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(settings.timeout());
        if (connection.ssl() != null) {
            b.sslContext(connection.ssl());
        }
        this.http = b.build();
    }

    @Override
    public String describe() {
        return "from the Kubernetes API at " + connection.apiServer() + " (cached " + settings.ttl().toSeconds()
                + " s, at most " + settings.maxEntries() + ")";
    }

    /** How many GETs were sent (for tests and diagnostics). */
    public long apiCalls() {
        return gets.get();
    }

    @Override
    public ObjectNode get(String name) {
        if (!LabelSyntax.isDnsLabel(name)) {
            // Not a namespace name the API server could hold; never put it into a URL.
            throw NamespaceLookupException.notFound(name, "");
        }
        long now = clock.getAsLong();
        synchronized (cache) {
            Cached c = cache.get(name);
            if (c != null && c.expiresAt() - now > 0) {
                return c.namespace();
            }
        }
        CompletableFuture<ObjectNode> mine = new CompletableFuture<>();
        CompletableFuture<ObjectNode> running = inFlight.putIfAbsent(name, mine);
        if (running == null) {
            try {
                ObjectNode ns = fetch(name);
                remember(name, ns);
                mine.complete(ns);
            } catch (Throwable e) {
                mine.completeExceptionally(e); // never leave the waiters blocked
                if (e instanceof Error error) {
                    throw error;
                }
            } finally {
                inFlight.remove(name, mine);
            }
            running = mine;
        }
        try {
            return running.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof NamespaceLookupException l ? l
                    : new NamespaceLookupException(0, "", String.valueOf(e.getCause()));
        }
    }

    private void remember(String name, ObjectNode ns) {
        synchronized (cache) {
            cache.put(name, new Cached(ns, clock.getAsLong() + settings.ttl().toNanos()));
            var oldest = cache.entrySet().iterator();
            while (cache.size() > settings.maxEntries() && oldest.hasNext()) {
                oldest.next();
                oldest.remove();
            }
        }
    }

    private ObjectNode fetch(String name) {
        URI uri = connection.apiServer().resolve("/api/v1/namespaces/" + name);
        HttpRequest request = HttpRequest.newBuilder(uri).GET().timeout(settings.timeout())
                .header("Accept", "application/json")
                .header("Authorization", "Bearer " + connection.token().get())
                .header("User-Agent", "tollgate-cel-admission").build();
        gets.incrementAndGet();
        HttpResponse<byte[]> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpTimeoutException e) {
            throw new NamespaceLookupException(0, "", "GET " + uri + ": no answer within " + settings.timeout()
                    .toMillis() + " ms");
        } catch (IOException e) {
            throw new NamespaceLookupException(0, "", "GET " + uri + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NamespaceLookupException(0, "", "GET " + uri + ": interrupted");
        }
        JsonNode body;
        try {
            body = JSON.readTree(response.body());
        } catch (IOException e) {
            body = null;
        }
        int code = response.statusCode();
        if (code == 200) {
            if (body instanceof ObjectNode ns && "Namespace".equals(ns.path("kind").asText())) {
                return ns;
            }
            throw new NamespaceLookupException(0, "", "GET " + uri + ": the answer is not a Namespace");
        }
        // A Status body carries the API server's own message and reason (what client-go's error shows).
        if (body != null && "Status".equals(body.path("kind").asText()) && body.hasNonNull("message")) {
            throw new NamespaceLookupException(code, body.path("reason").asText(""), body.path("message").asText());
        }
        if (code == 404) {
            throw NamespaceLookupException.notFound(name, "");
        }
        throw new NamespaceLookupException(code, "", "the server responded with the status code " + code
                + " but did not return more information (get namespaces " + name + ")");
    }
}
