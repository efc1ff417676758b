package dev.tollgate.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.HandlerResult.Outcome;

class EnforcedVerdictTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Verdict DENIAL = Verdict.deny("missing label team").withWarning("label app is recommended")
            .withAuditAnnotation("checked", "team");

    private static ArrayNode patch() {
        ArrayNode patch = JSON.createArrayNode();
        patch.addObject().put("op", "replace").put("path", "/spec/containers/0/imagePullPolicy").put("value", "Always");
        return patch;
    }

    @Test
    void enforceAnswersTheDecision() {
        ArrayNode patch = patch();
        EnforcedVerdict e = EnforcedVerdict.of(EnforcementMode.ENFORCE, "f", DENIAL, null);
        assertSame(DENIAL, e.answered());
        assertEquals(Outcome.DENIED, e.answer());
        EnforcedVerdict p = EnforcedVerdict.of(EnforcementMode.ENFORCE, "f", Verdict.allow(), patch);
        assertSame(patch, p.sent());
        assertEquals(Outcome.PATCHED, p.decision());
        assertEquals(Outcome.PATCHED, p.answer());
    }

    @Test
    void warnAllowsADenialAndWarnsBeforeThePolicysOwnWarnings() {
        EnforcedVerdict e = EnforcedVerdict.of(EnforcementMode.WARN, "require-labels", DENIAL, null);
        assertTrue(e.answered().allowed());
        assertEquals(List.of("Validation failed for function 'require-labels': missing label team",
                "label app is recommended"), e.answered().warnings());
        assertEquals(Map.of("checked", "team"), e.answered().auditAnnotations());
        assertEquals(Outcome.DENIED, e.decision());
        assertEquals(Outcome.ALLOWED, e.answer());
        assertSame(DENIAL, e.decided());
    }

    @Test
    void warnAppliesAPatch() {
        ArrayNode patch = patch();
        EnforcedVerdict e = EnforcedVerdict.of(EnforcementMode.WARN, "f", Verdict.allow(), patch);
        assertSame(patch, e.sent());
        assertEquals(Outcome.PATCHED, e.answer());
    }

    @Test
    void auditAllowsADenialWithWhatItWouldHaveSaid() {
        EnforcedVerdict e = EnforcedVerdict.of(EnforcementMode.AUDIT, "require-labels", DENIAL, null);
        assertTrue(e.answered().allowed());
        assertEquals(List.of("label app is recommended"), e.answered().warnings());
        assertEquals(Map.of("checked", "team", "would_deny", "missing label team"), e.answered().auditAnnotations());
        assertEquals(Outcome.DENIED, e.decision());
        assertEquals(Outcome.ALLOWED, e.answer());
    }

    @Test
    void auditRecordsThePatchAndSendsNone() throws Exception {
        ArrayNode patch = patch();
        EnforcedVerdict e = EnforcedVerdict.of(EnforcementMode.AUDIT, "f", Verdict.allow().withWarning("w"), patch);
        assertNull(e.sent());
        assertEquals(List.of("w"), e.answered().warnings());
        JsonNode recorded = JSON.readTree(e.answered().auditAnnotations().get("would_patch"));
        assertEquals(patch, recorded);
        assertEquals(Outcome.PATCHED, e.decision());
        assertEquals(Outcome.ALLOWED, e.answer());
    }

    @Test
    void auditOfAnAllowWithoutChangesAddsNothing() {
        Verdict allow = Verdict.allow();
        EnforcedVerdict e = EnforcedVerdict.of(EnforcementMode.AUDIT, "f", allow, JSON.createArrayNode());
        assertSame(allow, e.answered());
        assertTrue(e.answered().auditAnnotations().isEmpty());
        assertEquals(Outcome.ALLOWED, e.decision());
    }

    @Test
    void longValuesAreCutAt10KiBWithoutSplittingACharacter() {
        String message = "x".repeat(EnforcedVerdict.MAX_ANNOTATION_VALUE_LENGTH - 1) + "\uD83D\uDE00" + "tail";
        EnforcedVerdict e = EnforcedVerdict.of(EnforcementMode.AUDIT, "f", Verdict.deny(message), null);
        String value = e.answered().auditAnnotations().get("would_deny");
        assertEquals(EnforcedVerdict.MAX_ANNOTATION_VALUE_LENGTH - 1, value.length());
        assertFalse(Character.isHighSurrogate(value.charAt(value.length() - 1)));
    }

    @Test
    void modesParseByNameAndRefuseOthersInOneLine() {
        assertEquals(EnforcementMode.AUDIT, EnforcementMode.parse(" Audit ", "k"));
        var e = assertThrows(IllegalArgumentException.class,
                () -> EnforcementMode.parse("dryrun", "tollgate.enforcement.mode"));
        assertEquals("tollgate.enforcement.mode=dryrun: not an enforcement mode (enforce, warn or audit)",
                e.getMessage());
    }

    @Test
    void theHandlerAnswersUnderTheModeOfTheCallersCluster() throws Exception {
        byte[] review = ("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":"
                + "{\"uid\":\"u-1\",\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},"
                + "\"resource\":{\"group\":\"\",\"version\":\"v1\",\"resource\":\"pods\"},\"operation\":\"CREATE\","
                + "\"namespace\":\"ns\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}}}").getBytes(StandardCharsets.UTF_8);
        AdmissionHandler handler = new AdmissionHandler(new AdmissionCodec(),
                cluster -> cluster.equals("east") ? EnforcementMode.AUDIT : EnforcementMode.ENFORCE);
        MutatingPolicy pullAlways = (request, object) -> {
            ((ObjectNode) object.path("spec").path("containers").get(0)).put("imagePullPolicy", "Always");
            return Verdict.allow();
        };
        AdmissionCodec codec = handler.codec();
        HandlerResult<AdmissionReview> east = handler.handle(codec.decode(review).withCluster("east"), "pull",
                pullAlways);
        HandlerResult<AdmissionReview> west = handler.handle(codec.decode(review).withCluster("west"), "pull",
                pullAlways);

        assertEquals("east", JSON.readTree(east.body()).path("response").path("auditAnnotations").path("cluster")
                .asText(), "the answer names the cluster it was taken for");
        assertEquals("west", JSON.readTree(west.body()).path("response").path("auditAnnotations").path("cluster")
                .asText());
        assertTrue(JSON.readTree(handler.handle(codec.decode(review), "pull", pullAlways).body()).path("response")
                .path("auditAnnotations").path("cluster").isMissingNode(), "one cluster governing itself: no name");
        assertEquals(EnforcementMode.AUDIT, east.enforcement());
        assertEquals(Outcome.PATCHED, east.decision());
        assertEquals(Outcome.ALLOWED, east.outcome());
        assertEquals(0, east.patchOps());
        JsonNode eastAnswer = JSON.readTree(east.body()).path("response");
        assertTrue(eastAnswer.path("patch").isMissingNode(), eastAnswer.toString());
        assertTrue(eastAnswer.path("auditAnnotations").path("would_patch").asText().contains("imagePullPolicy"));

        assertEquals(EnforcementMode.ENFORCE, west.enforcement());
        assertEquals(Outcome.PATCHED, west.outcome());
        assertEquals(1, west.patchOps());
        assertFalse(JSON.readTree(west.body()).path("response").path("patch").isMissingNode());
    }
}
