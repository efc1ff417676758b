package dev.tollgate.runtime;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.tollgate.admission.AdmissionCodec;
import dev.tollgate.admission.AdmissionHandler;
import dev.tollgate.admission.AdmissionLimits;
import dev.tollgate.admission.AdmissionPolicy;
import dev.tollgate.admission.HandlerResult;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * Serves every policy at {@code /<name>} (and below, for policies with sub-paths) over Quarkus HTTP. This is all the
 * HTTP code a function has: body limit (413), method (405), content type (400), decoding and the policy call
 * (through {@link AdmissionHandler}, on a worker thread), and JSON error bodies for anything that goes wrong.
 */
@ApplicationScoped
public class AdmissionEndpoint {

    private static final Logger LOG = Logger.getLogger(AdmissionEndpoint.class);

    private final PolicyDirectory policies;
    private final AdmissionHandler handler;

    @Inject
    public AdmissionEndpoint(PolicyDirectory policies, AdmissionConfig config) {
        this.policies = policies;
        this.handler = new AdmissionHandler(new AdmissionCodec(new AdmissionLimits(config.maxBodyBytes(),
                config.maxNestingDepth(), config.maxStringLength())));
    }

    public AdmissionHandler handler() {
        return handler;
    }

    void routes(@Observes Router router) {
        long limit = handler.codec().limits().maxBodyBytes();
        for (AdmissionPolicy policy : policies.all()) {
            for (String path : new String[] { "/" + policy.name(), "/" + policy.name() + "/*" }) {
                router.route(path)
                        .handler(BodyHandler.create(false).setBodyLimit(limit))
                        .blockingHandler(this::review, false)
                        .failureHandler(this::failure);
            }
            LOG.infof("serving policy %s at /%s", policy.name(), policy.name());
        }
        // Anything else POSTed here is not a policy path: answer in the same JSON error form.
        router.post("/*").last().handler(ctx -> send(ctx, handler.badRequest(404,
                "no policy is served at " + ctx.normalizedPath())));
    }

    private void review(RoutingContext ctx) {
        if (ctx.request().method() != HttpMethod.POST) {
            ctx.response().putHeader(HttpHeaders.ALLOW, "POST");
            send(ctx, handler.badRequest(405, "method " + ctx.request().method() + " not allowed: POST an "
                    + "AdmissionReview"));
            return;
        }
        String contentType = ctx.request().getHeader(HttpHeaders.CONTENT_TYPE);
        if (!isJson(contentType)) {
            send(ctx, handler.badRequest(400, "Content-Type must be application/json, got "
                    + (contentType == null ? "none" : "'" + contentType + "'")));
            return;
        }
        Optional<? extends AdmissionPolicy> policy = policies.resolve(ctx.normalizedPath());
        if (policy.isEmpty()) {
            send(ctx, handler.badRequest(404, "no policy is served at " + ctx.normalizedPath()));
            return;
        }
        Buffer body = ctx.body().buffer();
        send(ctx, handler.handle(body == null ? new byte[0] : body.getBytes(), policy.get()));
    }

    private void failure(RoutingContext ctx) {
        int status = ctx.statusCode() > 0 ? ctx.statusCode() : 500;
        String message = status == 413 ? "body exceeds the limit of " + handler.codec().limits().maxBodyBytes()
                + " bytes" : AdmissionCodec.statusText(status);
        if (ctx.failure() != null) {
            LOG.errorf(ctx.failure(), "request to %s failed", ctx.normalizedPath());
        }
        if (!ctx.response().ended()) {
            send(ctx, status >= 500 ? new HandlerResult(status, handler.codec().errorBody(status, message),
                    HandlerResult.Outcome.ERROR, null, null, 0, message) : handler.badRequest(status, message));
        }
    }

    private static void send(RoutingContext ctx, HandlerResult result) {
        ctx.response()
                .setStatusCode(result.status())
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(Buffer.buffer(result.body()));
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
