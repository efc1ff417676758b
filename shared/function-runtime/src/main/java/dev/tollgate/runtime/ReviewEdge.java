package dev.tollgate.runtime;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import dev.tollgate.admission.ReviewDecodeException;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.common.vertx.ContextLocals;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.StreamResetException;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * Where a request meets the function, before its body is read: caller check (401), policy path (404), method (405),
 * content type and transfer coding (400), declared length (413) and the in-flight body budget (503 with
 * Retry-After). An admitted request is rerouted to the review function ({@link ReviewFunction}), whose answer's status
 * the edge applies as the response's headers are written. Until Funqy binds the body, the edge keeps the body-read
 * timeout (408) and the deadline (503 with Retry-After: nothing was decoded, so there is no verdict to give); its
 * failure handler answers what Funqy fails (a body it cannot bind) and closed connections. Every error is a
 * Kubernetes {@code Status}.
 */
@ApplicationScoped
public class ReviewEdge {

    /**
     * Before the body handler: the Quarkus HTTP reference ("Route order values") documents the body handler's order
     * as {@code Integer.MIN_VALUE + 1}, and a lower order runs first.
     */
    static final int EDGE_ORDER = Integer.MIN_VALUE;

    /**
     * The reroute to the review function: after every route Quarkus orders with the edge (in dev mode the live-reload
     * check, which on a restart hands the request, path included, to the new application: it must see the policy's
     * path), and before the body handler, which has the same order but is added after the Router event fires (Vert.x
     * Web runs routes of equal order in the order they were added). Rerouting after the body is read fails on HTTP/2.
     */
    static final int DISPATCH_ORDER = Integer.MIN_VALUE + 1;

    /**
     * Right after the body handler ({@code Integer.MIN_VALUE + 1} in the same table), before every route without an
     * order (Funqy's: Vert.x Web numbers those from 0 as they are added).
     */
    static final int BODY_ORDER = Integer.MIN_VALUE + 2;

    private static final Logger LOG = Logger.getLogger(ReviewEdge.class);
    private static final String CALL = ReviewInput.CALL;

    private final PolicyDirectory policies;
    private final ReviewCodecs codecs;
    private final CallerGate callers;
    private final ReviewMetrics metrics;
    private final AnswerRecorder recorder;
    private final DeadlineConfig deadline;
    private final BodyBudget budget;
    private final int retryAfterSeconds;
    private final Duration bodyReadTimeout;
    private final String nonApplicationRoot;
    /** The function paths served, for a 404's message: "/a, /b". */
    private final String served;

    ReviewEdge() {
        this.policies = null; // for CDI proxies
        this.codecs = null;
        this.callers = null;
        this.metrics = null;
        this.recorder = null;
        this.deadline = null;
        this.budget = null;
        this.retryAfterSeconds = 0;
        this.bodyReadTimeout = null;
        this.nonApplicationRoot = null;
        this.served = null;
    }

    @Inject
    public ReviewEdge(PolicyDirectory policies, ReviewCodecs codecs, AdmissionConfig config, CallerGate callers,
            ReviewMetrics metrics, AnswerRecorder recorder, DeadlineConfig deadline, BodyBudget budget,
            BudgetConfig budgetConfig, Config all) {
        this.policies = policies;
        this.codecs = codecs;
        this.callers = callers;
        this.metrics = metrics;
        this.recorder = recorder;
        this.deadline = deadline;
        this.budget = budget;
        this.retryAfterSeconds = budgetConfig.retryAfterSeconds();
        this.bodyReadTimeout = config.bodyReadTimeout()
                .orElseGet(() -> AdmissionConfig.defaultBodyReadTimeout(deadline.timeout()));
        if (bodyReadTimeout.isNegative() || bodyReadTimeout.isZero()) {
            throw new IllegalStateException("tollgate.admission.body-read-timeout must be positive, got "
                    + bodyReadTimeout);
        }
        String root = all.getOptionalValue("quarkus.http.non-application-root-path", String.class).orElse("q");
        this.nonApplicationRoot = "/" + root.replaceAll("^/+|/+$", "");
        java.util.TreeSet<String> names = new java.util.TreeSet<>(policies.admission().keySet());
        names.addAll(policies.conversions().keySet());
        this.served = String.join(", ", names.stream().map(n -> "/" + n).toList());
    }

    /**
     * False once this application has stopped. In dev mode a live reload stops it while a request it armed a timer for
     * is handed to the next one, which may take longer than the deadline to start: that timer must not answer.
     */
    private volatile boolean running = true;

    void stopped(@Observes ShutdownEvent event) {
        running = false;
    }

