package dev.tollgate.runtime;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The internal per-request deadline. Terraform derives {@code timeout} from the webhook's timeoutSeconds minus the
 * cold-start and network budget, so the function answers before the API server gives up.
 */
@ConfigMapping(prefix = "tollgate.deadline")
public interface DeadlineConfig {

    /**
     * Time from the request's arrival to the answer. Env: TOLLGATE_DEADLINE_TIMEOUT (e.g. 4000ms, PT2.5S). The
     * default is what Terraform's default budget renders for the shipped functions' declared timeoutSeconds, so a run
     * without Terraform (a local run, knative/*.yaml applied as committed) keeps the same deadline (checked by
     * shared/terraform-tests RenderedConfigurationsTest).
     */
    @WithDefault("4s")
    Duration timeout();

    /** What to answer when a policy overruns: error (HTTP 500, failurePolicy applies), allow or deny. */
    @WithDefault("error")
    OnTimeout onTimeout();

    /** Reviews slower than this are logged as slow (and those over the deadline always are). */
    @WithDefault("1s")
    Duration slowThreshold();

    enum OnTimeout {
        ERROR, ALLOW, DENY
    }
}
