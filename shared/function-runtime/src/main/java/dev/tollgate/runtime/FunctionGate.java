package dev.tollgate.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.tollgate.admission.AdmissionCodec;
import dev.tollgate.admission.AdmissionHandler;
import dev.tollgate.admission.AdmissionPolicy;
import dev.tollgate.admission.AdmissionReview;
import dev.tollgate.admission.HandlerResult;
import dev.tollgate.admission.ReviewDecodeException;
import dev.tollgate.admission.Verdict;
import dev.tollgate.admission.conversion.ConversionCodec;
import dev.tollgate.admission.conversion.ConversionHandler;
import dev.tollgate.admission.conversion.ConversionPolicy;
import dev.tollgate.admission.conversion.ConversionResult;
import dev.tollgate.admission.conversion.ConversionReview;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.smallrye.common.vertx.ContextLocals;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.StreamResetException;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The shared layer around Funqy HTTP's routes: everything a webhook needs that Funqy does not do, for admission and
 * CRD conversion functions alike (one gate, one call state, one way to claim, count and log an answer). A request to a
 * function path takes this way:
 * <ol>
 * <li>{@link #admit} (before Quarkus's body handler, so before any body byte is read): caller check (401), policy
 * path (404), method (405), content type (400), transfer coding (400), declared length (413) and the in-flight body
 * budget (503 with Retry-After); then the deadline and the body-read timer are armed, and a request to a path
 * token or a sub-path ({@code /<token>/<name>}, {@code /pod-security/<mode>/...}) is rerouted to Funqy's
 * {@code /<name>};</li>
 * <li>Quarkus's body handler reads the body (413 past the limit);</li>
 * <li>{@link #bodyRead}: an empty or non-object body is answered 400 here, since Funqy would answer it with an empty
 * 400 and an ERROR stack trace;</li>
 * <li>Funqy's route makes the function's input, an {@link IncomingReview} (an {@link IncomingConversion} for a
 * conversion function), without parsing the body on the event loop (see {@link FunqyFunctions}), and calls the
 * function's {@code @Funq} method on a worker thread, which calls {@code serve}: the codec decodes the body and the
 * policy runs, under the deadline; the gate writes the answer from that worker (with its status, which Funqy cannot
 * set) and the function's Uni never emits, so Funqy writes nothing.</li>
 * </ol>
 * Errors are Kubernetes {@code Status} bodies. Every answer is counted and logged once, just before it is sent; a
 * request whose client went away is logged at DEBUG and not recorded as answered.
 *
 * <p>The deadline: armed when the request's headers arrive, a timer on the event loop answers for the policy when it
 * has not answered in time (500 by default, so failurePolicy applies) and interrupts it; whichever of the two claims
 * the call first answers, and the other's answer is dropped (the function then returns a Uni that never emits, so
 * Funqy writes nothing). A policy that ignores the interrupt keeps its worker thread until it returns; those are
 * counted in {@code tollgate_abandoned_policies_running}.
 */
@ApplicationScoped
public class FunctionGate {

    /** Before Quarkus's body handler, whose order is {@code RouteConstants.ROUTE_ORDER_BODY_HANDLER} (MIN + 1). */
    static final int GATE_ORDER = Integer.MIN_VALUE;
    /** After the body handler; Funqy's routes carry no order, so they come after this one. */
    static final int BODY_READ_ORDER = Integer.MIN_VALUE + 2;
    /** The codec used when a review somehow arrives without a call (answered 500 by {@link IncomingReview}). */
    static final AdmissionCodec DEFAULT_CODEC = new AdmissionCodec();
    static final ConversionCodec DEFAULT_CONVERSION_CODEC = new ConversionCodec(DEFAULT_CODEC);

    private static final Logger LOG = Logger.getLogger(FunctionGate.class);
    private static final String CALL = IncomingReview.CALL;

    private final PolicyDirectory policies;
    private final AdmissionHandler handler;
    private final ConversionHandler conversions;
    private final CallerGate callers;
    private final ReviewMetrics metrics;
    private final DecisionLog decisions;
    private final DeadlineConfig deadline;
    private final BodyBudget budget;
    private final int retryAfterSeconds;
    private final Duration bodyReadTimeout;
    private final String nonApplicationRoot;

    FunctionGate() {
        // for CDI proxies
        this.policies = null;
        this.handler = null;
        this.conversions = null;
        this.callers = null;
        this.metrics = null;
        this.decisions = null;
        this.deadline = null;
        this.budget = null;
        this.retryAfterSeconds = 0;
        this.bodyReadTimeout = null;
        this.nonApplicationRoot = null;
    }

    @Inject
    public FunctionGate(PolicyDirectory policies, AdmissionConfig config, CallerGate callers, ReviewMetrics metrics,
            DecisionLog decisions, DeadlineConfig deadline, BodyBudget budget, BudgetConfig budgetConfig,
            Config all) {
        this.policies = policies;
        this.handler = new AdmissionHandler(new AdmissionCodec(config.limits()));
        // Same limits, parser and error bodies for ConversionReviews.
        this.conversions = new ConversionHandler(new ConversionCodec(handler.codec()));
        this.callers = callers;
        this.metrics = metrics;
        this.decisions = decisions;
        this.deadline = deadline;
        this.budget = budget;
        this.retryAfterSeconds = budgetConfig.retryAfterSeconds();
        this.bodyReadTimeout = config.bodyReadTimeout();
        if (deadline.timeout().isNegative() || deadline.timeout().isZero()) {
            throw new IllegalStateException("tollgate.deadline.timeout must be positive, got " + deadline.timeout());
        }
        if (bodyReadTimeout.isNegative() || bodyReadTimeout.isZero()) {
            throw new IllegalStateException("tollgate.admission.body-read-timeout must be positive, got "
                    + bodyReadTimeout);
        }
        String root = all.getOptionalValue("quarkus.http.non-application-root-path", String.class).orElse("q");
        this.nonApplicationRoot = "/" + root.replaceAll("^/+|/+$", "");
    }


    AdmissionCodec codec() {
        return handler.codec();
    }

    ConversionCodec conversionCodec() {
        return conversions.codec();
    }

    void routes(@Observes Router router) {
        // Everything outside the non-application root (health, metrics) is a function path or an unknown one.
        String outside = "^(?!" + Pattern.quote(nonApplicationRoot) + "(?:/|$)).*";
        router.routeWithRegex(outside).order(GATE_ORDER)
                .handler(this::admit)
                .failureHandler(this::failure);
        router.routeWithRegex(outside).order(BODY_READ_ORDER)
                .handler(this::bodyRead);
        FunqyFunctions.serveWithCodec(policies, handler.codec());
        String token = callers.usesPathToken() ? "/<path token>" : "";
        for (AdmissionPolicy policy : policies.all()) {
            LOG.infof("serving function %s at %s/%s (Funqy HTTP)", policy.name(), token, policy.name());
        }
        for (ConversionPolicy policy : policies.conversions()) {
            LOG.infof("serving conversion function %s at %s/%s (Funqy HTTP)", policy.name(), token, policy.name());
        }
    }

    /** On the event loop, before the body is read. */
    private void admit(RoutingContext ctx) {
        if (ctx.get(CALL) != null) {
            ctx.next(); // rerouted to Funqy's path: already admitted
            return;
        }
        ReviewCall call = new ReviewCall(ctx, this);
        ctx.put(CALL, call);
        CallerGate.Admission admission = callers.admit(ctx, ctx.normalizedPath());
        if (!admission.admitted()) {
            metrics.rejectedCaller(admission.failedCheck());
            call.answered.set(true);
            // A fixed answer: which check failed, and whether the path exists, stays unknown to the caller.
            send(call, 401, codec().errorBody(401, "Unauthorized"), false);
            return;
        }
        String path = admission.policyPath();
        Optional<ServedPolicy> policy = policies.serving(path);
        if (policy.isEmpty()) {
            // The path token (if any) is not echoed back.
            refuse(call, refusal(404, "no policy is served at " + path));
            return;
        }
        call.policy = policy.get();
        call.functionName = PolicyDirectory.functionName(path);
        if (ctx.request().method() != HttpMethod.POST) {
            ctx.response().putHeader(HttpHeaders.ALLOW, "POST");
            refuse(call, refusal(405, "method " + ctx.request().method() + " not allowed: POST "
                    + call.policy.expectedBody()));
            return;
        }
        String contentType = ctx.request().getHeader(HttpHeaders.CONTENT_TYPE);
        if (!isJson(contentType)) {
            refuse(call, refusal(400, "Content-Type must be application/json, got "
                    + (contentType == null ? "none" : "'" + contentType + "'")));
            return;
        }
        String transferEncoding = ctx.request().getHeader(HttpHeaders.TRANSFER_ENCODING);
        String framingProblem = framingProblem(transferEncoding);
        if (framingProblem != null) {
            refuse(call, refusal(400, framingProblem));
            return;
        }
        long maxBody = codec().limits().maxBodyBytes();
        // A Content-Length beside a Transfer-Encoding does not frame the body (see framingProblem).
        long declared = transferEncoding != null ? -1
                : declaredLength(ctx.request().getHeader(HttpHeaders.CONTENT_LENGTH));
        if (declared > maxBody) {
            refuse(call, refusal(413, "body of " + declared + " bytes exceeds the limit of " + maxBody
                    + " bytes"));
            return;
        }
        long reserve = declared >= 0 ? declared : maxBody;
        if (!budget.tryReserve(reserve)) {
            metrics.budgetRefused(call.functionLabel());
            ctx.response().putHeader("Retry-After", Integer.toString(retryAfterSeconds));
            refuse(call, new CallResult.Refused(503, codec().errorBody(503, "function " + call.functionLabel()
                    + " is at its in-flight body budget (" + budget.capacity() + " bytes); retry later"),
                    "in-flight body budget exhausted"));
            return;
        }
        AtomicBoolean released = new AtomicBoolean();
        ctx.addEndHandler(done -> {
            if (released.compareAndSet(false, true)) {
                budget.release(reserve);
            }
        });
        ContextLocals.put(CALL, call);
        armTimer(call);
        String funqyPath = "/" + call.functionName;
        if (ctx.normalizedPath().equals(funqyPath)) {
            ctx.next();
        } else {
            ctx.reroute(funqyPath);
        }
    }

    /** On the event loop, once the body is in, before Funqy's route. */
    private void bodyRead(RoutingContext ctx) {
        ReviewCall call = ctx.get(CALL);
        if (call == null) {
            ctx.next();
            return;
        }
        if (call.answered.get()) {
            return; // the deadline or the body-read timer answered while the body arrived
        }
        Buffer body = ctx.body().buffer();
        int first = firstSignificantByte(body);
        if (first != '{') {
            // Funqy would log a stack trace and answer an empty 400 for these; the codec says what is wrong.
            ReviewDecodeException problem = decodeProblem(body, call.policy.expectedBody());
            refuse(call, refusal(problem.status(), problem.getMessage()));
            return;
        }
        call.dispatched = true;
        ctx.next();
    }

    /** On Funqy's worker thread, from an admission function's {@code @Funq} method. */
    Uni<ReviewAnswer> serve(ReviewCall call, IncomingReview in, AdmissionPolicy function) {
        return serve(call, function.name(), () -> {
            if (!(call.policy instanceof ServedPolicy.Admission served)) {
                return kindMismatch(call, function.name());
            }
            AdmissionReview review = in.decode();
            call.review = review;
            return new CallResult.Admission(handler.handle(review, served.policy()));
        });
    }

    /** On Funqy's worker thread, from a conversion function's {@code @Funq} method. */
    Uni<ReviewAnswer> serve(ReviewCall call, IncomingConversion in, ConversionPolicy function) {
        return serve(call, function.name(), () -> {
            if (!(call.policy instanceof ServedPolicy.Conversion served)) {
                return kindMismatch(call, function.name());
            }
            ConversionReview review = in.decode();
            call.conversion = review;
            return new CallResult.Conversion(conversions.handle(review, served.policy()));
        });
    }

    /** Decodes the body and runs the policy on it; a body the codec refuses is the call's 400 or 413 answer. */
    private interface PolicyRun {
        CallResult run() throws ReviewDecodeException;
    }

    /**
     * Runs {@code policy} (the body's decoding and the review's handling) for the function named {@code function}
     * unless the call is already answered, then claims the answer and writes it.
     */
    private Uni<ReviewAnswer> serve(ReviewCall call, String function, PolicyRun policy) {
        try {
            if (call.answered.get()) {
                return Uni.createFrom().nothing(); // the deadline passed while this request waited for a worker
            }
            CallResult result;
            if (!function.equals(call.functionName)) {
                String message = "function " + function + " was called for " + call.functionName;
                LOG.error(message);
                result = new CallResult.Refused(500, codec().errorBody(500, message), message);
            } else {
                call.enter();
                try {
                    result = policy.run();
                } catch (ReviewDecodeException refused) {
                    result = refusal(refused.status(), refused.getMessage());
                } finally {
                    call.leave();
                }
            }
            if (claim(call, result, false)) {
                // Written here, on the worker that ran the policy: Funqy would first hop to another worker
                // (emitOn) and could only send 200.
                send(call, result.status(), result.body(), false);
            } else if (!call.uid().isEmpty()) {
                LOG.warnf("policy %s returned after %d ms for uid=%s; its answer was dropped, the deadline had "
                        + "already answered", call.functionLabel(), call.elapsedMicros() / 1000, call.uid());
            }
            return Uni.createFrom().nothing();
        } finally {
            call.finish(metrics);
        }
    }

    /** A function's name matched the path, but it is the other kind of function (cannot happen: names are unique). */
    private CallResult kindMismatch(ReviewCall call, String function) {
        String message = "function " + function + " does not serve the review type of " + call.functionName;
        LOG.error(message);
        return new CallResult.Refused(500, codec().errorBody(500, message), message);
    }

    /**
     * Arms the call's one timer for the next of its two limits: the body-read timeout while the body is still
     * arriving, and the deadline. One timer per request, not two: setting and cancelling Vert.x timers is a
     * measurable part of a review's cost at thousands of reviews per second.
     */
    private void armTimer(ReviewCall call) {
        long elapsedMillis = call.elapsedMicros() / 1000;
        long due = deadline.timeout().toMillis();
        if (!call.ctx.request().isEnded()) {
            due = Math.min(due, bodyReadTimeout.toMillis());
        }
        call.timer = call.ctx.vertx().setTimer(Math.max(1, due - elapsedMillis), id -> timerFired(call));
    }

    /** On the event loop: the body-read timeout or the deadline passed, or neither yet (then armed again). */
    private void timerFired(ReviewCall call) {
        if (call.answered.get()) {
            return;
        }
        long elapsedMillis = call.elapsedMicros() / 1000;
        if (!call.ctx.request().isEnded() && elapsedMillis >= bodyReadTimeout.toMillis()
                && bodyReadTimeout.compareTo(deadline.timeout()) < 0) {
            bodyTimedOut(call);
        } else if (elapsedMillis >= deadline.timeout().toMillis()) {
            deadlineReached(call);
        } else {
            armTimer(call); // the body arrived before its timeout; the deadline is still ahead
        }
    }

    /** On the event loop, when the deadline passes before the policy answered. */
    private void deadlineReached(ReviewCall call) {
        CallResult result = timeoutResult(call);
        if (claim(call, result, true)) {
            send(call, result.status(), result.body(), !call.ctx.request().isEnded());
            metrics.deadlineOverrun(call.functionLabel());
            if (call.dispatched) {
                call.abandon(metrics);
            }
            // What was answered, not what was configured: a conversion, or a review not yet decoded, gets the
            // error whatever on-timeout says.
            String answered = result.status() == 200 ? deadline.onTimeout().name().toLowerCase() : "error";
            LOG.warnf("policy %s did not answer within the deadline of %d ms for uid=%s: answered %d (%s)",
                    call.functionLabel(), deadline.timeout().toMillis(), call.uid(), result.status(), answered);
        }
    }

    /** On the event loop, when the body has not arrived in time: 408, and the connection is not reused. */
    private void bodyTimedOut(ReviewCall call) {
        LOG.debugf("request body for %s did not arrive within %d ms", call.functionLabel(),
                bodyReadTimeout.toMillis());
        CallResult result = refusal(408, "the request body did not arrive within "
                + bodyReadTimeout.toMillis() + " ms");
        if (claim(call, result, false)) {
            send(call, result.status(), result.body(), true);
        }
    }

    private CallResult timeoutResult(ReviewCall call) {
        String message = "policy " + call.functionLabel() + " did not answer within the deadline of "
                + deadline.timeout().toMillis() + " ms";
        AdmissionReview review = call.review;
        if (review == null || deadline.onTimeout() == DeadlineConfig.OnTimeout.ERROR) {
            // Not yet decoded, a conversion (which has no verdict to default to) or no verdict configured: an
            // error, so the webhook's failurePolicy decides, or the conversion fails.
            return error(500, message, call);
        }
        Verdict verdict = deadline.onTimeout() == DeadlineConfig.OnTimeout.ALLOW
                ? Verdict.allow().withWarning(message + "; allowed by the configured deadline verdict")
                : Verdict.deny(403, message + "; denied by the configured deadline verdict");
        byte[] body = codec().encode(review.version(), review.request().uid(), verdict, null);
        return new CallResult.Admission(new HandlerResult(200, body, verdict.allowed()
                ? HandlerResult.Outcome.ALLOWED : HandlerResult.Outcome.DENIED, review, verdict, 0, ""));
    }

    /** A 5xx answer for the call, with its decoded review (if any) for the metrics and the decision log. */
    private CallResult error(int status, String message, ReviewCall call) {
        byte[] body = codec().errorBody(status, message);
        ConversionReview conversion = call.conversion;
        AdmissionReview review = call.review;
        if (conversion != null) {
            return new CallResult.Conversion(new ConversionResult(status, body, ConversionResult.Outcome.ERROR,
                    conversion, conversion.request().objects().size(), message));
        }
        if (review != null) {
            return new CallResult.Admission(new HandlerResult(status, body, HandlerResult.Outcome.ERROR, review,
                    null, 0, message));
        }
        return new CallResult.Refused(status, body, message);
    }

    /** An answer the gate gives before any review is decoded: a {@code Status} error. */
    private CallResult refusal(int status, String message) {
        return new CallResult.Refused(status, codec().errorBody(status, message), message);
    }

    /** Route failures: Funqy's, the body handler's (413), and closed connections. */
    private void failure(RoutingContext ctx) {
        ReviewCall call = ctx.get(CALL);
        if (call == null) {
            call = new ReviewCall(ctx, this);
        }
        Throwable failure = ctx.failure();
        if (ctx.response().closed() || clientWentAway(failure)) {
            // Nothing can be sent: not an answer, not worth more than a debug line.
            call.answered.set(true);
            LOG.debugf("client went away before the answer (%s): %s", call.functionLabel(),
                    failure == null ? "connection closed" : failure.toString());
            return;
        }
        int status = ctx.statusCode() > 0 ? ctx.statusCode() : 500;
        String message = status == 413 ? "body exceeds the limit of " + codec().limits().maxBodyBytes()
                + " bytes" : AdmissionCodec.statusText(status);
        if (status >= 500) {
            LOG.errorf(failure, "request to function %s failed", call.functionLabel());
        }
        refuse(call, status >= 500 ? error(status, message, call) : refusal(status, message));
    }

    /** Claims the call for an answer the gate writes itself, then writes it. */
    private void refuse(ReviewCall call, CallResult result) {
        if (claim(call, result, false)) {
            send(call, result.status(), result.body(), false);
        }
    }

    /**
     * Makes {@code result} the call's answer unless another was already chosen: cancels the timers, then counts and
     * logs it (before it is sent, so whoever reads the answer finds it in the metrics and the log).
     *
     * @return false when another answer won (the deadline, or the policy)
     */
    private boolean claim(ReviewCall call, CallResult result, boolean deadlineExceeded) {
        if (!call.answered.compareAndSet(false, true)) {
            return false;
        }
        if (call.timer >= 0) {
            call.ctx.vertx().cancelTimer(call.timer);
        }
        String function = call.functionLabel();
        if (call.ctx.response().closed()) {
            LOG.debugf("client of %s went away before its answer (%d) was sent", function, result.status());
            return true;
        }
        long micros = call.elapsedMicros();
        String verdict = result.status() == 503 ? "refused" : result.outcome();
        if (result.refused()) {
            metrics.badRequest(function.isEmpty() ? "none" : function, result.status());
        } else {
            metrics.review(function, orNone(result.operation()), orNone(result.kind()), verdict,
                    Duration.ofNanos(micros * 1000));
        }
        decisions.log(function, result, verdict, micros, deadlineExceeded);
        if (!deadlineExceeded && micros >= deadline.slowThreshold().toNanos() / 1000 && !result.refused()) {
            LOG.warnf("slow review: policy %s took %d ms for uid=%s (slow threshold %d ms, deadline %d ms)",
                    function, micros / 1000, result.uid(), deadline.slowThreshold().toMillis(),
                    deadline.timeout().toMillis());
        }
        return true;
    }

    private static String orNone(String label) {
        return label.isEmpty() ? "none" : label;
    }

    /**
     * Writes an answer the gate gives itself. When the request body has not been read (an early refusal), an
     * HTTP/1.x connection cannot carry another request: the answer says {@code Connection: close}, the rest of the
     * body is read and dropped (a client that writes its whole body before reading, as most do, then gets the answer
     * instead of a broken pipe) and the connection closes when the body ends, or after the body-read timeout. For a
     * stalled body ({@code closeNow}) it closes at once. HTTP/2 forbids the Connection header; only the stream ends.
     */
    private void send(ReviewCall call, int status, byte[] body, boolean closeNow) {
        HttpServerResponse response = call.ctx.response();
        if (response.ended() || response.closed()) {
            return;
        }
        response.setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, "application/json");
        var request = call.ctx.request();
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
        long closer = call.ctx.vertx().setTimer(bodyReadTimeout.toMillis(), id -> connection.close());
        request.handler(ignored -> {
        });
        request.endHandler(v -> {
            call.ctx.vertx().cancelTimer(closer);
            connection.close();
        });
        request.resume();
        response.end(Buffer.buffer(body));
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
            return "Transfer-Encoding '" + transferEncoding + "' is not supported: send the body with Content-Length "
                    + "or Transfer-Encoding: chunked";
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

    /** The first byte that is not JSON whitespace (after a UTF-8 byte order mark), or -1. */
    static int firstSignificantByte(Buffer body) {
        if (body == null) {
            return -1;
        }
        int i = 0;
        int n = body.length();
        if (n >= 3 && body.getByte(0) == (byte) 0xEF && body.getByte(1) == (byte) 0xBB
                && body.getByte(2) == (byte) 0xBF) {
            i = 3;
        }
        for (; i < n; i++) {
            byte b = body.getByte(i);
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                return b & 0xff;
            }
        }
        return -1;
    }

    /**
     * A parser over the body Quarkus read for {@code ctx}, made by {@code mapper} (the codec's: its limits apply), over
     * the buffer's own bytes when they are on the heap (no copy).
     */
    static JsonParser bodyParser(RoutingContext ctx, ObjectMapper mapper) throws ReviewDecodeException {
        Buffer body = ctx.body().buffer();
        if (body == null || body.length() == 0) {
            throw new ReviewDecodeException("empty body: expected a JSON object");
        }
        ByteBuf bytes = body.getByteBuf();
        try {
            if (bytes.hasArray()) {
                return mapper.createParser(bytes.array(), bytes.arrayOffset() + bytes.readerIndex(),
                        bytes.readableBytes());
            }
            return mapper.createParser((InputStream) new ByteBufInputStream(bytes));
        } catch (IOException e) {
            throw new ReviewDecodeException("body could not be read: " + e.getMessage());
        }
    }

    /** What the codec says of a body that does not start an object (it never decodes one). */
    private ReviewDecodeException decodeProblem(Buffer body, String expected) {
        try {
            codec().parseBody(body == null ? new byte[0] : body.getBytes(), expected);
            return new ReviewDecodeException("body is not a JSON object: expected " + expected);
        } catch (ReviewDecodeException e) {
            return e;
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