    /** Quarkus HTTP reference, "Using Vert.x Web Router": routes added by observing the Router. */
    void routes(@Observes Router router) {
        // Everything outside the non-application root (health, metrics) is a function path or an unknown one.
        String outside = "^(?!" + Pattern.quote(nonApplicationRoot) + "(?:/|$)).*";
        router.routeWithRegex(outside).order(EDGE_ORDER).handler(this::admit).failureHandler(this::failed);
        String review = "/" + ReviewFunction.NAME;
        router.routeWithRegex("^(?!" + Pattern.quote(review) + "$)" + outside.substring(1)).order(DISPATCH_ORDER)
                .handler(this::dispatch).failureHandler(this::failed);
        // An admitted review comes back rerouted to the review function: once its body is read (by the
        // application's body handler, or this route's own, which passes a body already read on: Vert.x Web
        // BodyHandler, 413 beyond the byte limit), the edge refuses what Funqy could not bind before Funqy sees it.
        BodyHandler body = BodyHandler.create(false).setBodyLimit(codecs.limits().maxBodyBytes());
        router.route(review).order(BODY_ORDER).handler(body).handler(this::bodyRead)
                .failureHandler(this::failed);
        String token = callers.usesPathToken() ? "/<path token>" : "";
        policies.admission().keySet().forEach(name -> LOG.infof("serving function %s at %s/%s", name, token, name));
        policies.conversions().keySet().forEach(name -> LOG.infof("serving conversion function %s at %s/%s", name,
                token, name));
    }

    /** On the event loop, before the body is read. */
    private void admit(RoutingContext ctx) {
        Call admitted = ctx.get(CALL);
        if (admitted != null) {
            // Rerouted to the review function: already admitted. Funqy sends 200; the answer's own status is set
            // as the headers are written (Vert.x Web RoutingContext#addHeadersEndHandler; a reroute drops those
            // added before it).
            ctx.addHeadersEndHandler(v -> {
                Answer answer = admitted.answer();
                if (answer != null && answer.status() != 200) {
                    ctx.response().setStatusCode(answer.status());
                }
            });
            ctx.next(); // on to the body handlers, then bodyRead
            return;
        }
        CallerGate.Admission admission = callers.admit(ctx, ctx.normalizedPath());
        if (!admission.admitted()) {
            Call call = new Call(null, codecs, "", () -> {
            });
            ctx.put(CALL, call);
            metrics.rejectedCaller(admission.failedCheck());
            call.claim(new Answer(401, new byte[0]));
            // A fixed answer: which check failed, and whether the path exists, stays unknown to the caller.
            send(ctx, 401, codecs.refusal(401, "Unauthorized").body(), false);
            return;
        }
        String path = admission.policyPath();
        Optional<ServedPolicy> policy = policies.serving(path);
        long[] timer = {-1};
        Call call = new Call(policy.orElse(null), codecs, admission.cluster(), () -> {
            if (timer[0] >= 0) {
                ctx.vertx().cancelTimer(timer[0]);
            }
        });
        ctx.put(CALL, call);
        if (policy.isEmpty()) {
            // Nothing of the request is echoed, here or below (issue 45): a path may hold a token after the first
            // (a URL with two, or a path token sent to a function that checks bearer tokens), a header value or a
            // method may be one, and the answer and the decision log both carry the message.
            refuse(ctx, call, 404, "no policy is served at the requested path; this function serves " + served);
            return;
        }
        if (ctx.request().method() != HttpMethod.POST) {
            ctx.response().putHeader(HttpHeaders.ALLOW, "POST");
            HttpMethod method = ctx.request().method();
            refuse(ctx, call, 405, "method " + (HttpMethod.values().contains(method) ? method + " " : "")
                    + "not allowed: POST " + call.policy.kind().expected());
            return;
        }
        String contentType = ctx.request().getHeader(HttpHeaders.CONTENT_TYPE);
        if (!isJson(contentType)) {
            refuse(ctx, call, 400, "Content-Type must be application/json, got "
                    + (contentType == null ? "none" : "another"));
            return;
        }
        String transferEncoding = ctx.request().getHeader(HttpHeaders.TRANSFER_ENCODING);
        String framingProblem = framingProblem(transferEncoding);
        if (framingProblem != null) {
            refuse(ctx, call, 400, framingProblem);
            return;
        }
        long maxBody = codecs.limits().maxBodyBytes();
        // A Content-Length beside a Transfer-Encoding does not frame the body (see framingProblem).
        long declared = transferEncoding != null ? -1
                : declaredLength(ctx.request().getHeader(HttpHeaders.CONTENT_LENGTH));
        if (declared > maxBody) {
            refuse(ctx, call, 413, "body of " + declared + " bytes exceeds the limit of " + maxBody + " bytes");
            return;
        }
        long reserve = declared >= 0 ? declared : maxBody;
        if (!budget.tryReserve(reserve)) {
            metrics.budgetRefused(call.functionLabel());
            ctx.response().putHeader("Retry-After", Integer.toString(retryAfterSeconds));
            CallResult refused = new CallResult.Refused(503, codecs.refusal(503, "function "
                    + call.functionLabel() + " is at its in-flight body budget (" + budget.capacity()
                    + " bytes); retry later").body(), "in-flight body budget exhausted");
            answer(ctx, call, refused, false, false);
            return;
        }
        call.holdBudget(() -> budget.release(reserve));
        ctx.addEndHandler(done -> call.responseEnded());
        ContextLocals.put(CALL, call);
        armTimer(ctx, call, timer);
        ctx.next();
    }

