package dev.tollgate.cel.admission;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Where a CEL function finds what the API server itself would consult, per cluster: namespaces
 * ({@link #choose(Namespaces)}) and params ({@link #chooseParams(Params)}). Namespaces, with a fixed precedence:
 * <ol>
 * <li>{@code Namespace} objects in the configuration files: those, and {@link Namespaces.Unknown} for the rest (the
 * same for every cluster);</li>
 * <li>else the Kubernetes API of the review's cluster, through its own connection ({@link ClusterContexts}), cached
 * per cluster ({@link ClusterNamespaces});</li>
 * <li>else, with no cluster connection configured at all (not in a cluster, nothing in {@code tollgate.clusters.*}),
 * every namespace per {@link Namespaces.Unknown}, by default as the simulator assumes: it exists with only the
 * {@code kubernetes.io/metadata.name} label.</li>
 * </ol>
 * A review from a cluster that has no connection while others have one fails its namespace lookups (it never gets
 * another cluster's namespaces). {@link Source#CONFIG} and {@link Source#CLUSTER} pin one of the sources.
 *
 * <p>
 * Params, per paramKind: the kind's objects in the configuration files when they hold any, else (with any cluster
 * connection) the review's cluster's API ({@link ClusterParams}), else none ("not known", the policy's failurePolicy);
 * {@code params} pins one source as {@code source} does for namespaces.
 *
 * @param clusters       the cluster connections ({@code tollgate.clusters.*}; tests give their own), read when first
 *                       needed
 * @param params         where params come from
 * @param paramSettings  the cache and timeout of params read from a cluster
 */
public record NamespaceOptions(Source source, Namespaces.Unknown unknown, ClusterNamespaces.Settings cluster,
        Supplier<ClusterContexts> clusters, Source params, ClusterParams.Settings paramSettings) {

    /** The {@code <prefix>.namespaces} and {@code <prefix>.params} settings. */
    public enum Source {
        /** The precedence above. */
        AUTO,
        /** Only the configuration files (and unknown-namespace), even in a cluster. */
        CONFIG,
        /** Only the Kubernetes API; refuses to start outside a cluster or with such objects in the files. */
        CLUSTER
    }

    /** Configuration files only, the rest per {@code unknown}: for tests and tools. */
    public static NamespaceOptions config(Namespaces.Unknown unknown) {
        return new NamespaceOptions(Source.CONFIG, unknown, ClusterNamespaces.Settings.defaults(),
                ClusterContexts::none, Source.CONFIG, ClusterParams.Settings.defaults());
    }

    /**
     * Reads {@code <prefix>.namespaces} (auto, config, cluster; default auto), {@code <prefix>.unknown-namespace}
     * (empty, error; default empty), {@code <prefix>.namespace-cache-ttl} (default 30s),
     * {@code <prefix>.namespace-cache-size} (1000) and {@code <prefix>.namespace-lookup-timeout} (2s). Durations
     * as in Quarkus: {@code 30s}, {@code 500ms}, {@code PT1M}; for params, {@code <prefix>.params} (auto, config,
     * cluster; default auto), {@code <prefix>.param-cache-ttl} (30s), {@code <prefix>.param-cache-size} (1000) and
     * {@code <prefix>.param-lookup-timeout} (2s). The clusters come from {@code tollgate.clusters.*}
     * ({@link ClusterContexts#read}).
     *
     * @param config a configuration lookup by key
     * @throws IllegalArgumentException naming the key whose value is invalid
     */
    public static NamespaceOptions read(String prefix, Function<String, Optional<String>> config) {
        Source source = source(config, prefix + ".namespaces");
        String unknownKey = prefix + ".unknown-namespace";
        Namespaces.Unknown unknown;
        try {
            unknown = Namespaces.Unknown.parse(config.apply(unknownKey).orElse("empty"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(unknownKey + ": " + e.getMessage());
        }
        Duration ttl = duration(config, prefix + ".namespace-cache-ttl", "30s");
        String sizeKey = prefix + ".namespace-cache-size";
        String size = config.apply(sizeKey).orElse("1000").strip();
        int maxEntries;
        try {
            maxEntries = Integer.parseInt(size);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(sizeKey + " must be a whole number, got '" + size + "'");
        }
        Duration timeout = duration(config, prefix + ".namespace-lookup-timeout", "2s");
        ClusterNamespaces.Settings settings;
        try {
            settings = new ClusterNamespaces.Settings(ttl, maxEntries, timeout);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(prefix + ": " + e.getMessage());
        }
        Source params = source(config, prefix + ".params");
        ClusterParams.Settings paramSettings;
        String paramSizeKey = prefix + ".param-cache-size";
        String paramSize = config.apply(paramSizeKey).orElse("1000").strip();
        Duration paramTtl = duration(config, prefix + ".param-cache-ttl", "30s");
        Duration paramTimeout = duration(config, prefix + ".param-lookup-timeout", "2s");
        try {
            paramSettings = new ClusterParams.Settings(paramTtl, Integer.parseInt(paramSize), paramTimeout);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(paramSizeKey + " must be a whole number, got '" + paramSize + "'");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(prefix + ": " + e.getMessage());
        }
        ClusterContexts clusters = ClusterContexts.read(config);
        return new NamespaceOptions(source, unknown, settings, () -> clusters, params, paramSettings);
    }

    private static Source source(Function<String, Optional<String>> config, String key) {
        String value = config.apply(key).orElse("auto").strip();
        try {
            return Source.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + " must be auto, config or cluster, got '" + value + "'");
        }
    }

    /** The same options with other clusters (tests: real or mock API servers). */
    public NamespaceOptions withClusters(ClusterContexts other) {
        return new NamespaceOptions(source, unknown, cluster, () -> other, params, paramSettings);
    }

    /** The same options with another source of namespaces. */
    public NamespaceOptions withSource(Source other) {
        return new NamespaceOptions(other, unknown, cluster, clusters, params, paramSettings);
    }

    /** The same options with another source of params. */
    public NamespaceOptions withParams(Source other) {
        return new NamespaceOptions(source, unknown, cluster, clusters, other, paramSettings);
    }

    /**
     * The params of each cluster's reviews, given those in the configuration files (see the class comment).
     *
     * @throws IllegalArgumentException when {@link Source#CLUSTER} cannot be honoured
     */
    public ParamSources chooseParams(Params configured) {
        ClusterContexts contexts = clusters.get();
        return switch (params) {
            case CONFIG -> ParamSources.of(configured);
            case AUTO -> contexts.isEmpty() ? ParamSources.of(configured)
                    : new ParamSources(configured, contexts, false, paramSettings, (configured.size() > 0
                            ? "the configured kinds from the configuration files, others " : "")
                            + "per cluster from the Kubernetes API, " + contexts.describe());
            case CLUSTER -> {
                if (configured.size() > 0) {
                    throw new IllegalArgumentException("params=cluster reads every param from the Kubernetes API, but "
                            + "the configuration files hold " + configured.size() + " param objects: remove them, or "
                            + "use params=config (or auto) to use them");
                }
                if (contexts.isEmpty()) {
                    throw new IllegalArgumentException("params=cluster, but no cluster connection is configured "
                            + "(tollgate.clusters.*) and this is not running in a cluster: KUBERNETES_SERVICE_HOST/"
                            + "KUBERNETES_SERVICE_PORT or the ServiceAccount token and CA under "
                            + ClusterConnection.SERVICE_ACCOUNT + " are missing");
                }
                yield new ParamSources(configured, contexts, true, paramSettings, "per cluster from the Kubernetes "
                        + "API, " + contexts.describe());
            }
        };
    }

    /**
     * The namespaces of each cluster, given those in the configuration files: a function of the cluster name
     * ({@link ClusterContexts#DEFAULT} when the review names none). Each cluster's API namespaces are built once, at
     * that cluster's first review.
     *
     * @throws IllegalArgumentException when {@link Source#CLUSTER} cannot be honoured
     */
    public PerCluster choose(Namespaces configured) {
        ClusterContexts contexts = clusters.get();
        return switch (source) {
            case CONFIG -> new PerCluster(configured, null, cluster, configured.describe());
            case AUTO -> configured.size() > 0 || contexts.isEmpty()
                    ? new PerCluster(configured, null, cluster, configured.describe())
                    : new PerCluster(null, contexts, cluster, "per cluster from the Kubernetes API, "
                            + contexts.describe());
            case CLUSTER -> {
                if (configured.size() > 0) {
                    throw new IllegalArgumentException("namespaces=cluster reads every namespace from the Kubernetes "
                            + "API, but the configuration files hold " + configured.size() + " Namespace objects: "
                            + "remove them, or use namespaces=config (or auto) to use them");
                }
                if (contexts.isEmpty()) {
                    throw new IllegalArgumentException("namespaces=cluster, but no cluster connection is configured "
                            + "(tollgate.clusters.*) and this is not running in a cluster: KUBERNETES_SERVICE_HOST/"
                            + "KUBERNETES_SERVICE_PORT or the ServiceAccount token and CA under "
                            + ClusterConnection.SERVICE_ACCOUNT + " are missing");
                }
                yield new PerCluster(null, contexts, cluster, "per cluster from the Kubernetes API, "
                        + contexts.describe());
            }
        };
    }

    /**
     * The namespaces a review sees, by the cluster that sent it: the same configured ones for every cluster, or
     * each cluster's own, from its API.
     */
    public static final class PerCluster {
        private final Namespaces everywhere;
        private final ClusterContexts contexts;
        private final ClusterNamespaces.Settings settings;
        private final String describe;
        private final Map<String, Namespaces> built = new ConcurrentHashMap<>();

        PerCluster(Namespaces everywhere, ClusterContexts contexts, ClusterNamespaces.Settings settings,
                String describe) {
            this.everywhere = everywhere;
            this.contexts = contexts;
            this.settings = settings;
            this.describe = describe;
        }

        /** The same namespaces for every cluster (tests, tools). */
        public static PerCluster of(Namespaces namespaces) {
            return new PerCluster(namespaces, null, null, namespaces.describe());
        }

        /** The namespaces of this cluster's reviews. */
        public Namespaces of(String clusterName) {
            if (everywhere != null) {
                return everywhere;
            }
            Optional<ClusterConnection> c = contexts.connection(clusterName);
            if (c.isEmpty()) {
                return Namespaces.from(unconnected(clusterName, contexts));
            }
            return built.computeIfAbsent(clusterName, n -> Namespaces.from(new ClusterNamespaces(c.get(), settings)));
        }

        /** Where namespaces come from, for the startup log. */
        public String describe() {
            return describe;
        }
    }

    // A cluster without a connection: its lookups fail (an internal error, as an unreachable API server), since
    // another cluster's namespaces would decide wrongly without a word.
    private static NamespaceSource unconnected(String clusterName, ClusterContexts contexts) {
        return new NamespaceSource() {
            @Override
            public com.fasterxml.jackson.databind.node.ObjectNode get(String name) {
                throw new NamespaceLookupException(0, "", "no connection to cluster \"" + clusterName + "\" is "
                        + "configured (known: " + String.join(", ", contexts.names()) + ")");
            }

            @Override
            public String describe() {
                return "no connection to cluster " + clusterName;
            }
        };
    }

    private static Duration duration(Function<String, Optional<String>> config, String key, String fallback) {
        String value = config.apply(key).orElse(fallback).strip();
        try {
            if (value.matches("\\d+ms")) {
                return Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
            }
            if (value.matches("\\d+[smh]")) {
                return Duration.parse("PT" + value.toUpperCase(Locale.ROOT));
            }
            return Duration.parse(value);
        } catch (DateTimeParseException | NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a duration such as 30s, 500ms or PT1M, got '" + value
                    + "'");
        }
    }
}
