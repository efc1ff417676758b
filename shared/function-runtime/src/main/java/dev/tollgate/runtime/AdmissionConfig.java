package dev.tollgate.runtime;

import java.time.Duration;

import dev.tollgate.admission.AdmissionLimits;
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

    /** A body of more JSON tokens than this gets HTTP 400 (bounds the decoded tree's heap). */
    @WithDefault("2000000")
    long maxTokenCount();

    /**
     * The whole body must have arrived this long after the request's headers, or the request gets 408 and its
     * connection is closed: a slow or stalled client cannot hold a connection, a budget share and a deadline.
     */
    @WithDefault("5s")
    Duration bodyReadTimeout();

    default AdmissionLimits limits() {
        return new AdmissionLimits(maxBodyBytes(), maxNestingDepth(), maxStringLength(), maxTokenCount());
    }
}