    /** On the event loop, after the edge's checks and before the body is read: on to the review function. */
    private void dispatch(RoutingContext ctx) {
        Call call = ctx.get(CALL);
        if (call != null && !call.answered()) {
            ctx.reroute("/" + ReviewFunction.NAME);
        }
    }

    /**
     * On the event loop, once the body is read: a body Jackson cannot bind (empty, whitespace only, no JSON value at
     * its start) is the client's fault and answered here with the codec's 400, so Funqy never fails on it (it would
     * log the client's mistake as an error); everything else goes on to the review function.
     */
    private void bodyRead(RoutingContext ctx) {
        Call call = ctx.get(CALL);
        if (call.answered()) {
            return; // the deadline or the body-read timeout answered while the body was arriving
        }
        Buffer body = ctx.body().buffer();
        call.received(body);
        ReviewDecodeException problem = codecs.unbindable(body, call.policy.kind().expected());
        if (problem == null) {
            ctx.next();
            return;
        }
        answer(ctx, call, codecs.refusal(problem.status(), problem.getMessage()), false, false);
    }

    /**
     * Arms the call's one timer for the next of its two limits: the body-read timeout while the body is still
     * arriving, and the deadline. One timer per request, not two: setting and cancelling Vert.x timers is a
     * measurable part of a review's cost at thousands of reviews per second.
     */
    private void armTimer(RoutingContext ctx, Call call, long[] timer) {
        long due = deadline.timeout().toMillis();
        if (!ctx.request().isEnded()) {
            due = Math.min(due, bodyReadTimeout.toMillis());
        }
        timer[0] = ctx.vertx().setTimer(Math.max(1, due - call.elapsedMicros() / 1000),
                id -> timerFired(ctx, call, timer));
    }

    /** On the event loop: the body has not been bound in time, or is still on its way (then armed again). */
    private void timerFired(RoutingContext ctx, Call call, long[] timer) {
        if (!running || call.answered() || call.isBound() || ctx.response().ended()) {
            return; // ended without this call's answer: in dev mode, a live reload handed the request on
        }
        long elapsedMillis = call.elapsedMicros() / 1000;
        boolean bodyPending = !ctx.request().isEnded();
        if (bodyPending && elapsedMillis >= bodyReadTimeout.toMillis()
                && bodyReadTimeout.compareTo(deadline.timeout()) < 0) {
            LOG.debugf("request body for %s did not arrive within %d ms", call.functionLabel(),
                    bodyReadTimeout.toMillis());
            answer(ctx, call, codecs.refusal(408, "the request body did not arrive within "
                    + bodyReadTimeout.toMillis() + " ms"), false, true);
        } else if (elapsedMillis >= deadline.timeout().toMillis()) {
            // Nothing decoded, so no verdict to give: the API server may retry after Retry-After.
            String message = "function " + call.functionLabel() + " could not read the review within the deadline of "
                    + deadline.timeout().toMillis() + " ms; retry later";
            ctx.response().putHeader("Retry-After", Integer.toString(retryAfterSeconds));
            metrics.deadlineOverrun(call.functionLabel());
            LOG.warnf("%s: answered 503", message);
            answer(ctx, call, codecs.refusal(503, message), true, bodyPending);
        } else {
            armTimer(ctx, call, timer); // the body arrived before its timeout; the deadline is still ahead
        }
    }

