package dev.tollgate.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.JsonPatches;

/**
 * The answer to one review, with assertions. Every result has already passed {@link ResponseChecks} when it is
 * created, so a test cannot accept a response the API server would refuse.
 */
public final class ReviewResult {

    private final ReviewBuilder request;
    private final ObjectNode requestJson;
    private final JsonNode response;
    private final Function<ReviewBuilder, ReviewResult> rerun;

    ReviewResult(ReviewBuilder request, ObjectNode requestJson, int status, byte[] body, boolean mutating,
            Function<ReviewBuilder, ReviewResult> rerun) {
        this.request = request;
        this.requestJson = requestJson;
        this.rerun = rerun;
        if (status != 200) {
            fail("expected HTTP 200 with an AdmissionReview, got " + status + ": " + new String(body));
        }
        try {
            this.response = Manifests.JSON.readTree(body);
        } catch (IOException e) {
            throw new AssertionError("response is not JSON: " + new String(body), e);
        }
        ResponseChecks.verify(requestJson, response, mutating);
    }

    /** The whole response AdmissionReview. */
    public JsonNode review() {
        return response;
    }

    private JsonNode resp() {
        return response.path("response");
    }

    public boolean allowed() {
        return resp().path("allowed").asBoolean();
    }

    public String message() {
        return resp().path("status").path("message").asText("");
    }

    public List<String> warnings() {
        List<String> out = new ArrayList<>();
        resp().path("warnings").forEach(w -> out.add(w.asText()));
        return out;
    }

    public ReviewResult assertAllowed() {
        assertTrue(allowed(), () -> "expected the request to be allowed, but it was denied: " + message());
        return this;
    }

    public ReviewResult assertDenied() {
        assertFalse(allowed(), "expected the request to be denied, but it was allowed");
        return this;
    }

    public ReviewResult withMessageContaining(String text) {
        assertTrue(message().contains(text), () -> "expected the message to contain '" + text + "': " + message());
        return this;
    }

    public ReviewResult withCode(int code) {
        assertEquals(code, resp().path("status").path("code").asInt(), "status code");
        return this;
    }

    public ReviewResult withReason(String reason) {
        assertEquals(reason, resp().path("status").path("reason").asText(), "status reason");
        return this;
    }

    public ReviewResult assertWarningContaining(String text) {
        assertTrue(warnings().stream().anyMatch(w -> w.contains(text)),
                () -> "expected a warning containing '" + text + "', got " + warnings());
        return this;
    }

    public ReviewResult assertNoWarnings() {
        assertTrue(warnings().isEmpty(), () -> "expected no warnings, got " + warnings());
        return this;
    }

    public ReviewResult assertAuditAnnotation(String key, String value) {
        assertEquals(value, resp().path("auditAnnotations").path(key).asText(null), "audit annotation " + key);
        return this;
    }

    public ReviewResult assertNoPatch() {
        assertFalse(resp().has("patch") || resp().has("patchType"),
                () -> "expected no patch, got " + patch());
        return this;
    }

    /** The decoded JSON Patch, or an empty array when the response has none. */
    public ArrayNode patch() {
        if (!resp().hasNonNull("patch")) {
            return Manifests.JSON.createArrayNode();
        }
        try {
            return (ArrayNode) Manifests.JSON.readTree(Base64.getDecoder().decode(resp().path("patch").asText()));
        } catch (IOException e) {
            throw new AssertionError("patch is not JSON", e);
        }
    }

    /** The request's object with the patch applied (the object itself when there is no patch). */
    public JsonNode patchedObject() {
        JsonNode original = requestJson.path("request").path("object");
        return JsonPatches.apply(patch(), original);
    }

    /** Asserts that applying the patch to the request's object gives exactly {@code expected}. */
    public ReviewResult assertPatchedTo(JsonNode expected) {
        assertEquals(expected, patchedObject(), "object after applying the patch");
        return this;
    }

    public ReviewResult assertPatched() {
        assertTrue(resp().hasNonNull("patch"), "expected a patch");
        return this;
    }

    /**
     * Reviews the patched object again (same operation, same version) and asserts nothing more changes: a
     * mutating policy must be idempotent, since the API server may call it again on its own output.
     */
    public ReviewResult assertIdempotent() {
        JsonNode patched = patchedObject();
        ReviewResult second = rerun.apply(request.object(patched));
        second.assertNoPatch();
        return this;
    }
}
