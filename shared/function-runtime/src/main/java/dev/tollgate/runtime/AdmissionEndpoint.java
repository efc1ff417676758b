package dev.tollgate.runtime;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import dev.tollgate.admission.AdmissionCodec;
import dev.tollgate.admission.AdmissionHandler;
import dev.tollgate.admission.AdmissionLimits;
import dev.tollgate.admission.AdmissionPolicy;
import dev.tollgate.admission.AdmissionReview;
import dev.tollgate.admission.HandlerResult;
import dev.tollgate.admission.ReviewDecodeException;
import dev.tollgate.admission.Verdict;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * Serves every policy at {@code /<name>} (and below, for policies with sub-paths) over Quarkus HTTP; with a path
 * token at {@code /<token>/<name>}. This is all the HTTP code a function has, in this order: caller check (401),
 * policy path (404), method (405), content type (400), body limit (413), then decoding and the policy on a worker
 * thread under the deadline, and JSON error bodies for anything that goes wrong. Every answer is counted and logged.
 *
 * <p>The deadline: a timer on the event loop answers for the policy when it has not answered in time (500 by
 * default, so failurePolicy applies) and interrupts it; whichever of the two answers first wins, the other's
 * result is dropped. A policy that ignores the interrupt keeps its worker thread until it returns; those are
 * counted in {@code tollgate_abandoned_policies_running}.
 */
@ApplicationScoped
public class AdmissionEndpoint {

    private static final Logger LOG = Logger.getLogger(AdmissionEndpoint.class);
    private static final String CALL = "tollgate.call";

    private final PolicyDirectory policies;
    private final AdmissionHandler handler;
    private final CallerGate gate;
    private final ReviewMetrics metrics;
    private final DecisionLog decisions;
    private final DeadlineConfig deadline;
    private final String nonApplicationRoot;

    @Inject
    public AdmissionEndpoint(PolicyDirectory policies, AdmissionConfig config, CallerGate gate,
            ReviewMetrics metrics, DecisionLog decisions, DeadlineConfig deadline, Config all) {
        this.policies = policies;
        this.handler = new AdmissionHandler(new AdmissionCodec(new AdmissionLimits(config.maxBodyBytes(),
                config.maxNestingDepth(), config.maxStringLength())));
        this.gate = gate;
        this.metrics = metrics;
        this.decisions = decisions;
        this.deadline = deadline;
        if (deadline.timeout().isNegative() || deadline.timeout().isZero()) {
            throw new IllegalStateException("tollgate.deadline.timeout must be positive, got " + deadline.timeout());
        }
        String root = all.getOptionalValue("quarkus.http.non-application-root-path", String.class).orElse("q");
        this.nonApplicationRoot = "/" + root.replaceAll("^/+|/+$", "");
    }

    public AdmissionHandler handler() {
        return handler;
    }

    /** One request's state, shared by the worker and the deadline timer. */
    private static final class Call {
        final long start = System.nanoTime();
        final AtomicBoolean answered = new AtomicBoolean();
        volatile AdmissionPolicy policy;
        volatile AdmissionReview review;
        volatile long timer = -1;
        private Thread worker;
        private boolean workerDone;
        private boolean abandoned;

        synchronized void enter() {
            worker = Thread.currentThread();
        }

        synchronized void leave() {
            worker = null;
            Thread.interrupted(); // a late interrupt must not leak into this thread's next task
        }

        /** The deadline answered: interrupt the policy if it runs, and count it until the worker returns. */
        synchronized void abandon(ReviewMetrics metrics) {
            if (workerDone) {
                return;
            }
            abandoned = true;
            metrics.abandonedStarted();
            if (worker != null) {
                worker.interrupt();
            }
        }

        /** The worker is done with this call. */
        synchronized void finish(ReviewMetrics metrics) {
            workerDone = true;
            if (abandoned) {
                metrics.abandonedFinished();
            }
        }

        long elapsedMicros() {
            return (System.nanoTime() - start) / 1000;
        }
    }

