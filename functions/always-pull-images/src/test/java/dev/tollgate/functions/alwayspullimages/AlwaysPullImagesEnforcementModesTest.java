package dev.tollgate.functions.alwayspullimages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.testing.CapturedLog;
import dev.tollgate.testing.EnforcementModesProfile;
import dev.tollgate.testing.ManagementEndpoints;
import dev.tollgate.testing.Pods;
import dev.tollgate.testing.ReviewBuilder;
import dev.tollgate.testing.ReviewResult;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * A mutating function in audit computes its patch and does not send it (the audit annotation would_patch holds it);
 * in warn and enforce the patch is applied.
 */
@QuarkusTest
@TestProfile(EnforcementModesProfile.class)
class AlwaysPullImagesEnforcementModesTest {

    private static final String PATH = "/always-pull-images";
    private CapturedLog decisions;

    @BeforeEach
    void capture() {
        decisions = CapturedLog.of("tollgate.decision");
    }

    @AfterEach
    void release() {
        decisions.close();
    }

    private static ReviewBuilder pod(String uid, ReviewVersion version) {
        ObjectNode pod = Pods.withContainer(Pods.minimal("web"), "initContainers", "init", "busybox");
        return ReviewBuilder.create(pod).uid(uid).version(version);
    }

    private static double reviews(String cluster, String verdict, String decision, String enforcement) {
        return ManagementEndpoints.metric(ManagementEndpoints.metrics(), "tollgate_reviews_total",
                "function=\"always-pull-images\"", "cluster=\"" + cluster + "\"", "verdict=\"" + verdict + "\"",
                "decision=\"" + decision + "\"", "enforcement=\"" + enforcement + "\"");
    }

    private static List<String> logged(JsonNode line) {
        return List.of(line.path("cluster").asText(), line.path("verdict").asText(), line.path("decision").asText(),
                line.path("enforcement").asText(), line.path("patchOps").asText());
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void auditRecordsThePatchItWouldHaveSentAndSendsNone(ReviewVersion version) throws Exception {
        ReviewResult enforced = EnforcementModesProfile.mutating(EnforcementModesProfile.ENFORCE, PATH)
                .review(pod("enforce-" + version, version)).assertAllowed().assertPatched();
        double before = reviews(EnforcementModesProfile.AUDIT, "allowed", "patched", "audit");

        ReviewResult audited = EnforcementModesProfile.mutating(EnforcementModesProfile.AUDIT, PATH)
                .review(pod("audit-" + version, version)).assertAllowed().assertNoPatch().assertNoWarnings();
        JsonNode wouldPatch = new ObjectMapper().readTree(audited.review().path("response").path("auditAnnotations")
                .path("would_patch").asText());
        assertEquals(enforced.patch(), wouldPatch, "the patch enforce sends is the one audit records");
        assertEquals(2, wouldPatch.size());

        assertEquals(List.of("west", "allowed", "patched", "audit", "0"),
                logged(EnforcementModesProfile.decision(decisions, "audit-" + version)));
        assertEquals(List.of("north", "patched", "patched", "enforce", "2"),
                logged(EnforcementModesProfile.decision(decisions, "enforce-" + version)));
        assertEquals(1, reviews(EnforcementModesProfile.AUDIT, "allowed", "patched", "audit") - before);
    }

    @Test
    void warnAppliesThePatch() {
        double before = reviews(EnforcementModesProfile.WARN, "patched", "patched", "warn");
        ReviewResult warned = EnforcementModesProfile.mutating(EnforcementModesProfile.WARN, PATH)
                .review(pod("warn-1", ReviewVersion.V1)).assertAllowed().assertPatched().assertNoWarnings();
        warned.patchedObject().path("spec").path("containers")
                .forEach(c -> assertEquals("Always", c.path("imagePullPolicy").asText()));
        assertFalse(warned.review().path("response").path("auditAnnotations").has("would_patch"));
        assertEquals(List.of("east", "patched", "patched", "warn", "2"),
                logged(EnforcementModesProfile.decision(decisions, "warn-1")));
        assertEquals(1, reviews(EnforcementModesProfile.WARN, "patched", "patched", "warn") - before);
    }

    @Test
    void auditOfAPodThatNeedsNoChangeAnnotatesNothing() {
        ObjectNode pod = Pods.minimal("pulled");
        pod.path("spec").path("containers").forEach(c -> ((ObjectNode) c).put("imagePullPolicy", "Always"));
        ReviewResult r = EnforcementModesProfile.mutating(EnforcementModesProfile.AUDIT, PATH)
                .review(ReviewBuilder.create(pod).uid("audit-nochange")).assertAllowed().assertNoPatch();
        // Only the name of the cluster the call was taken for (AdmissionHandler.CLUSTER).
        assertEquals("{\"cluster\":\"west\"}", r.review().path("response").path("auditAnnotations").toString());
        assertEquals(List.of("west", "allowed", "allowed", "audit", "0"),
                logged(EnforcementModesProfile.decision(decisions, "audit-nochange")));
    }
}
