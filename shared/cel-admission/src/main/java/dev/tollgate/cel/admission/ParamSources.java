package dev.tollgate.cel.admission;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;

/**
 * The params a review sees, by the cluster that sent it: a paramKind with objects in the configuration files is
 * answered from them for every cluster; any other kind, when params come from the clusters, from the review's own
 * cluster through its own connection ({@link ClusterParams}, built at that cluster's first lookup). A cluster with
 * no connection while others have one fails those lookups: another cluster's params would decide without a word.
 */
public final class ParamSources {

    private final Params configured;
    private final ClusterContexts contexts; // null: the configuration files only
    private final boolean everyKindFromClusters;
    private final ClusterParams.Settings settings;
    private final String describe;
    private final Map<String, ParamSource> built = new ConcurrentHashMap<>();

    ParamSources(Params configured, ClusterContexts contexts, boolean everyKindFromClusters,
            ClusterParams.Settings settings, String describe) {
        this.configured = configured;
        this.contexts = contexts;
        this.everyKindFromClusters = everyKindFromClusters;
        this.settings = settings;
        this.describe = describe;
    }

    /** The configuration files' params for every cluster (tests, tools). */
    public static ParamSources of(Params configured) {
        return new ParamSources(configured, null, false, null, configured.describe());
    }

    /** True when some paramKind may be read from a cluster's API. */
    public boolean readsClusters() {
        return contexts != null;
    }

    /** Where params come from, for the startup log. */
    public String describe() {
        return describe;
    }

    /** The params of this cluster's reviews. */
    public ParamSource of(String clusterName) {
        if (contexts == null) {
            return configured;
        }
        Optional<ClusterConnection> c = contexts.connection(clusterName);
        if (c.isEmpty()) {
            return routed(unconnected(clusterName, contexts));
        }
        return built.computeIfAbsent(clusterName, n -> routed(new ClusterParams(c.get(), settings)));
    }

    private ParamSource routed(ParamSource cluster) {
        return new ParamSource() {
            private ParamSource pick(Params.Kind kind) {
                return !everyKindFromClusters && configured.configures(kind) ? configured : cluster;
            }

            @Override
            public void checkKind(Params.Kind kind) {
                pick(kind).checkKind(kind);
            }

            @Override
            public List<ObjectNode> collect(Params.Kind kind, Params.Ref ref, AdmissionRequest request) {
                return kind == null ? configured.collect(null, ref, request) : pick(kind).collect(kind, ref, request);
            }

            @Override
            public List<ObjectNode> everything(Params.Kind kind) {
                return !everyKindFromClusters && configured.configures(kind) ? configured.everything(kind)
                        : cluster.everything(kind);
            }

            @Override
            public String describe() {
                return cluster.describe();
            }
        };
    }

    // As for namespaces (NamespaceOptions): a cluster without a connection fails, it never borrows another's.
    private static ParamSource unconnected(String clusterName, ClusterContexts contexts) {
        return new ParamSource() {
            private Params.ParamException failure() {
                return new Params.ParamException("no connection to cluster \"" + clusterName + "\" is configured "
                        + "(known: " + String.join(", ", contexts.names()) + ")");
            }

            @Override
            public void checkKind(Params.Kind kind) {
                throw failure();
            }

            @Override
            public List<ObjectNode> collect(Params.Kind kind, Params.Ref ref, AdmissionRequest request) {
                if (ref == null) {
                    return Params.nothingToCollect();
                }
                throw failure();
            }

            @Override
            public List<ObjectNode> everything(Params.Kind kind) {
                throw failure();
            }

            @Override
            public String describe() {
                return "no connection to cluster " + clusterName;
            }
        };
    }
}
