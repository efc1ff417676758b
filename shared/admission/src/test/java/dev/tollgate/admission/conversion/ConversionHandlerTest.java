package dev.tollgate.admission.conversion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.CapturedLog;
import dev.tollgate.admission.HandlerResult;
import dev.tollgate.admission.ReviewKind;
import dev.tollgate.admission.ReviewVersion;

class ConversionHandlerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final ConversionHandler handler = new ConversionHandler(new ConversionCodec());

    /** Renames spec.colour (v1) to spec.color (v2) and back; refuses objects marked "refuse". */
    static final class ColourPolicy implements ConversionPolicy {
        final List<String> seen = new ArrayList<>();

        @Override
        public ObjectNode convert(ObjectNode object, String desired) throws ConversionException {
            seen.add(object.path("metadata").path("name").asText());
            if (object.path("spec").has("refuse")) {
                throw new ConversionException("spec.refuse is set");
            }
            ObjectNode spec = (ObjectNode) object.path("spec");
            if (desired.endsWith("/v2")) {
                spec.set("color", spec.remove("colour"));
            } else {
                spec.set("colour", spec.remove("color"));
            }
            object.put("apiVersion", desired);
            return object;
        }
    }

    private static String body(String version, String desired, String... objects) {
        return "{\"apiVersion\":\"" + version + "\",\"kind\":\"ConversionReview\",\"request\":{\"uid\":\"u-7\","
                + "\"desiredAPIVersion\":\"" + desired + "\",\"objects\":[" + String.join(",", objects) + "]}}";
    }

    private static String widget(String name, String version, String spec) {
        return "{\"apiVersion\":\"shop.tollgate.dev/" + version + "\",\"kind\":\"Widget\",\"metadata\":{\"name\":\""
                + name + "\",\"namespace\":\"shop\"},\"spec\":" + spec + "}";
    }

    private HandlerResult<ConversionReview> handle(String body, ConversionPolicy policy) {
        return handler.handle(body.getBytes(StandardCharsets.UTF_8), "widgets", policy);
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void convertsEveryObjectInOrderAndAnswersInKind(ReviewVersion version) throws Exception {
        ColourPolicy policy = new ColourPolicy();
        String sent = body(ReviewKind.CONVERSION.apiVersion(version), "shop.tollgate.dev/v2",
                widget("a", "v1", "{\"colour\":\"red\"}"),
                widget("b", "v2", "{\"color\":\"blue\"}"), widget("c", "v1", "{\"colour\":\"green\"}"));
        HandlerResult<ConversionReview> result = handle(sent, policy);
        assertEquals(200, result.status());
        assertEquals(HandlerResult.Outcome.CONVERTED, result.outcome());
        assertEquals(List.of("a", "c"), policy.seen, "objects already in the desired version are not converted");
        JsonNode answer = JSON.readTree(result.body());
        ConversionChecks.Result checked = ConversionChecks.check(JSON.readTree(sent), answer);
        assertTrue(checked.converted(), () -> checked.problems().toString());
        assertEquals(ReviewKind.CONVERSION.apiVersion(version), answer.path("apiVersion").asText());
        assertEquals("u-7", answer.path("response").path("uid").asText());
        List<String> colors = new ArrayList<>();
        checked.convertedObjects().forEach(o -> colors.add(o.path("spec").path("color").asText()));
        assertEquals(List.of("red", "blue", "green"), colors);
    }

    @Test
    void oneRefusedObjectFailsTheWholeReviewNamingIt() throws Exception {
        HandlerResult<ConversionReview> result = handle(body("apiextensions.k8s.io/v1", "shop.tollgate.dev/v2",
                widget("a", "v1", "{\"colour\":\"red\"}"), widget("b", "v1", "{\"refuse\":true}")),
                new ColourPolicy());
        assertEquals(200, result.status());
        assertEquals(HandlerResult.Outcome.FAILED, result.outcome());
        JsonNode resp = JSON.readTree(result.body()).path("response");
        assertEquals("Failure", resp.path("result").path("status").asText());
        assertEquals("objects[1] (Widget shop/b, shop.tollgate.dev/v1): cannot convert to shop.tollgate.dev/v2: "
                + "spec.refuse is set", resp.path("result").path("message").asText());
        assertEquals(0, resp.path("convertedObjects").size(), "no partial answer");
    }

    @Test
    void aConversionAgainstTheRulesFailsTheReview() throws Exception {
        ConversionPolicy renaming = new ConversionPolicy() {
            public ObjectNode convert(ObjectNode object, String desired) {
                ((ObjectNode) object.path("metadata")).put("name", "other");
                return object.put("apiVersion", desired);
            }
        };
        HandlerResult<ConversionReview> result = handle(body("apiextensions.k8s.io/v1beta1", "shop.tollgate.dev/v2",
                widget("a", "v1", "{}")), renaming);
        assertEquals(200, result.status());
        assertEquals(HandlerResult.Outcome.INVALID, result.outcome());
        assertEquals("objects[0] (Widget shop/a, shop.tollgate.dev/v1): conversion to shop.tollgate.dev/v2 by "
                + "widgets is invalid: must have the same name: a != other", result.error());
        assertEquals("apiextensions.k8s.io/v1beta1", JSON.readTree(result.body()).path("apiVersion").asText());
    }

    @Test
    void aThrowingPolicyIsA500NeverAPass() throws Exception {
        ConversionPolicy broken = new ConversionPolicy() {
            public ObjectNode convert(ObjectNode object, String desired) {
                throw new IllegalStateException("secret detail");
            }
        };
        HandlerResult<ConversionReview> result;
        try (CapturedLog log = CapturedLog.of(ConversionHandler.class)) {
            result = handle(body("apiextensions.k8s.io/v1", "shop.tollgate.dev/v2", widget("a", "v1", "{}")), broken);
            // The details go to the log, with the request's uid; the answer says only what failed.
            LogRecord record = log.only();
            assertEquals(Level.SEVERE, record.getLevel());
            assertEquals("conversion policy widgets failed on request uid=u-7", record.getMessage());
            assertEquals("secret detail", record.getThrown().getMessage());
        }
        assertEquals(500, result.status());
        assertEquals(HandlerResult.Outcome.ERROR, result.outcome());
        String text = new String(result.body(), StandardCharsets.UTF_8);
        assertTrue(text.contains("conversion policy widgets failed: IllegalStateException"), text);
        assertFalse(text.contains("secret detail"), text);

        ConversionPolicy returnsNothing = new ConversionPolicy() {
            public ObjectNode convert(ObjectNode object, String desired) {
                return null;
            }
        };
        try (CapturedLog log = CapturedLog.of(ConversionHandler.class)) {
            assertEquals(500, handle(body("apiextensions.k8s.io/v1", "shop.tollgate.dev/v2", widget("a", "v1", "{}")),
                    returnsNothing).status());
            assertEquals("policy returned no object", log.only().getThrown().getMessage());
        }
    }

    @Test
    void badInputNeverReachesThePolicy() {
        ColourPolicy policy = new ColourPolicy();
        HandlerResult<ConversionReview> result = handle("{\"apiVersion\":\"apiextensions.k8s.io/v1\"}", policy);
        assertEquals(400, result.status());
        assertEquals(HandlerResult.Outcome.BAD_REQUEST, result.outcome());
        assertEquals("kind: required", result.error());
        assertEquals(List.of(), policy.seen);
    }

    @Test
    void thePolicyEditsACopy() throws Exception {
        String sent = body("apiextensions.k8s.io/v1", "shop.tollgate.dev/v2", widget("a", "v1",
                "{\"colour\":\"red\"}"));
        ConversionReview review = handler.codec().decode(sent.getBytes(StandardCharsets.UTF_8));
        JsonNode before = review.request().objects().get(0).deepCopy();
        handler.handle(review, "widgets", new ColourPolicy());
        assertEquals(before, review.request().objects().get(0));
    }
}
