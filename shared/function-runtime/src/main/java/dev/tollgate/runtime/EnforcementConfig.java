package dev.tollgate.runtime;

import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How the function's verdicts are enforced ({@link EnforcementModes}); read as text so a bad value is named. */
@ConfigMapping(prefix = "tollgate.enforcement")
public interface EnforcementConfig {

    /** enforce, warn or audit. Env: TOLLGATE_ENFORCEMENT_MODE. */
    @WithDefault("enforce")
    String mode();

    /** Per caller cluster, overriding {@link #mode()}: {@code east=warn,west=audit}. Env: TOLLGATE_ENFORCEMENT_CLUSTER_MODES. */
    Optional<String> clusterModes();

    /**
     * Per function this process serves (the all-in-one bundle), overriding {@link #mode()} for that function:
     * {@code cel-policy=warn}. Env: TOLLGATE_ENFORCEMENT_FUNCTION_MODES.
     */
    Optional<String> functionModes();

    /**
     * Per function and caller cluster, overriding everything else for that function's calls from that cluster:
     * {@code cel-policy.west=warn}. Env: TOLLGATE_ENFORCEMENT_FUNCTION_CLUSTER_MODES.
     */
    Optional<String> functionClusterModes();
}
