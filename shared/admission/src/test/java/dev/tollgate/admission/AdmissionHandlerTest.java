package dev.tollgate.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

class AdmissionHandlerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final AdmissionHandler handler = new AdmissionHandler(new AdmissionCodec());
    private final byte[] podReview = ("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":"
            + "{\"uid\":\"u-1\",\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},"
            + "\"resource\":{\"group\":\"\",\"version\":\"v1\",\"resource\":\"pods\"},\"operation\":\"CREATE\","
            + "\"namespace\":\"ns\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"}}}}")
            .getBytes(StandardCharsets.UTF_8);

    private static ValidatingPolicy validating(java.util.function.Function<AdmissionRequest, Verdict> f) {
        return new ValidatingPolicy() {
            public Verdict validate(AdmissionRequest request) {
                return f.apply(request);
            }
        };
    }

    private static MutatingPolicy mutating(java.util.function.BiFunction<AdmissionRequest, ObjectNode, Verdict> f) {
        return new MutatingPolicy() {
            public Verdict mutate(AdmissionRequest request, ObjectNode object) {
                return f.apply(request, object);
            }
        };
    }

    @Test
    void badInputNeverReachesThePolicy() {
        AtomicInteger calls = new AtomicInteger();
        HandlerResult<AdmissionReview> r = handler.handle("{}".getBytes(), "test", validating(req -> {
            calls.incrementAndGet();
            return Verdict.allow();
        }));
        assertEquals(400, r.status());
        assertEquals(HandlerResult.Outcome.BAD_REQUEST, r.outcome());
        assertEquals(0, calls.get());
    }

    @Test
    void policyExceptionIsA500NeverAnAllow() throws Exception {
        HandlerResult<AdmissionReview> r;
        try (CapturedLog log = CapturedLog.of(AdmissionHandler.class)) {
            r = handler.handle(podReview, "test", validating(req -> {
                throw new IllegalStateException("boom with secret details");
            }));
            // The details go to the log, with the request's uid; the answer says only what failed.
            LogRecord record = log.only();
            assertEquals(Level.SEVERE, record.getLevel());
            assertEquals("policy test failed on request uid=u-1", record.getMessage());
            assertEquals("boom with secret details", record.getThrown().getMessage());
        }
        assertEquals(500, r.status());
        assertEquals(HandlerResult.Outcome.ERROR, r.outcome());
        JsonNode body = JSON.readTree(r.body());
        assertFalse(body.has("response"), "no AdmissionReview, so the API server applies failurePolicy");
        assertFalse(body.path("message").asText().contains("secret details"), "short message only");
        assertTrue(body.path("message").asText().contains("IllegalStateException"));
    }

    @Test
    void nullVerdictIsAnError() {
        try (CapturedLog log = CapturedLog.of(AdmissionHandler.class)) {
            assertEquals(500, handler.handle(podReview, "test", validating(req -> null)).status());
            assertEquals("policy returned no verdict", log.only().getThrown().getMessage());
        }
    }

    @Test
    void mutationEditsACopyAndBecomesAPatch() throws Exception {
        HandlerResult<AdmissionReview> r = handler.handle(podReview, "test", mutating((req, obj) -> {
            ((ObjectNode) obj.get("metadata")).putObject("labels").put("app.kubernetes.io/name", "p");
            return Verdict.allow();
        }));
        assertEquals(HandlerResult.Outcome.PATCHED, r.outcome());
        assertEquals(1, r.patchOps());
        assertFalse(r.review().request().object().json().path("metadata").has("labels"), "original untouched");
        JsonNode patch = JSON.readTree(Base64.getDecoder().decode(
                JSON.readTree(r.body()).path("response").path("patch").asText()));
        assertEquals("/metadata/labels", patch.get(0).path("path").asText());
    }

    @Test
    void deniedMutationCarriesNoPatch() throws Exception {
        HandlerResult<AdmissionReview> r = handler.handle(podReview, "test", mutating((req, obj) -> {
            obj.put("changed", true);
            return Verdict.deny("no");
        }));
        assertEquals(HandlerResult.Outcome.DENIED, r.outcome());
        assertFalse(JSON.readTree(r.body()).path("response").has("patch"));
    }

    @Test
    void unchangedMutationIsAPlainAllow() {
        HandlerResult<AdmissionReview> r = handler.handle(podReview, "test", mutating((req, obj) -> Verdict.allow()));
        assertEquals(HandlerResult.Outcome.ALLOWED, r.outcome());
        assertEquals(0, r.patchOps());
        assertTrue(r.verdict().allowed());
    }
}
