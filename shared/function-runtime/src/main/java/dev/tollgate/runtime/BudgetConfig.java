package dev.tollgate.runtime;

import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The memory budget: how many body bytes may be in flight (read, decoded, reviewed) at once, across all requests.
 * A request that would exceed it is refused at once with 503, a {@code Status} body and {@code Retry-After}, so the
 * API server applies the webhook's failurePolicy instead of waiting on a function that is running out of heap.
 */
@ConfigMapping(prefix = "tollgate.budget")
public interface BudgetConfig {

    /**
     * Body bytes in flight at most. Unset: derived from the maximum heap as
     * {@code (max heap - heap-reserve-bytes) / heap-per-body-byte}, and never below one maximal body.
     * Env: TOLLGATE_BUDGET_IN_FLIGHT_BODY_BYTES.
     */
    Optional<Long> inFlightBodyBytes();

    /**
     * Heap one body byte costs while its review is served: the body buffer (1x), the decoded tree (8.8x for a pod
     * review of many containers) and a mutating policy's copy of the object (6.6x). Measured, see the runtime README.
     */
    @WithDefault("16")
    int heapPerBodyByte();

    /** Heap kept for everything but review bodies (Quarkus, metrics, the policies' own state). */
    @WithDefault("50331648")
    long heapReserveBytes();

    /** The Retry-After (seconds) sent with a 503. */
    @WithDefault("1")
    int retryAfterSeconds();
}