    /** Route failures: what Funqy could not bind or failed, the body handler's 413, and closed connections. */
    private void failed(RoutingContext ctx) {
        Call call = ctx.get(CALL);
        if (call == null) {
            call = new Call(null, codecs, "", () -> {
            });
        }
        Throwable failure = ctx.failure();
        if (ctx.response().closed() || clientWentAway(failure)) {
            recorder.clientGone(call, failure == null ? "connection closed" : failure.toString());
            return;
        }
        if (ctx.response().ended()) {
            return;
        }
        int status = ctx.statusCode() > 0 ? ctx.statusCode() : 500;
        CallResult result;
        if (status == 413) {
            result = codecs.refusal(413, "body exceeds the limit of " + codecs.limits().maxBodyBytes() + " bytes");
        } else if (call.policy != null && (status == 400 || cause(failure, ReviewDecodeException.class))) {
            // Funqy could not bind the body (not JSON, or none): the codec says what is wrong with it.
            Buffer body = ctx.body().buffer();
            ReviewDecodeException problem = codecs.problem(body == null ? new byte[0] : body.getBytes(),
                    call.policy.kind().expected());
            result = codecs.refusal(problem.status(), problem.getMessage());
        } else {
            LOG.errorf(failure, "request to function %s failed", call.functionLabel());
            result = codecs.refusal(status, dev.tollgate.admission.ReviewJson.statusText(status));
        }
        answer(ctx, call, result, false, false);
    }

    private void refuse(RoutingContext ctx, Call call, int status, String message) {
        answer(ctx, call, codecs.refusal(status, message), false, false);
    }

    /** Records {@code result} as the call's answer unless another was chosen, and writes it. */
    private void answer(RoutingContext ctx, Call call, CallResult result, boolean deadlineExceeded,
            boolean closeNow) {
        Answer answer = recorder.answer(call, result, deadlineExceeded);
        if (answer.body() == result.body()) {
            send(ctx, result.status(), result.body(), closeNow);
        }
    }

    /**
     * Writes an answer the edge gives itself. When the request body has not been read (an early refusal), an
     * HTTP/1.x connection cannot carry another request: the answer says {@code Connection: close}, the rest of the
     * body is read and dropped (a client that writes its whole body before reading, as most do, then gets the answer
     * instead of a broken pipe) and the connection closes when the body ends, or after the body-read timeout. For a
     * stalled body ({@code closeNow}) it closes at once. HTTP/2 forbids the Connection header; only the stream ends.
     */
    private void send(RoutingContext ctx, int status, byte[] body, boolean closeNow) {
        HttpServerResponse response = ctx.response();
        if (response.ended() || response.closed()) {
            return;
        }
        response.setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, "application/json");
        var request = ctx.request();
        if (request.version() == HttpVersion.HTTP_2 || (request.isEnded() && !closeNow)) {
            response.end(Buffer.buffer(body));
            return;
        }
        response.putHeader(HttpHeaders.CONNECTION, "close");
        var connection = request.connection();
        if (closeNow || request.isEnded()) {
            response.end(Buffer.buffer(body)).onComplete(done -> connection.close());
            return;
        }
        long closer = ctx.vertx().setTimer(bodyReadTimeout.toMillis(), id -> connection.close());
        request.handler(ignored -> {
        });
        request.endHandler(v -> {
            ctx.vertx().cancelTimer(closer);
            connection.close();
        });
        request.resume();
        response.end(Buffer.buffer(body));
    }

    private static boolean cause(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private static boolean clientWentAway(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof HttpClosedException || t instanceof StreamResetException
                    || t instanceof java.nio.channels.ClosedChannelException
                    || (t instanceof java.io.IOException && String.valueOf(t.getMessage()).contains("reset by peer"))
                    || "Connection was closed".equals(t.getMessage())) {
                return true;
            }
        }
        return false;
    }

    /**
     * RFC 9112 section 6.1 and 6.3: a request whose body length cannot be determined reliably (a transfer coding
     * other than a final {@code chunked}) is answered 400 and its connection closed. A request with both
     * Transfer-Encoding and Content-Length is framed by the Transfer-Encoding alone, as 6.3 allows: Netty already
     * drops such a Content-Length from a network request, and AWS Lambda's HTTP handler (quarkus-amazon-lambda-http)
     * marks every request it builds from a function-URL event {@code chunked} while keeping the event's
     * Content-Length, so refusing the pair would refuse every review on Lambda.
     */
    static String framingProblem(String transferEncoding) {
        if (transferEncoding == null) {
            return null;
        }
        String[] codings = transferEncoding.split(",");
        if (!codings[codings.length - 1].strip().equalsIgnoreCase("chunked")) {
            return "Transfer-Encoding other than chunked is not supported: send the body with Content-Length or "
                    + "Transfer-Encoding: chunked";
        }
        return null;
    }

    /** The declared Content-Length, or -1 when there is none (chunked, HTTP/2 without the header). */
    static long declaredLength(String contentLength) {
        if (contentLength == null) {
            return -1;
        }
        try {
            return Long.parseLong(contentLength.strip());
        } catch (NumberFormatException e) {
            return -1; // Netty refuses a malformed Content-Length before any handler runs
        }
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
