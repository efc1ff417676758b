package dev.tollgate.cel.admission;

import java.time.Duration;
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

    private final ClusterConnection connection;
    private final Settings settings;
    private KubernetesClient client; // built at the first lookup; guarded by this
    private final AtomicLong gets = new AtomicLong();
    private final LookupCache<String, ObjectNode> cache;

    public ClusterNamespaces(ClusterConnection connection, Settings settings) {
        this(connection, settings, System::nanoTime);
    }

    ClusterNamespaces(ClusterConnection connection, Settings settings, LongSupplier clock) {
        this.connection = connection;
        this.settings = settings;
        this.cache = new LookupCache<>(settings.ttl(), settings.maxEntries(), clock);
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
        try {
            return cache.get(name, this::fetch);
        } catch (NamespaceLookupException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new NamespaceLookupException(0, "", String.valueOf(e));
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
            throw failure(c, e, "/api/v1/namespaces/" + name, "get namespaces " + name);
        }
        if (ns == null) {
            throw NamespaceLookupException.notFound(name, "");
        }
        return c.getKubernetesSerialization().convertValue(ns, ObjectNode.class);
    }

    // A Status body carries the API server's own message and reason (what client-go's error shows); without an
    // answer, what went wrong on the way, with the URL (never the credential). {@code what} is client-go's words for
    // the request ("get namespaces shop"), {@code path} its path.
    static NamespaceLookupException failure(KubernetesClient c, KubernetesClientException e, String path,
            String what) {
        Status status = e.getStatus();
        int code = e.getCode();
        if (code > 0 && status != null && status.getMessage() != null && !status.getMessage().isBlank()
                && "Status".equals(status.getKind())) {
            return new NamespaceLookupException(code, status.getReason() == null ? "" : status.getReason(),
                    status.getMessage());
        }
        String url = String.valueOf(c.getMasterUrl()).replaceAll("/+$", "") + path;
        if (code > 0) {
            return new NamespaceLookupException(code, "", "the server responded with the status code " + code
                    + " but did not return more information (" + what + ")");
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return new NamespaceLookupException(0, "", "GET " + url + ": " + (root == e ? e.getMessage()
                : root.toString()));
    }
}
