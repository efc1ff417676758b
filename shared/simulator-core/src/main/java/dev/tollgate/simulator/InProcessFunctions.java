package dev.tollgate.simulator;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

import dev.tollgate.admission.AdmissionCodec;
import dev.tollgate.admission.AdmissionHandler;
import dev.tollgate.admission.AdmissionPolicy;
import dev.tollgate.admission.AdmissionReview;
import dev.tollgate.admission.HandlerResult;

/**
 * Answers webhook calls in this process: the policy of the function a rendered webhook's URL names (the first segment
 * of its path, {@code /<function>/...}) runs through the admission library's decode, evaluate, patch and encode path
 * ({@link AdmissionHandler}, the handler the function runtime serves it with), with no HTTP server. A path below the
 * function's is resolved by the policy's {@link AdmissionPolicy#forSubPath}, a 404 when it serves none, as the
 * runtime's PolicyDirectory does. Calls to any other function go to the client given.
 */
public final class InProcessFunctions implements WebhookClient {

    private final Map<String, AdmissionPolicy> byFunction;
    private final WebhookClient others;
    private final AdmissionHandler handler = new AdmissionHandler(new AdmissionCodec());

    /** @param byFunction the policies answered here, by function name; {@code others} answers the rest */
    public InProcessFunctions(Map<String, AdmissionPolicy> byFunction, WebhookClient others) {
        this.byFunction = Map.copyOf(byFunction);
        this.others = others;
    }

    /** Whether calls to this function are answered here. */
    public boolean answers(String function) {
        return byFunction.containsKey(function);
    }

    @Override
    public Answer post(Webhook webhook, byte[] review) throws CallFailure {
        String[] path = path(webhook);
        AdmissionPolicy policy = byFunction.get(path[0]);
        if (policy == null) {
            return others.post(webhook, review);
        }
        // As the runtime's PolicyDirectory.resolveAdmission: /<name> is the policy, /<name>/<sub> its forSubPath(sub).
        Optional<? extends AdmissionPolicy> served = path.length == 1 ? Optional.of(policy)
                : path[1].isEmpty() ? Optional.empty() : policy.forSubPath(path[1]);
        if (served.isEmpty()) {
            return new Answer(404, ("no policy at /" + String.join("/", path)).getBytes(StandardCharsets.UTF_8),
                    "text/plain");
        }
        HandlerResult<AdmissionReview> result = handler.handle(review, path[0], served.get());
        return new Answer(result.status(), result.body());
    }

    /**
     * The function a rendered webhook calls and, when its URL goes below it, the path there: {@code /cel-policy} is
     * [cel-policy], {@code /pod-security/enforce/baseline} is [pod-security, enforce/baseline].
     */
    static String[] path(Webhook webhook) {
        String url = webhook.entry().path("clientConfig").path("url").asText("");
        String path;
        try {
            path = URI.create(url).getPath();
        } catch (IllegalArgumentException e) {
            return new String[] { "" };
        }
        return path == null || path.length() < 2 ? new String[] { "" } : path.substring(1).split("/", 2);
    }
}
