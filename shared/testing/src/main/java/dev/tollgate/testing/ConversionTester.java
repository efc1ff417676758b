package dev.tollgate.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.HandlerResult;
import dev.tollgate.admission.ReviewKind;
import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.admission.conversion.ConversionChecks;
import dev.tollgate.admission.conversion.ConversionCodec;
import dev.tollgate.admission.conversion.ConversionHandler;
import dev.tollgate.admission.conversion.ConversionPolicy;
import dev.tollgate.admission.conversion.ConversionReview;

/**
 * Runs a conversion policy in-process through the same decode, convert, check and encode path the function uses,
 * with no HTTP. Every answer is re-checked from its bytes against the API server's rules
 * ({@link ConversionChecks#check}: envelope, uid, result, count, order, apiVersion, kind, metadata), so a test cannot
 * accept an answer a cluster would refuse.
 *
 * <pre>{@code
 * ConversionTester.of(new WidgetConversion())
 *     .convert("shop.tollgate.dev/v1", widgetV1alpha1)
 *     .assertConverted().assertObject(0, expectedV1);
 * ConversionTester.of(new WidgetConversion()).assertLossless(widgetV1, "shop.tollgate.dev/v1alpha1");
 * }</pre>
 */
public final class ConversionTester {

    private final ConversionPolicy policy;
    private final ConversionHandler handler = new ConversionHandler(new ConversionCodec());
    private ReviewVersion version = ReviewVersion.V1;

    private ConversionTester(ConversionPolicy policy) {
        this.policy = policy;
    }

    public static ConversionTester of(ConversionPolicy policy) {
        return new ConversionTester(policy);
    }

    /** Sends later reviews in this version (v1 by default). */
    public ConversionTester version(ReviewVersion version) {
        this.version = version;
        return this;
    }

    /** A ConversionReview request as the API server sends it, with a fresh uid. */
    public static ObjectNode request(ReviewVersion version, String desiredApiVersion, JsonNode... objects) {
        ObjectNode review = Manifests.JSON.createObjectNode();
        review.put("apiVersion", ReviewKind.CONVERSION.apiVersion(version));
        review.put("kind", ReviewKind.CONVERSION.kind());
        ObjectNode request = review.putObject("request");
        request.put("uid", UUID.randomUUID().toString());
        request.put("desiredAPIVersion", desiredApiVersion);
        ArrayNode list = request.putArray("objects");
        for (JsonNode o : objects) {
            list.add(normalized(o));
        }
        return review;
    }

    /** Asks for {@code objects} in {@code desiredApiVersion}, in one review. */
    public Conversion convert(String desiredApiVersion, JsonNode... objects) {
        ObjectNode sent = request(version, desiredApiVersion, objects);
        byte[] body = Manifests.toJson(sent).getBytes(StandardCharsets.UTF_8);
        HandlerResult<ConversionReview> result = handler.handle(body, policy.getClass().getSimpleName(), policy);
        return Conversion.checked(sent, result.status(), result.body());
    }

    /** Converts {@code object} through each version in turn, one review per step, and returns the last result. */
    public JsonNode convertThrough(JsonNode object, String... apiVersions) {
        JsonNode current = object;
        for (String v : apiVersions) {
            current = convert(v, current).assertConverted().object(0);
        }
        return current;
    }

    /** Converts {@code object} to {@code via} and back: the result must equal the object exactly. */
    public ConversionTester assertLossless(JsonNode object, String via) {
        String back = object.path("apiVersion").asText();
        JsonNode there = convert(via, object).assertConverted().object(0);
        JsonNode returned = convert(back, there).assertConverted().object(0);
        assertEquals(normalized(object), returned, () -> "round trip " + back + " -> " + via + " -> " + back
                + " lost or changed something\n  via:      " + there + "\n  returned: " + returned);
        return this;
    }

    /** {@code node} as a decoder sees it after the wire (e.g. a long that fits an int is read as an int). */
    public static JsonNode normalized(JsonNode node) {
        try {
            return Manifests.JSON.readTree(Manifests.toJson(node));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** The answer to one ConversionReview, already re-checked; with assertions. */
    public static final class Conversion {

        private final JsonNode response;
        private final ConversionChecks.Result checked;

        private Conversion(JsonNode response, ConversionChecks.Result checked) {
            this.response = response;
            this.checked = checked;
        }

        /**
         * Checks an answer (status and body) to {@code sent} as the API server would; fails the test when it would
         * refuse it. For answers from a running function, too.
         */
        public static Conversion checked(JsonNode sent, int status, byte[] body) {
            String text = new String(body, StandardCharsets.UTF_8);
            if (status != 200) {
                fail("expected HTTP 200 with a ConversionReview, got " + status + ": " + text);
            }
            JsonNode response;
            try {
                response = Manifests.JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("response is not JSON: " + text, e);
            }
            ConversionChecks.Result checked = ConversionChecks.check(sent, response);
            if (!checked.problems().isEmpty()) {
                throw new AssertionError("the API server would reject this conversion response:\n  - "
                        + String.join("\n  - ", checked.problems()) + "\nresponse: " + text);
            }
            return new Conversion(response, checked);
        }

        /** The whole response ConversionReview. */
        public JsonNode review() {
            return response;
        }

        public boolean converted() {
            return checked.converted();
        }

        /** result.message (set for a Failure). */
        public String message() {
            return checked.message();
        }

        public List<JsonNode> objects() {
            return checked.convertedObjects();
        }

        public JsonNode object(int index) {
            return objects().get(index);
        }

        public Conversion assertConverted() {
            if (!converted()) {
                fail("expected the conversion to succeed, but it failed: " + message());
            }
            return this;
        }

        public Conversion assertFailed() {
            if (converted()) {
                fail("expected the conversion to fail, but it succeeded: " + objects());
            }
            return this;
        }

        public Conversion withMessageContaining(String text) {
            if (!message().contains(text)) {
                fail("expected the message to contain \"" + text + "\", got \"" + message() + "\"");
            }
            return this;
        }

        /** The converted object at {@code index} equals {@code expected} exactly. */
        public Conversion assertObject(int index, JsonNode expected) {
            assertEquals(expected, object(index), "convertedObjects[" + index + "]");
            return this;
        }
    }
}
