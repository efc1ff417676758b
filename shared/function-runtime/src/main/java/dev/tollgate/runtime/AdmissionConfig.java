package dev.tollgate.runtime;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Limits on incoming reviews; see {@link dev.tollgate.admission.AdmissionLimits} for why these defaults. */
@ConfigMapping(prefix = "tollgate.admission")
public interface AdmissionConfig {

    /** Bodies larger than this get HTTP 413. Env: TOLLGATE_ADMISSION_MAX_BODY_BYTES. */
    @WithDefault("7340032")
    long maxBodyBytes();

    /** JSON nested deeper than this gets HTTP 400. */
    @WithDefault("100")
    int maxNestingDepth();

    /** A JSON string longer than this gets HTTP 400. */
    @WithDefault("3145728")
    int maxStringLength();
}
