package dev.tollgate.cel.admission;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.match.LabelSyntax;

/**
 * The clusters a function serves, by name, each with its own read-only {@link ClusterConnection}: what the API
 * server itself would consult for a review (namespaces for namespaceSelector and namespaceObject) comes from the
 * cluster that sent it, never from another (ARCHITECTURE.md, decision 12). A review names its cluster; the runtime
 * maps each caller's credential to that name.
 *
 * <p>
 * Configuration ({@link #read}):
 * <ul>
 * <li>{@code tollgate.clusters.dir}: a directory where every {@code <name>.kubeconfig} file is one cluster (a Secret
 * mounted as a volume, one key per cluster, as the Terraform module cluster-registration renders it);</li>
 * <li>{@code tollgate.clusters.names}: more cluster names, each configured by {@code tollgate.clusters.<name>.}
 * {@code kubeconfig} (and {@code context}), or {@code url}, {@code ca-file} and {@code token-file}, or
 * {@code in-cluster=true}, or, with none of these, from {@code tollgate.clusters.aws-secret};</li>
 * <li>{@code tollgate.clusters.aws-secret}: on AWS Lambda, the Secrets Manager secret (name or ARN) holding the
 * kubeconfigs of the named clusters, read through the Parameters and Secrets extension when first used
 * ({@link AwsSecretConnections});</li>
 * <li>neither: the one cluster {@value #DEFAULT}, configured by {@code tollgate.clusters.default.*} when set, else
 * the cluster the function runs in (in-cluster configuration) when there is one, else none (the simple default:
 * one cluster governing itself).</li>
 * </ul>
 */
public final class ClusterContexts {

    /** The name of the cluster a review belongs to when nothing names one (one cluster governing itself). */
    public static final String DEFAULT = AdmissionRequest.DEFAULT_CLUSTER;

    static final String PREFIX = "tollgate.clusters";
    private static final String KUBECONFIG_SUFFIX = ".kubeconfig";

    private final Map<String, ClusterConnection> connections;

    private ClusterContexts(Map<String, ClusterConnection> connections) {
        this.connections = Collections.unmodifiableMap(connections);
    }

    /** These clusters (tests, tools). */
    public static ClusterContexts of(Map<String, ClusterConnection> connections) {
        connections.keySet().forEach(ClusterContexts::checkName);
        return new ClusterContexts(new LinkedHashMap<>(connections));
    }

    /** No cluster at all: namespaces come from the configuration files only. */
    public static ClusterContexts none() {
        return new ClusterContexts(Map.of());
    }

    /**
     * Reads the {@code tollgate.clusters.*} keys (see the class comment). Validates what can be checked without the
     * network (names, files readable, URLs); connects to nothing.
     *
     * @param config a configuration lookup by key
     * @throws IllegalArgumentException naming the key whose value is invalid
     */
    public static ClusterContexts read(Function<String, Optional<String>> config) {
        return read(config, ClusterConnection::inCluster, k -> Optional.ofNullable(System.getenv(k)));
    }

    static ClusterContexts read(Function<String, Optional<String>> config,
            java.util.function.Supplier<Optional<ClusterConnection>> inCluster) {
        return read(config, inCluster, k -> Optional.empty());
    }

    static ClusterContexts read(Function<String, Optional<String>> config,
            java.util.function.Supplier<Optional<ClusterConnection>> inCluster,
            Function<String, Optional<String>> env) {
        Map<String, ClusterConnection> found = new LinkedHashMap<>();
        Optional<AwsSecretConnections> secret = value(config, PREFIX + ".aws-secret").map(id -> new AwsSecretConnections(
                id, AwsSecretConnections.endpoint(env), env));
        Optional<String> dir = value(config, PREFIX + ".dir");
        if (dir.isPresent()) {
            for (Path file : kubeconfigs(Path.of(dir.get()), PREFIX + ".dir")) {
                String fileName = file.getFileName().toString();
                String name = fileName.substring(0, fileName.length() - KUBECONFIG_SUFFIX.length());
                if (!LabelSyntax.isDnsLabel(name)) {
                    throw new IllegalArgumentException(PREFIX + ".dir: " + file + ": '" + name + "' is not a cluster "
                            + "name (a DNS label: lower-case letters, digits and '-')");
                }
                found.put(name, ClusterConnection.kubeconfig(file, null));
            }
        }
        List<String> names = new ArrayList<>();
        value(config, PREFIX + ".names").ifPresent(v -> Stream.of(v.split(",")).map(String::strip)
                .filter(s -> !s.isEmpty()).forEach(names::add));
        for (String name : names) {
            if (!LabelSyntax.isDnsLabel(name)) {
                throw new IllegalArgumentException(PREFIX + ".names: '" + name + "' is not a cluster name (a DNS "
                        + "label: lower-case letters, digits and '-')");
            }
            if (found.containsKey(name)) {
                throw new IllegalArgumentException(PREFIX + ".names: cluster '" + name + "' is also "
                        + dir.get() + "/" + name + KUBECONFIG_SUFFIX + " (" + PREFIX + ".dir)");
            }
            Optional<ClusterConnection> own = one(name, config, inCluster);
            found.put(name, own.or(() -> secret.map(s -> s.connection(name))).orElseThrow(() ->
                    new IllegalArgumentException(PREFIX + "." + name + ": set kubeconfig, or url, ca-file and "
                            + "token-file, or in-cluster=true, or " + PREFIX + ".aws-secret")));
        }
        if (secret.isPresent() && names.isEmpty()) {
            throw new IllegalArgumentException(PREFIX + ".aws-secret needs " + PREFIX + ".names: the clusters whose "
                    + "kubeconfigs it holds");
        }
        if (found.isEmpty()) {
            Optional<ClusterConnection> own = one(DEFAULT, config, inCluster);
            if (own.isEmpty()) {
                own = inCluster.get();
            }
            own.ifPresent(c -> found.put(DEFAULT, c));
        }
        return new ClusterContexts(found);
    }

