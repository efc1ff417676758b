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
 * The enforcement mode of a call: the caller's cluster's ({@code tollgate.enforcement.cluster-modes}), else the
 * function's ({@code tollgate.enforcement.mode}). Read at startup, where a bad value stops the function.
 */
@Startup
@ApplicationScoped
public class EnforcementModes {

    static final String MODE = "tollgate.enforcement.mode";
    static final String CLUSTER_MODES = "tollgate.enforcement.cluster-modes";

    private static final Logger LOG = Logger.getLogger(EnforcementModes.class);

    private final EnforcementMode mode;
    private final Map<String, EnforcementMode> clusters;

    EnforcementModes() {
        this.mode = null; // for CDI proxies
        this.clusters = null;
    }

    @Inject
    public EnforcementModes(EnforcementConfig config, CallerGate callers) {
        this(config.mode(), config.clusterModes().orElse(""));
        // A misspelt cluster would quietly get the function's mode: say so where it is configured.
        clusters.keySet().stream().filter(c -> !callers.clusters().contains(c)).forEach(c -> LOG.warnf(
                "%s names cluster %s, which no caller credential belongs to (caller clusters: %s): its mode is never "
                        + "used", CLUSTER_MODES, c, String.join(", ", callers.clusters())));
    }

    /** @throws ConfigurationException one line naming the property and the value that is wrong */
    EnforcementModes(String mode, String clusterModes) {
        try {
            this.mode = EnforcementMode.parse(mode, MODE);
            this.clusters = parse(clusterModes);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(e.getMessage());
        }
        if (this.mode != EnforcementMode.ENFORCE || !clusters.isEmpty()) {
            StringBuilder perCluster = new StringBuilder();
            clusters.forEach((c, m) -> perCluster.append(perCluster.isEmpty() ? "; clusters: " : ", ").append(c)
                    .append('=').append(m.label()));
            LOG.infof("enforcement: %s%s", this.mode.label(), perCluster);
        }
    }

    /** The mode of a call from {@code cluster}. */
    public EnforcementMode forCluster(String cluster) {
        return clusters.getOrDefault(cluster, mode);
    }

    private static Map<String, EnforcementMode> parse(String value) {
        Map<String, EnforcementMode> modes = new LinkedHashMap<>();
        if (value.isBlank()) {
            return Map.of();
        }
        for (String entry : value.split(",", -1)) {
            int eq = entry.indexOf('=');
            String cluster = eq < 0 ? "" : entry.substring(0, eq).strip();
            if (eq < 0 || !LabelSyntax.isDnsLabel(cluster)) {
                throw new IllegalArgumentException(CLUSTER_MODES + "=" + value + ": '" + entry.strip()
                        + "' is not <cluster>=<mode> with a cluster name (a DNS label)");
            }
            EnforcementMode m = EnforcementMode.parse(entry.substring(eq + 1), CLUSTER_MODES + " " + cluster);
            if (modes.put(cluster, m) != null) {
                throw new IllegalArgumentException(CLUSTER_MODES + "=" + value + ": cluster '" + cluster
                        + "' is given twice");
            }
        }
        return Map.copyOf(modes);
    }
}
