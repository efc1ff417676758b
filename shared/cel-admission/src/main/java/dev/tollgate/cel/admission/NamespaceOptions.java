package dev.tollgate.cel.admission;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Where a CEL function finds namespaces, with a fixed precedence:
 * <ol>
 * <li>{@code Namespace} objects in the configuration files: those, and {@link Namespaces.Unknown} for the rest;</li>
 * <li>else, running in a cluster (ServiceAccount mounted): the Kubernetes API, cached ({@link ClusterNamespaces});</li>
 * <li>else every namespace per {@link Namespaces.Unknown}, by default as the simulator assumes: it exists with only
 * the {@code kubernetes.io/metadata.name} label.</li>
 * </ol>
 * {@link Source#CONFIG} and {@link Source#CLUSTER} pin one of them.
 *
 * @param connection the in-cluster connection, when there is one (tests give their own)
 */
public record NamespaceOptions(Source source, Namespaces.Unknown unknown, ClusterNamespaces.Settings cluster,
        Supplier<Optional<ClusterNamespaces.Connection>> connection) {

    /** The {@code <prefix>.namespaces} setting. */
    public enum Source {
        /** The precedence above. */
        AUTO,
        /** Only the configuration files (and unknown-namespace), even in a cluster. */
        CONFIG,
        /** Only the Kubernetes API; refuses to start outside a cluster or with Namespace objects in the files. */
        CLUSTER
    }

    /** Configuration files only, the rest per {@code unknown}: for tests and tools. */
    public static NamespaceOptions config(Namespaces.Unknown unknown) {
        return new NamespaceOptions(Source.CONFIG, unknown, ClusterNamespaces.Settings.defaults(), Optional::empty);
    }

    /**
     * Reads {@code <prefix>.namespaces} (auto, config, cluster; default auto), {@code <prefix>.unknown-namespace}
     * (empty, error; default empty), {@code <prefix>.namespace-cache-ttl} (default 30s),
     * {@code <prefix>.namespace-cache-size} (1000) and {@code <prefix>.namespace-lookup-timeout} (2s). Durations
     * as in Quarkus: {@code 30s}, {@code 500ms}, {@code PT1M}.
     *
     * @param config a configuration lookup by key
     * @throws IllegalArgumentException naming the key whose value is invalid
     */
    public static NamespaceOptions read(String prefix, Function<String, Optional<String>> config) {
        String sourceKey = prefix + ".namespaces";
        String sourceValue = config.apply(sourceKey).orElse("auto").strip();
        Source source;
        try {
            source = Source.valueOf(sourceValue.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(sourceKey + " must be auto, config or cluster, got '" + sourceValue
                    + "'");
        }
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
        return new NamespaceOptions(source, unknown, settings, ClusterNamespaces.Connection::inCluster);
    }

    /** The same options with another in-cluster connection (tests: a mock API server). */
    public NamespaceOptions withConnection(Supplier<Optional<ClusterNamespaces.Connection>> other) {
        return new NamespaceOptions(source, unknown, cluster, other);
    }

    /** The same options with another source. */
    public NamespaceOptions withSource(Source other) {
        return new NamespaceOptions(other, unknown, cluster, connection);
    }

    /**
     * The namespaces to use, given those in the configuration files.
     *
     * @throws IllegalArgumentException when {@link Source#CLUSTER} cannot be honoured
     */
    public Namespaces choose(Namespaces configured) {
        return switch (source) {
            case CONFIG -> configured;
            case AUTO -> configured.size() > 0 ? configured
                    : connection.get().map(c -> Namespaces.from(new ClusterNamespaces(c, cluster))).orElse(configured);
            case CLUSTER -> {
                if (configured.size() > 0) {
                    throw new IllegalArgumentException("namespaces=cluster reads every namespace from the Kubernetes "
                            + "API, but the configuration files hold " + configured.size() + " Namespace objects: "
                            + "remove them, or use namespaces=config (or auto) to use them");
                }
                yield Namespaces.from(new ClusterNamespaces(connection.get().orElseThrow(() ->
                        new IllegalArgumentException("namespaces=cluster, but this is not running in a cluster: "
                                + "KUBERNETES_SERVICE_HOST/KUBERNETES_SERVICE_PORT or the ServiceAccount token and "
                                + "CA under " + ClusterNamespaces.Connection.SERVICE_ACCOUNT + " are missing")),
                        cluster));
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
