package dev.tollgate.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** Meters are registered once per label tuple; the Prometheus histogram is asserted in EndpointTest. */
class ReviewMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ReviewMetrics metrics = new ReviewMetrics(registry);

    @Test
    void repeatedReviewsCountOnTheSameMeters() {
        metrics.review("f", "east", "CREATE", "Pod", "allowed", "allowed", "enforce", Duration.ofMillis(5));
        metrics.review("f", "east", "CREATE", "Pod", "allowed", "allowed", "enforce", Duration.ofMillis(7));
        metrics.review("f", "east", "UPDATE", "Pod", "allowed", "allowed", "enforce", Duration.ofMillis(9));
        metrics.review("f", "east", "CREATE", "Pod", "denied", "denied", "enforce", Duration.ofMillis(1));
        metrics.review("f", "west", "CREATE", "Pod", "allowed", "allowed", "enforce", Duration.ofMillis(3));

        Counter created = registry.get("tollgate.reviews")
                .tags("function", "f", "cluster", "east", "operation", "CREATE", "kind", "Pod", "verdict", "allowed")
                .counter();
        assertEquals(2.0, created.count());
        assertEquals(1.0, registry.get("tollgate.reviews").tags("cluster", "west").counter().count());
        assertEquals("Admission reviews answered, by function, cluster, operation, kind, verdict, the policy's decision "
                + "and the enforcement mode",
                created.getId().getDescription());
        assertEquals(1.0, registry.get("tollgate.reviews").tags("operation", "UPDATE").counter().count());
        assertEquals(4, registry.get("tollgate.reviews").counters().size());

        Timer allowed = registry.get("tollgate.review.duration").tags("function", "f", "cluster", "east", "verdict",
                "allowed").timer();
        assertEquals(3, allowed.count());
        assertEquals(Duration.ofMillis(21).toNanos(), (long) allowed.totalTime(TimeUnit.NANOSECONDS));
        assertEquals("Time from a review's arrival to its answer", allowed.getId().getDescription());
        assertEquals(3, registry.get("tollgate.review.duration").timers().size());
    }

    @Test
    void whatThePolicyDecidedAndTheModeAreLabels() {
        metrics.review("f", "east", "CREATE", "Pod", "allowed", "denied", "warn", Duration.ofMillis(1));
        metrics.review("f", "east", "CREATE", "Pod", "allowed", "denied", "audit", Duration.ofMillis(1));
        metrics.review("f", "east", "CREATE", "Pod", "allowed", "allowed", "audit", Duration.ofMillis(1));

        assertEquals(1.0, registry.get("tollgate.reviews").tags("verdict", "allowed", "decision", "denied",
                "enforcement", "warn").counter().count());
        assertEquals(2.0, registry.get("tollgate.reviews").tags("enforcement", "audit").counters().stream()
                .mapToDouble(Counter::count).sum());
        assertEquals(3, registry.get("tollgate.reviews").counters().size());
        // The latency histogram keeps its labels: one series per function, cluster and answered verdict.
        assertEquals(1, registry.get("tollgate.review.duration").timers().size());
    }

    @Test
    void kindsPastTheCapAreCountedAsOther() {
        for (int i = 0; i < ReviewMetrics.MAX_KINDS; i++) {
            metrics.review("f", "east", "CREATE", "Kind" + i, "allowed", "allowed", "enforce", Duration.ofMillis(1));
        }
        metrics.review("f", "east", "CREATE", "OneTooMany", "allowed", "allowed", "enforce", Duration.ofMillis(1));
        metrics.review("f", "east", "CREATE", "AnotherOne", "allowed", "allowed", "enforce", Duration.ofMillis(1));
        metrics.review("f", "east", "CREATE", "Kind0", "allowed", "allowed", "enforce", Duration.ofMillis(1));

        assertNull(registry.find("tollgate.reviews").tag("kind", "OneTooMany").counter());
        assertEquals(2.0, registry.get("tollgate.reviews").tag("kind", ReviewMetrics.OTHER).counter().count());
        assertEquals(2.0, registry.get("tollgate.reviews").tag("kind", "Kind0").counter().count());
        assertEquals(ReviewMetrics.MAX_KINDS + 1, registry.get("tollgate.reviews").counters().size());
    }
}
