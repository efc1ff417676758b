package dev.tollgate.simulator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Webhooks as plain functions, keyed by URL path, with every request they received recorded. */
final class FakeWebhooks implements WebhookClient {

    static final ObjectMapper JSON = new ObjectMapper();

    /** What a fake webhook does with a review: answer (status + body) or fail the call. */
    interface Handler {
        Answer handle(ObjectNode review) throws CallFailure, Exception;
    }

    private final Map<String, Handler> handlers = new ConcurrentHashMap<>();
    final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    final Map<String, List<ObjectNode>> received = new ConcurrentHashMap<>();

    FakeWebhooks on(String path, Handler handler) {
        handlers.put(path, handler);
        return this;
    }

    @Override
    public Answer post(Webhook webhook, byte[] body) throws CallFailure {
        String path = java.net.URI.create(webhook.url()).getPath();
        calls.add(path);
        try {
            ObjectNode review = (ObjectNode) JSON.readTree(body);
            received.computeIfAbsent(path, k -> Collections.synchronizedList(new ArrayList<>())).add(review);
            Handler h = handlers.get(path);
            if (h == null) {
                return new Answer(404, "{\"message\":\"no such path\"}".getBytes(StandardCharsets.UTF_8));
            }
            return h.handle(review);
        } catch (CallFailure e) {
            throw e;
        } catch (Exception e) {
            throw new CallFailure("fake webhook failed: " + e, e);
        }
    }

    // ---- answers ----

    static ObjectNode response(ObjectNode review) {
        ObjectNode out = JSON.createObjectNode();
        out.put("apiVersion", review.path("apiVersion").asText());
        out.put("kind", "AdmissionReview");
        out.putObject("response").put("uid", review.path("request").path("uid").asText()).put("allowed", true);
        return out;
    }

    static Answer answer(ObjectNode response) {
        return new Answer(200, response.toString().getBytes(StandardCharsets.UTF_8));
    }

    static Handler allow() {
        return review -> answer(response(review));
    }

    static Handler deny(int code, String message) {
        return review -> {
            ObjectNode r = response(review);
            ObjectNode resp = (ObjectNode) r.get("response");
            resp.put("allowed", false);
            ObjectNode status = resp.putObject("status");
            if (code != 0) {
                status.put("code", code);
            }
            if (message != null) {
                status.put("message", message);
            }
            return answer(r);
        };
    }

    /** A mutating webhook: the patch is computed by {@code edit} from the object it receives. */
    static Handler patch(java.util.function.Function<ObjectNode, ArrayNode> edit) {
        return review -> {
            ObjectNode r = response(review);
            ArrayNode patch = edit.apply((ObjectNode) review.path("request").path("object"));
            if (patch != null && !patch.isEmpty()) {
                ObjectNode resp = (ObjectNode) r.get("response");
                resp.put("patchType", "JSONPatch");
                resp.put("patch", Base64.getEncoder().encodeToString(patch.toString()
                        .getBytes(StandardCharsets.UTF_8)));
            }
            return answer(r);
        };
    }

    static ArrayNode ops(String json) {
        try {
            return (ArrayNode) JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static JsonNode request(ObjectNode review) {
        return review.path("request");
    }
}
