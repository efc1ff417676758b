package dev.tollgate.functions.celmutate;

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

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.testing.CapturedLog;
import dev.tollgate.testing.EnforcementModesProfile;
import dev.tollgate.testing.ManagementEndpoints;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.ReviewBuilder;
import dev.tollgate.testing.ReviewResult;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * The MutatingAdmissionPolicy function under each enforcement mode, over HTTP: in audit the policies' patch is
 * computed and recorded (would_patch), not sent; in warn and enforce it is sent.
 */
@QuarkusTest
@TestProfile(EnforcementModesProfile.class)
class CelMutateEnforcementModesTest {

    private static final String PATH = "/cel-mutate";
    private CapturedLog decisions;

    @BeforeEach
    void capture() {
        decisions = CapturedLog.of("tollgate.decision");
    }

    @AfterEach
    void release() {
        decisions.close();
    }

    /** A pod in the mesh namespace of the examples: the sidecar policy binds it. */
    private static ReviewBuilder meshPod(String uid, ReviewVersion version) {
        return ReviewBuilder.create(Manifests.parse("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web, namespace: shop}
                spec: {containers: [{name: app, image: nginx}]}
                """)).uid(uid).version(version);
    }

    private static double reviews(String cluster, String verdict, String decision, String enforcement) {
        if (!ManagementEndpoints.metricsServed()) {
            return 0;
        }
        return ManagementEndpoints.metric(ManagementEndpoints.metrics(), "tollgate_reviews_total",
                "function=\"cel-mutate\"", "cluster=\"" + cluster + "\"", "verdict=\"" + verdict + "\"",
                "decision=\"" + decision + "\"", "enforcement=\"" + enforcement + "\"");
    }

    private static List<String> logged(JsonNode line) {
        return List.of(line.path("cluster").asText(), line.path("verdict").asText(), line.path("decision").asText(),
                line.path("enforcement").asText(), line.path("patchOps").asText());
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void auditRecordsThePoliciesPatchAndSendsNone(ReviewVersion version) throws Exception {
        ReviewResult enforced = EnforcementModesProfile.mutating(EnforcementModesProfile.ENFORCE, PATH)
                .review(meshPod("enforce-" + version, version)).assertAllowed().assertPatched();
        double before = reviews(EnforcementModesProfile.AUDIT, "allowed", "patched", "audit");

        ReviewResult audited = EnforcementModesProfile.mutating(EnforcementModesProfile.AUDIT, PATH)
                .review(meshPod("audit-" + version, version)).assertAllowed().assertNoPatch().assertNoWarnings();
        JsonNode wouldPatch = new ObjectMapper().readTree(audited.review().path("response").path("auditAnnotations")
                .path("would_patch").asText());
        assertEquals(enforced.patch(), wouldPatch, "the patch enforce sends is the one audit records");

        String ops = String.valueOf(wouldPatch.size());
        assertEquals(List.of("west", "allowed", "patched", "audit", "0"),
                logged(EnforcementModesProfile.decision(decisions, "audit-" + version)));
        assertEquals(List.of("north", "patched", "patched", "enforce", ops),
                logged(EnforcementModesProfile.decision(decisions, "enforce-" + version)));
        if (ManagementEndpoints.metricsServed()) {
            assertEquals(1, reviews(EnforcementModesProfile.AUDIT, "allowed", "patched", "audit") - before);
        }
    }

    @Test
    void warnSendsThePatch() {
        ReviewResult warned = EnforcementModesProfile.mutating(EnforcementModesProfile.WARN, PATH)
                .review(meshPod("warn-1", ReviewVersion.V1)).assertAllowed().assertPatched().assertNoWarnings();
        assertEquals("mesh/proxy:v1.0.0",
                warned.patchedObject().path("spec").path("initContainers").path(0).path("image").asText());
        assertFalse(warned.review().path("response").path("auditAnnotations").has("would_patch"));
        assertEquals("warn", EnforcementModesProfile.decision(decisions, "warn-1").path("enforcement").asText());
    }

    @Test
    void auditOfAPodNoPolicyBindsAnnotatesNothing() {
        ReviewResult r = EnforcementModesProfile.mutating(EnforcementModesProfile.AUDIT, PATH)
                .review(ReviewBuilder.create(Manifests.parse("""
                        apiVersion: v1
                        kind: Pod
                        metadata: {name: web, namespace: default}
                        spec: {containers: [{name: app, image: nginx}]}
                        """)).uid("audit-unbound")).assertAllowed().assertNoPatch();
        // Only the name of the cluster the call was taken for (AdmissionHandler.CLUSTER).
        assertEquals("{\"cluster\":\"west\"}", r.review().path("response").path("auditAnnotations").toString());
        assertEquals(List.of("west", "allowed", "allowed", "audit", "0"),
                logged(EnforcementModesProfile.decision(decisions, "audit-unbound")));
    }
}
