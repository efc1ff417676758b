package dev.tollgate.runtime;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The one-line-per-decision JSON log (logger category {@value DecisionLog#CATEGORY}). */
@ConfigMapping(prefix = "tollgate.decision-log")
public interface DecisionLogConfig {

    @WithDefault("true")
    boolean enabled();

    /** Debug only: also log the reviewed object. Objects may hold secrets (Secret data, env values). */
    @WithDefault("false")
    boolean includeObjects();
}
