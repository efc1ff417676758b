package dev.tollgate.testing;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.restassured.response.Response;

/**
 * Bad requests a function must refuse with a 4xx JSON error, never a 5xx, never an answer from the policy. Use
 * {@link #cases(String, long)} in a parameterized test against a running function, then check it still serves.
 */
public final class MalformedRequests {

    /** One bad request: what it is, the bytes, the content type and the status it must get. */
    public record Case(String description, byte[] body, String contentType, String method, int expectedStatus) {

        @Override
        public String toString() {
            return description;
        }

        /**
         * Sends it to {@code path} and asserts the answer: the expected status and a JSON error body; and, for a
         * function running in the test's JVM (an HTTP test), that nothing was logged at ERROR: a bad request is the
         * client's fault, not the function's.
         */
        public void assertRefused(String path) {
            var spec = given().body(body);
            if (contentType != null) {
                spec = spec.contentType(contentType);
            } else {
                spec = spec.noContentType();
            }
            Response r;
            try (CapturedLog log = CapturedLog.of("")) {
                r = spec.request(method, path);
                List<String> errors = log.records().stream()
                        .filter(record -> record.getLevel().intValue() >= Level.SEVERE.intValue())
                        .map(CapturedLog::message).toList();
                assertTrue(errors.isEmpty(), () -> description + ": logged at ERROR: " + errors);
            }
            assertEquals(expectedStatus, r.statusCode(), () -> description + ": " + r.asString());
            JsonNode error;
            try {
                error = Manifests.JSON.readTree(r.asByteArray());
            } catch (java.io.IOException e) {
                throw new AssertionError(description + ": error body is not JSON: " + r.asString());
            }
            // A Kubernetes Status, so the API server relays the message (see ReviewJson#errorBody).
            assertEquals("Status", error.path("kind").asText(), description + ": a Status body");
            assertEquals("Failure", error.path("status").asText(), description + ": status Failure");
            assertEquals(expectedStatus, error.path("code").asInt(), description + ": code in the body");
            assertTrue(error.path("message").isTextual() && !error.path("message").asText().isEmpty(),
                    description + ": the error body names the problem");
            assertTrue(!r.asString().contains("\tat ") && !r.asString().contains("Exception:"),
                    description + ": no stack trace in the body");
        }
    }

    private MalformedRequests() {
    }

    /**
     * The cases.
     *
     * @param maxBodyBytes the function's body limit, to build one body just over it
     */
    public static List<Case> cases(long maxBodyBytes) {
        String valid = new String(ReviewBuilder.create(Pods.minimal("web")).bytes(), StandardCharsets.UTF_8);
        List<Case> c = new ArrayList<>();
        c.add(bad("empty body", ""));
        c.add(bad("whitespace only", "   \n"));
        c.add(bad("not JSON", "hello"));
        c.add(bad("truncated JSON", valid.substring(0, valid.length() / 2)));
        c.add(bad("JSON array", "[]"));
        c.add(bad("JSON string", "\"AdmissionReview\""));
        c.add(bad("JSON null", "null"));
        c.add(bad("empty object", "{}"));
        c.add(bad("missing apiVersion", edit(r -> r.remove("apiVersion"))));
        c.add(bad("unknown apiVersion", edit(r -> r.put("apiVersion", "admission.k8s.io/v2"))));
        c.add(bad("apiVersion of another API", edit(r -> r.put("apiVersion", "apps/v1"))));
        c.add(bad("wrong kind", edit(r -> r.put("kind", "Pod"))));
        c.add(bad("no request", edit(r -> r.remove("request"))));
        c.add(bad("request is a string", edit(r -> r.put("request", "x"))));
        c.add(bad("missing uid", editRequest(q -> q.remove("uid"))));
        c.add(bad("empty uid", editRequest(q -> q.put("uid", ""))));
        c.add(bad("uid is a number", editRequest(q -> q.put("uid", 42))));
        c.add(bad("unknown operation", editRequest(q -> q.put("operation", "PATCH"))));
        c.add(bad("operation is lowercase", editRequest(q -> q.put("operation", "create"))));
        c.add(bad("kind is a string", editRequest(q -> q.put("kind", "Pod"))));
        c.add(bad("resource missing", editRequest(q -> q.remove("resource"))));
        c.add(bad("object is an array", editRequest(q -> {
            var object = q.get("object");
            q.putArray("object").add(object);
        })));
        c.add(bad("dryRun is a string", editRequest(q -> q.put("dryRun", "no"))));
        c.add(bad("groups hold a number", editRequest(
                q -> ((ObjectNode) q.get("userInfo")).putArray("groups").add(7))));
        c.add(bad("duplicate key", valid.replaceFirst("\\{\"apiVersion\"", "{\"apiVersion\":\"x\",\"apiVersion\"")));
        c.add(bad("trailing garbage", valid + " {}"));
        c.add(bad("nesting deeper than the limit", "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\","
                + "\"request\":{\"uid\":\"u\",\"x\":" + "[".repeat(5000) + "]".repeat(5000) + "}}"));
        c.add(bad("invalid UTF-8", new byte[] { '{', '"', (byte) 0xC3, (byte) 0x28, '"', ':', '1', '}' }));
        c.add(new Case("text/plain content type", valid.getBytes(StandardCharsets.UTF_8), "text/plain", "POST", 400));
        c.add(new Case("no content type", valid.getBytes(StandardCharsets.UTF_8), null, "POST", 400));
        c.add(new Case("XML content type", valid.getBytes(StandardCharsets.UTF_8), "application/xml", "POST", 400));
        c.add(new Case("GET instead of POST", new byte[0], null, "GET", 405));
        c.add(new Case("PUT instead of POST", valid.getBytes(StandardCharsets.UTF_8), "application/json", "PUT",
                405));
        byte[] big = new byte[(int) Math.min(Integer.MAX_VALUE - 16, maxBodyBytes + 1024)];
        java.util.Arrays.fill(big, (byte) ' ');
        big[0] = '{';
        big[big.length - 1] = '}';
        c.add(new Case("body over the size limit", big, "application/json", "POST", 413));
        return c;
    }

    private static String edit(java.util.function.Consumer<ObjectNode> change) {
        ObjectNode review = ReviewBuilder.create(Pods.minimal("web")).build();
        change.accept(review);
        return Manifests.toJson(review);
    }

    private static String editRequest(java.util.function.Consumer<ObjectNode> change) {
        return edit(r -> change.accept((ObjectNode) r.get("request")));
    }

    private static Case bad(String description, String body) {
        return bad(description, body.getBytes(StandardCharsets.UTF_8));
    }

    private static Case bad(String description, byte[] body) {
        return new Case(description, body, "application/json", "POST", 400);
    }
}