    private static Optional<ClusterConnection> one(String name, Function<String, Optional<String>> config,
            java.util.function.Supplier<Optional<ClusterConnection>> inCluster) {
        String at = PREFIX + "." + name + ".";
        Optional<String> kubeconfig = value(config, at + "kubeconfig");
        Optional<String> context = value(config, at + "context");
        Optional<String> url = value(config, at + "url");
        Optional<String> ca = value(config, at + "ca-file");
        Optional<String> token = value(config, at + "token-file");
        boolean own = value(config, at + "in-cluster").map(v -> {
            if (!v.equals("true") && !v.equals("false")) {
                throw new IllegalArgumentException(at + "in-cluster must be true or false, got '" + v + "'");
            }
            return v.equals("true");
        }).orElse(false);
        int ways = (kubeconfig.isPresent() ? 1 : 0) + (url.isPresent() || ca.isPresent() || token.isPresent() ? 1 : 0)
                + (own ? 1 : 0);
        if (ways > 1) {
            throw new IllegalArgumentException(PREFIX + "." + name + ": set one of kubeconfig, url (with ca-file and "
                    + "token-file) or in-cluster=true");
        }
        if (context.isPresent() && kubeconfig.isEmpty()) {
            throw new IllegalArgumentException(at + "context needs " + at + "kubeconfig");
        }
        try {
            if (kubeconfig.isPresent()) {
                return Optional.of(ClusterConnection.kubeconfig(Path.of(kubeconfig.get()), context.orElse(null)));
            }
            if (own) {
                return Optional.of(inCluster.get().orElseThrow(() -> new IllegalArgumentException("not running in a "
                        + "cluster: KUBERNETES_SERVICE_HOST/KUBERNETES_SERVICE_PORT or the ServiceAccount token and "
                        + "CA under " + ClusterConnection.SERVICE_ACCOUNT + " are missing")));
            }
            if (url.isPresent()) {
                if (ca.isEmpty() || token.isEmpty()) {
                    throw new IllegalArgumentException("url needs ca-file and token-file");
                }
                URI u = URI.create(url.get());
                if (!"https".equals(u.getScheme()) || u.getHost() == null) {
                    throw new IllegalArgumentException("url must be https://HOST[:PORT], got '" + url.get() + "'");
                }
                return Optional.of(ClusterConnection.files(u, Path.of(ca.get()), Path.of(token.get())));
            }
            if (ca.isPresent() || token.isPresent()) {
                throw new IllegalArgumentException("ca-file and token-file need url");
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(PREFIX + "." + name + ": " + e.getMessage(), e);
        }
        return Optional.empty();
    }

    private static List<Path> kubeconfigs(Path dir, String key) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(key + ": " + dir + " is not a directory");
        }
        try (Stream<Path> files = Files.list(dir)) {
            // A mounted Secret also holds ..data and ..<timestamp> entries: names starting with '.' are skipped.
            return files.filter(f -> {
                String n = f.getFileName().toString();
                return !n.startsWith(".") && n.endsWith(KUBECONFIG_SUFFIX) && Files.isRegularFile(f);
            }).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(key + ": " + dir + ": " + e.getMessage(), e);
        }
    }

    private static Optional<String> value(Function<String, Optional<String>> config, String key) {
        return config.apply(key).map(String::strip).filter(v -> !v.isEmpty());
    }

    private static void checkName(String name) {
        if (!LabelSyntax.isDnsLabel(name)) {
            throw new IllegalArgumentException("'" + name + "' is not a cluster name (a DNS label)");
        }
    }

    /** The cluster names, in configuration order. */
    public Set<String> names() {
        return connections.keySet();
    }

    public boolean isEmpty() {
        return connections.isEmpty();
    }

    /** The connection of a cluster, if it is one of these. */
    public Optional<ClusterConnection> connection(String cluster) {
        return Optional.ofNullable(connections.get(cluster));
    }

    /** One line for the startup log: each cluster and where its connection goes (never a credential). */
    public String describe() {
        if (connections.isEmpty()) {
            return "no cluster connection";
        }
        List<String> parts = new ArrayList<>();
        connections.forEach((name, c) -> parts.add(name + ": " + c.describe()));
        return connections.size() + (connections.size() == 1 ? " cluster (" : " clusters (") + String.join("; ",
                parts) + ")";
    }
}
