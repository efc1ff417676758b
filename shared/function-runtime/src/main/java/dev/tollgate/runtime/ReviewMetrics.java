package dev.tollgate.runtime;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The function's Prometheus metrics (served at {@code /q/metrics}):
 * <ul>
 * <li>{@code tollgate_reviews_total{function,cluster,operation,kind,verdict,decision,enforcement}}: answered
 * reviews; verdict is what was answered (allowed, denied, patched or error), decision what the policy decided, and
 * enforcement the mode that turned one into the other (enforce, warn, audit; "none" where no review was decoded)</li>
 * <li>{@code tollgate_review_duration_seconds{function,cluster,verdict}}: latency histogram, arrival to answer</li>
 * <li>{@code tollgate_bad_requests_total{function,status}}: requests refused before a policy ran (4xx)</li>
 * <li>{@code tollgate_budget_refused_total{function}}: 503s for an exhausted in-flight body budget</li>
 * <li>{@code tollgate_in_flight_body_bytes{}}: body bytes reserved by requests in flight ({@link BodyBudget})</li>
 * <li>{@code tollgate_rejected_callers_total{check}}: 401s, by the check that failed</li>
 * <li>{@code tollgate_deadline_overruns_total{function}}: policies abandoned at the deadline</li>
 * <li>{@code tollgate_abandoned_policies_running{}}: abandoned policies that have not returned yet</li>
 * </ul>
 * Label values come from a fixed vocabulary, except {@code kind}, which the request names: it is capped at
 * {@value #MAX_KINDS} distinct values (then "other") so a caller cannot grow the metric set without bound.
 * {@code cluster} is the caller's cluster, one of the configured ones ({@link CallerGate#clusters()}): the caller's
 * credential names it, never the request.
 */
@ApplicationScoped
public class ReviewMetrics {

    static final int MAX_KINDS = 100;
    static final String OTHER = "other";

    private final MeterRegistry registry;
    private final Set<String> kinds = ConcurrentHashMap.newKeySet();
    // Micrometer builds and sorts a Meter.Id and looks it up on every builder call, so review() registers each label
    // tuple once. Bounded: function, operation, verdict, decision and enforcement are fixed vocabularies and kind is
    // capped.
    private final Map<ReviewLabels, ReviewMeters> reviewMeters = new ConcurrentHashMap<>();
    private final AtomicInteger abandonedRunning = new AtomicInteger();

    ReviewMetrics() {
        this.registry = null; // for CDI proxies
    }

    @Inject
    public ReviewMetrics(MeterRegistry registry) {
        this.registry = registry;
        registry.gauge("tollgate.abandoned.policies.running", abandonedRunning);
    }

    public void review(String function, String cluster, String operation, String kind, String verdict,
            String decision, String enforcement, Duration latency) {
        ReviewMeters meters = reviewMeters.computeIfAbsent(new ReviewLabels(function, cluster, operation,
                boundedKind(kind), verdict, decision, enforcement), this::registerReview);
        meters.reviews().increment();
        meters.duration().record(latency);
    }

    private ReviewMeters registerReview(ReviewLabels labels) {
        Counter reviews = Counter.builder("tollgate.reviews")
                .description("Admission reviews answered, by function, cluster, operation, kind, verdict, the "
                        + "policy's decision and the enforcement mode")
                .tag("function", labels.function()).tag("cluster", labels.cluster())
                .tag("operation", labels.operation()).tag("kind", labels.kind())
                .tag("verdict", labels.verdict()).tag("decision", labels.decision())
                .tag("enforcement", labels.enforcement())
                .register(registry);
        Timer duration = Timer.builder("tollgate.review.duration")
                .description("Time from a review's arrival to its answer")
                .tag("function", labels.function()).tag("cluster", labels.cluster())
                .tag("verdict", labels.verdict())
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(30))
                .register(registry);
        return new ReviewMeters(reviews, duration);
    }

    public void badRequest(String function, int status) {
        Counter.builder("tollgate.bad.requests")
                .description("Requests refused before a policy ran (malformed, too large, wrong method or path)")
                .tag("function", function).tag("status", Integer.toString(status))
                .register(registry).increment();
    }

    public void budgetRefused(String function) {
        Counter.builder("tollgate.budget.refused")
                .description("Requests refused with 503 because the in-flight body budget was exhausted")
                .tag("function", function)
                .register(registry).increment();
    }

    public void rejectedCaller(String check) {
        Counter.builder("tollgate.rejected.callers")
                .description("Callers refused with 401, by the check that failed")
                .tag("check", check)
                .register(registry).increment();
    }

    public void deadlineOverrun(String function) {
        Counter.builder("tollgate.deadline.overruns")
                .description("Policies abandoned because they did not answer within the deadline")
                .tag("function", function)
                .register(registry).increment();
    }

    void abandonedStarted() {
        abandonedRunning.incrementAndGet();
    }

    void abandonedFinished() {
        abandonedRunning.decrementAndGet();
    }

    private String boundedKind(String kind) {
        if (kinds.contains(kind)) {
            return kind;
        }
        if (kinds.size() >= MAX_KINDS) {
            return OTHER;
        }
        kinds.add(kind);
        return kind;
    }

    private record ReviewLabels(String function, String cluster, String operation, String kind, String verdict,
            String decision, String enforcement) {
    }

    private record ReviewMeters(Counter reviews, Timer duration) {
    }
}
