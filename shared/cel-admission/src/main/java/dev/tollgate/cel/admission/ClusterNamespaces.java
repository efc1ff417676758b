package dev.tollgate.cel.admission;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.match.LabelSyntax;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * One cluster's namespaces, read from its Kubernetes API on demand through that cluster's read-only
 * {@link ClusterConnection}, and kept for a short time: the API server answers namespaceSelector and namespaceObject
 * from its namespace informer; a function that scales to zero has no informer worth starting for one review, so it
 * GETs the namespace a review needs ({@code GET /api/v1/namespaces/<name>}, RBAC: get on namespaces) and caches it
 * ({@link Settings#ttl()}, at most {@link Settings#maxEntries()} namespaces, least recently used dropped first).
 * Concurrent reviews for the same namespace share one GET. Failures are not cached, so the next review asks again
 * (as the API server does a live GET when its cache misses: webhook/predicates/namespace/matcher.go,
 * Provider.GetNamespace). The client is built at the first lookup, so a cluster that is never asked costs nothing.
 *
 * <p>
 * The client is fabric8's (what quarkus-kubernetes-client packages for Quarkus and native): kubeconfig files,
 * in-cluster configuration, TLS and token handling as the ecosystem does them. A failed GET keeps the API server's
 * own Status (code, reason, message) for the review to report.
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

    private record Cached(ObjectNode namespace, long expiresAt) {
    }

    private final ClusterConnection connection;
    private final Settings settings;
    private KubernetesClient client; // built at the first lookup; guarded by this
    private final LongSupplier clock;
    private final AtomicLong gets = new AtomicLong();
    // Least recently used first; guarded by itself.
    private final LinkedHashMap<String, Cached> cache = new LinkedHashMap<>(16, 0.75f, true);
    private final ConcurrentHashMap<String, CompletableFuture<ObjectNode>> inFlight = new ConcurrentHashMap<>();

    public ClusterNamespaces(ClusterConnection connection, Settings settings) {
        this(connection, settings, System::nanoTime);
    }

    ClusterNamespaces(ClusterConnection connection, Settings settings, LongSupplier clock) {
        this.connection = connection;
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public String describe() {
        return "from the Kubernetes API (" + connection.describe() + ")" + " (cached " + settings.ttl().toSeconds()
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

    private synchronized KubernetesClient client() {
        if (client == null) {
            try {
                client = connection.client(settings.timeout());
            } catch (RuntimeException e) {
                throw new NamespaceLookupException(0, "", connection.describe() + ": " + e.getMessage());
            }
        }
        return client;
    }

    private ObjectNode fetch(String name) {
        KubernetesClient c = client();
        gets.incrementAndGet();
        Namespace ns;
        try {
            ns = c.namespaces().withName(name).get();
        } catch (KubernetesClientException e) {
            throw failure(name, c, e);
        }
        if (ns == null) {
            throw NamespaceLookupException.notFound(name, "");
        }
        return c.getKubernetesSerialization().convertValue(ns, ObjectNode.class);
    }

    // A Status body carries the API server's own message and reason (what client-go's error shows); without an
    // answer, what went wrong on the way, with the URL (never the credential).
    private static NamespaceLookupException failure(String name, KubernetesClient c, KubernetesClientException e) {
        Status status = e.getStatus();
        int code = e.getCode();
        if (code > 0 && status != null && status.getMessage() != null && !status.getMessage().isBlank()
                && "Status".equals(status.getKind())) {
            return new NamespaceLookupException(code, status.getReason() == null ? "" : status.getReason(),
                    status.getMessage());
        }
        String url = String.valueOf(c.getMasterUrl()).replaceAll("/+$", "") + "/api/v1/namespaces/" + name;
        if (code > 0) {
            return new NamespaceLookupException(code, "", "the server responded with the status code " + code
                    + " but did not return more information (get namespaces " + name + ")");
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return new NamespaceLookupException(0, "", "GET " + url + ": " + (root == e ? e.getMessage()
                : root.toString()));
    }
}
