package dev.tollgate.runtime;

import java.time.Duration;
import java.util.Optional;

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
     * connection is closed: a slow or stalled client cannot hold a connection, a budget share and a deadline. Unset:
     * {@link #defaultBodyReadTimeout} of the deadline.
     */
    Optional<Duration> bodyReadTimeout();

    /**
     * Three quarters of the deadline, at most 5 s: below the deadline, so a stalled body gets its 408 (and its
     * connection closed) rather than the deadline's 503, which invites the API server to send it again.
     */
    static Duration defaultBodyReadTimeout(Duration deadline) {
        Duration threeQuarters = deadline.multipliedBy(3).dividedBy(4);
        return threeQuarters.compareTo(Duration.ofSeconds(5)) < 0 ? threeQuarters : Duration.ofSeconds(5);
    }

    default AdmissionLimits limits() {
        return new AdmissionLimits(maxBodyBytes(), maxNestingDepth(), maxStringLength(), maxTokenCount());
    }
}