    void routes(@Observes Router router) {
        long limit = handler.codec().limits().maxBodyBytes();
        // Everything outside the non-application root (health, metrics) is a policy path or an unknown one.
        String outside = "^(?!" + Pattern.quote(nonApplicationRoot) + "(?:/|$)).*";
        // Two routes on the same paths: Vert.x wants the body handler first on its route, and the caller check
        // must come before any body is read. admit() passes on to the second route.
        router.routeWithRegex(outside)
                .handler(this::admit)
                .failureHandler(this::failure);
        router.routeWithRegex(outside)
                .handler(BodyHandler.create(false).setBodyLimit(limit))
                .handler(this::startDeadline)
                .blockingHandler(this::review, false)
                .failureHandler(this::failure);
        for (AdmissionPolicy policy : policies.all()) {
            LOG.infof("serving policy %s at %s/%s", policy.name(), gate.usesPathToken() ? "/<path token>" : "",
                    policy.name());
        }
    }

    /** On the event loop, before the body is read: caller, path, method, content type. */
    private void admit(RoutingContext ctx) {
        Call call = new Call();
        ctx.put(CALL, call);
        CallerGate.Admission admission = gate.admit(ctx, ctx.normalizedPath());
        if (!admission.admitted()) {
            metrics.rejectedCaller(admission.failedCheck());
            // A fixed answer: which check failed, and whether the path exists, stays unknown to the caller.
            ctx.response().setStatusCode(401)
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .putHeader(HttpHeaders.CONNECTION, "close")
                    .end(Buffer.buffer(handler.codec().errorBody(401, "Unauthorized")));
            return;
        }
        String path = admission.policyPath();
        Optional<? extends AdmissionPolicy> policy = policies.resolve(path);
        if (policy.isEmpty()) {
            // The path token (if any) is not echoed back.
            answer(ctx, call, "", handler.badRequest(404, "no policy is served at " + path), false);
            return;
        }
        call.policy = policy.get();
        if (ctx.request().method() != HttpMethod.POST) {
            ctx.response().putHeader(HttpHeaders.ALLOW, "POST");
            answer(ctx, call, call.policy.name(), handler.badRequest(405, "method " + ctx.request().method()
                    + " not allowed: POST an AdmissionReview"), false);
            return;
        }
        String contentType = ctx.request().getHeader(HttpHeaders.CONTENT_TYPE);
        if (!isJson(contentType)) {
            answer(ctx, call, call.policy.name(), handler.badRequest(400, "Content-Type must be application/json, "
                    + "got " + (contentType == null ? "none" : "'" + contentType + "'")), false);
            return;
        }
        ctx.next();
    }

    /** On the event loop, once the body is in: arm the timer for what is left of the deadline. */
    private void startDeadline(RoutingContext ctx) {
        Call call = ctx.get(CALL);
        long left = deadline.timeout().toMillis() - call.elapsedMicros() / 1000;
        call.timer = ctx.vertx().setTimer(Math.max(1, left), id -> deadlineReached(ctx, call));
        ctx.next();
    }

    /** On a worker thread: decode, then the policy. */
    private void review(RoutingContext ctx) {
        Call call = ctx.get(CALL);
        try {
            if (call.answered.get()) {
                return; // the deadline passed while this request waited for a worker
            }
            Buffer body = ctx.body().buffer();
            AdmissionReview review;
            try {
                review = handler.codec().decode(body == null ? new byte[0] : body.getBytes());
            } catch (ReviewDecodeException e) {
                answer(ctx, call, call.policy.name(), handler.badRequest(e.status(), e.getMessage()), false);
                return;
            }
            call.review = review;
            HandlerResult result;
            call.enter();
            try {
                result = handler.handle(review, call.policy);
            } finally {
                call.leave();
            }
            if (!answer(ctx, call, call.policy.name(), result, false)) {
                LOG.warnf("policy %s returned after %d ms for uid=%s; its answer was dropped, the deadline had "
                        + "already answered", call.policy.name(), call.elapsedMicros() / 1000,
                        review.request().uid());
            }
        } finally {
            call.finish(metrics);
        }
    }

    /** On the event loop, when the deadline passes before the policy answered. */
    private void deadlineReached(RoutingContext ctx, Call call) {
        if (call.answered.get()) {
            return;
        }
        String function = call.policy.name();
        HandlerResult result = timeoutResult(call);
        if (answer(ctx, call, function, result, true)) {
            metrics.deadlineOverrun(function);
            call.abandon(metrics);
            LOG.warnf("policy %s did not answer within the deadline of %d ms for uid=%s: answered %d (%s)",
                    function, deadline.timeout().toMillis(), call.review == null ? "" : call.review.request().uid(),
                    result.status(), deadline.onTimeout().name().toLowerCase());
        }
    }

