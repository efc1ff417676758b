package dev.tollgate.runtime;

import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.tollgate.admission.EnforcementMode;
import dev.tollgate.admission.match.LabelSyntax;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * The enforcement mode of a call, the first of: the function's own for the caller's cluster
 * ({@code tollgate.enforcement.function-cluster-modes}, {@code cel-policy.west=warn}), the caller's cluster's
 * ({@code tollgate.enforcement.cluster-modes}), the function's own ({@code tollgate.enforcement.function-modes}), the
 * process's ({@code tollgate.enforcement.mode}): so one process serving several functions (the all-in-one bundle)
 * gives each the mode the Terraform module enforcement gives it as a function of its own. Read at startup, where a
 * bad value stops the function.
 */
@Startup
@ApplicationScoped
public class EnforcementModes {

    static final String MODE = "tollgate.enforcement.mode";
    static final String CLUSTER_MODES = "tollgate.enforcement.cluster-modes";
    static final String FUNCTION_MODES = "tollgate.enforcement.function-modes";
    static final String FUNCTION_CLUSTER_MODES = "tollgate.enforcement.function-cluster-modes";

    private static final Logger LOG = Logger.getLogger(EnforcementModes.class);

    private final EnforcementMode mode;
    private final Map<String, EnforcementMode> clusters;
    private final Map<String, EnforcementMode> functions;
    /** Keyed {@code <function>.<cluster>}. */
    private final Map<String, EnforcementMode> functionClusters;

    EnforcementModes() {
        this.mode = null; // for CDI proxies
        this.clusters = null;
        this.functions = null;
        this.functionClusters = null;
    }

    @Inject
    public EnforcementModes(EnforcementConfig config, CallerGate callers, PolicyDirectory policies) {
        this(config.mode(), config.clusterModes().orElse(""), config.functionModes().orElse(""),
                config.functionClusterModes().orElse(""));
        // A misspelt cluster or function would quietly get another mode: say so where it is configured.
        java.util.Set<String> named = new java.util.TreeSet<>(clusters.keySet());
        functionClusters.keySet().forEach(k -> named.add(k.substring(k.indexOf('.') + 1)));
        named.stream().filter(c -> !callers.clusters().contains(c)).forEach(c -> LOG.warnf(
                "%s names cluster %s, which no caller credential belongs to (caller clusters: %s): its mode is never "
                        + "used", CLUSTER_MODES, c, String.join(", ", callers.clusters())));
        java.util.Set<String> served = new java.util.TreeSet<>(policies.admission().keySet());
        java.util.Set<String> functionsNamed = new java.util.TreeSet<>(functions.keySet());
        functionClusters.keySet().forEach(k -> functionsNamed.add(k.substring(0, k.indexOf('.'))));
        functionsNamed.stream().filter(f -> !served.contains(f)).forEach(f -> LOG.warnf(
                "%s/%s name function %s, which this process does not serve (it serves: %s): its mode is never used",
                FUNCTION_MODES, FUNCTION_CLUSTER_MODES, f, String.join(", ", served)));
    }

    /** @throws ConfigurationException one line naming the property and the value that is wrong */
    EnforcementModes(String mode, String clusterModes) {
        this(mode, clusterModes, "", "");
    }

    /** @throws ConfigurationException one line naming the property and the value that is wrong */
    EnforcementModes(String mode, String clusterModes, String functionModes, String functionClusterModes) {
        try {
            this.mode = EnforcementMode.parse(mode, MODE);
            this.clusters = parse(CLUSTER_MODES, clusterModes, false);
            this.functions = parse(FUNCTION_MODES, functionModes, false);
            this.functionClusters = parse(FUNCTION_CLUSTER_MODES, functionClusterModes, true);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(e.getMessage());
        }
        if (this.mode != EnforcementMode.ENFORCE || !clusters.isEmpty() || !functions.isEmpty()
                || !functionClusters.isEmpty()) {
            LOG.infof("enforcement: %s%s%s%s", this.mode.label(), listed("; clusters: ", clusters),
                    listed("; functions: ", functions), listed("; functions per cluster: ", functionClusters));
        }
    }

    private static String listed(String head, Map<String, EnforcementMode> modes) {
        StringBuilder out = new StringBuilder();
        new java.util.TreeMap<>(modes).forEach((k, m) -> out.append(out.isEmpty() ? head : ", ").append(k)
                .append('=').append(m.label()));
        return out.toString();
    }

    /** The mode of a call from {@code cluster}, for a function with no mode of its own. */
    public EnforcementMode forCluster(String cluster) {
        return clusters.getOrDefault(cluster, mode);
    }

    /** The mode of a call to {@code function} from {@code cluster} (see the class comment for the order). */
    public EnforcementMode forCall(String function, String cluster) {
        EnforcementMode own = functionClusters.get(function + "." + cluster);
        if (own != null) {
            return own;
        }
        EnforcementMode ofCluster = clusters.get(cluster);
        return ofCluster != null ? ofCluster : functions.getOrDefault(function, mode);
    }

    /**
     * {@code <key>=<mode>,...}: keys are cluster or function names (DNS labels), or with {@code pair}
     * {@code <function>.<cluster>}.
     */
    private static Map<String, EnforcementMode> parse(String property, String value, boolean pair) {
        Map<String, EnforcementMode> modes = new LinkedHashMap<>();
        if (value.isBlank()) {
            return Map.of();
        }
        String shape = pair ? "<function>.<cluster>=<mode> with a function and a cluster name (DNS labels)"
                : property.equals(FUNCTION_MODES) ? "<function>=<mode> with a function name (a DNS label)"
                        : "<cluster>=<mode> with a cluster name (a DNS label)";
        for (String entry : value.split(",", -1)) {
            int eq = entry.indexOf('=');
            String key = eq < 0 ? "" : entry.substring(0, eq).strip();
            String[] parts = pair ? key.split("\\.", -1) : new String[] { key };
            boolean ok = eq >= 0 && parts.length == (pair ? 2 : 1);
            for (String p : parts) {
                ok &= LabelSyntax.isDnsLabel(p);
            }
            if (!ok) {
                throw new IllegalArgumentException(property + "=" + value + ": '" + entry.strip() + "' is not "
                        + shape);
            }
            EnforcementMode m = EnforcementMode.parse(entry.substring(eq + 1), property + " " + key);
            if (modes.put(key, m) != null) {
                throw new IllegalArgumentException(property + "=" + value + ": " + (pair ? ""
                        : property.equals(FUNCTION_MODES) ? "function " : "cluster ") + "'" + key + "' is given twice");
            }
        }
        return Map.copyOf(modes);
    }
}