    private HandlerResult timeoutResult(Call call) {
        String function = call.policy.name();
        String message = "policy " + function + " did not answer within the deadline of "
                + deadline.timeout().toMillis() + " ms";
        AdmissionReview review = call.review;
        if (review == null || deadline.onTimeout() == DeadlineConfig.OnTimeout.ERROR) {
            // Not yet decoded, or no verdict configured: an error, so the webhook's failurePolicy decides.
            return new HandlerResult(500, handler.codec().errorBody(500, message), HandlerResult.Outcome.ERROR,
                    review, null, 0, message);
        }
        Verdict verdict = deadline.onTimeout() == DeadlineConfig.OnTimeout.ALLOW
                ? Verdict.allow().withWarning(message + "; allowed by the configured deadline verdict")
                : Verdict.deny(403, message + "; denied by the configured deadline verdict");
        byte[] body = handler.codec().encode(review.version(), review.request().uid(), verdict, null);
        return new HandlerResult(200, body, verdict.allowed() ? HandlerResult.Outcome.ALLOWED
                : HandlerResult.Outcome.DENIED, review, verdict, 0, "");
    }

    private void failure(RoutingContext ctx) {
        int status = ctx.statusCode() > 0 ? ctx.statusCode() : 500;
        String message = status == 413 ? "body exceeds the limit of " + handler.codec().limits().maxBodyBytes()
                + " bytes" : AdmissionCodec.statusText(status);
        if (ctx.failure() != null) {
            LOG.errorf(ctx.failure(), "request to policy path failed");
        }
        Call call = ctx.get(CALL);
        if (call == null) {
            call = new Call();
        }
        String function = call.policy == null ? "" : call.policy.name();
        HandlerResult result = status >= 500 ? new HandlerResult(status, handler.codec().errorBody(status, message),
                HandlerResult.Outcome.ERROR, call.review, null, 0, message) : handler.badRequest(status, message);
        if (!ctx.response().ended()) {
            answer(ctx, call, function, result, false);
        }
    }

    /**
     * Counts and logs the answer, then sends it, unless another answer was already sent.
     *
     * @return false when another answer won (the deadline, or the policy)
     */
    private boolean answer(RoutingContext ctx, Call call, String function, HandlerResult result,
            boolean deadlineExceeded) {
        if (!call.answered.compareAndSet(false, true)) {
            return false;
        }
        if (call.timer >= 0) {
            ctx.vertx().cancelTimer(call.timer);
        }
        // Count and log before sending, so whoever reads the answer also finds it in the metrics and the log.
        long micros = call.elapsedMicros();
        String verdict = verdictLabel(result.outcome());
        if (result.outcome() == HandlerResult.Outcome.BAD_REQUEST) {
            metrics.badRequest(function.isEmpty() ? "none" : function, result.status());
        } else {
            var request = result.review() == null ? null : result.review().request();
            metrics.review(function, request == null ? "none" : request.operation().name(),
                    request == null ? "none" : request.kind().kind(), verdict, Duration.ofNanos(micros * 1000));
        }
        decisions.log(function, result, verdict, micros, deadlineExceeded);
        if (!deadlineExceeded && micros >= deadline.slowThreshold().toNanos() / 1000
                && result.outcome() != HandlerResult.Outcome.BAD_REQUEST) {
            LOG.warnf("slow review: policy %s took %d ms for uid=%s (slow threshold %d ms, deadline %d ms)",
                    function, micros / 1000, result.review() == null ? "" : result.review().request().uid(),
                    deadline.slowThreshold().toMillis(), deadline.timeout().toMillis());
        }
        if (!ctx.response().ended() && !ctx.response().closed()) {
            ctx.response()
                    .setStatusCode(result.status())
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .end(Buffer.buffer(result.body()));
        }
        return true;
    }

    static String verdictLabel(HandlerResult.Outcome outcome) {
        return outcome.label();
    }

    /** application/json, with or without parameters such as charset. */
    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semi = contentType.indexOf(';');
        String type = (semi < 0 ? contentType : contentType.substring(0, semi)).trim();
        return type.equalsIgnoreCase("application/json");
    }
}
