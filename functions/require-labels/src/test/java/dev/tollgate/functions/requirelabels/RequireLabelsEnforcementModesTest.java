package dev.tollgate.functions.requirelabels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.testing.CapturedLog;
import dev.tollgate.testing.EnforcementModesProfile;
import dev.tollgate.testing.ManagementEndpoints;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.Pods;
import dev.tollgate.testing.ReviewBuilder;
import dev.tollgate.testing.ReviewResult;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** A validating function in warn, audit and enforce, one caller cluster each: answers, decision log, metrics. */
@QuarkusTest
@TestProfile(EnforcementModesProfile.class)
class RequireLabelsEnforcementModesTest {

    private static final String PATH = "/require-labels";
    private static final String DENIAL = "is missing required label team";
    private CapturedLog decisions;

    @BeforeEach
    void capture() {
        decisions = CapturedLog.of("tollgate.decision");
    }

    @AfterEach
    void release() {
        decisions.close();
    }

    private static ReviewBuilder unlabelledService(String uid) {
        return ReviewBuilder.create(Pods.withLabels(Manifests.parse("""
                apiVersion: v1
                kind: Service
                metadata: {name: api, namespace: shop}
                spec: {ports: [{port: 80}]}
                """))).uid(uid);
    }

    private static double reviews(String cluster, String verdict, String decision, String enforcement) {
        return ManagementEndpoints.metric(ManagementEndpoints.metrics(), "tollgate_reviews_total",
                "function=\"require-labels\"", "cluster=\"" + cluster + "\"", "verdict=\"" + verdict + "\"",
                "decision=\"" + decision + "\"", "enforcement=\"" + enforcement + "\"");
    }

    @Test
    void warnAllowsTheDenialAsAWarning() {
        double before = ManagementEndpoints.metricsServed() ? reviews(EnforcementModesProfile.WARN, "allowed", "denied", "warn") : 0;
        ReviewResult r = EnforcementModesProfile.validating(EnforcementModesProfile.WARN, PATH)
                .review(unlabelledService("warn-1")).assertAllowed();
        assertEquals(1, r.warnings().size(), () -> r.warnings().toString());
        assertTrue(r.warnings().get(0).startsWith("Validation failed for function 'require-labels': Service "),
                r.warnings().get(0));
        assertTrue(r.warnings().get(0).endsWith(DENIAL), r.warnings().get(0));
        // Only the name of the cluster the call was taken for (AdmissionHandler.CLUSTER).
        assertEquals("{\"cluster\":\"east\"}", r.review().path("response").path("auditAnnotations").toString());

        JsonNode line = EnforcementModesProfile.decision(decisions, "warn-1");
        assertEquals(List.of("east", "allowed", "denied", "warn"), List.of(line.path("cluster").asText(),
                line.path("verdict").asText(), line.path("decision").asText(), line.path("enforcement").asText()));
        if (ManagementEndpoints.metricsServed()) {
            assertEquals(1, reviews(EnforcementModesProfile.WARN, "allowed", "denied", "warn") - before);
        }
    }

    @Test
    void auditAllowsTheDenialAndSaysWhatItWouldHaveDenied() {
        double before = ManagementEndpoints.metricsServed() ? reviews(EnforcementModesProfile.AUDIT, "allowed", "denied", "audit") : 0;
        ReviewResult r = EnforcementModesProfile.validating(EnforcementModesProfile.AUDIT, PATH)
                .review(unlabelledService("audit-1")).assertAllowed().assertNoWarnings();
        String wouldDeny = r.review().path("response").path("auditAnnotations").path("would_deny").asText();
        assertTrue(wouldDeny.startsWith("Service ") && wouldDeny.endsWith(DENIAL), wouldDeny);
        assertEquals(2, r.review().path("response").path("auditAnnotations").size());
        assertEquals("west", r.review().path("response").path("auditAnnotations").path("cluster").asText());

        JsonNode line = EnforcementModesProfile.decision(decisions, "audit-1");
        assertEquals(List.of("west", "allowed", "denied", "audit"), List.of(line.path("cluster").asText(),
                line.path("verdict").asText(), line.path("decision").asText(), line.path("enforcement").asText()));
        if (ManagementEndpoints.metricsServed()) {
            assertEquals(1, reviews(EnforcementModesProfile.AUDIT, "allowed", "denied", "audit") - before);
        }
    }

    @Test
    void enforceDenies() {
        double before = ManagementEndpoints.metricsServed() ? reviews(EnforcementModesProfile.ENFORCE, "denied", "denied", "enforce") : 0;
        EnforcementModesProfile.validating(EnforcementModesProfile.ENFORCE, PATH).review(unlabelledService("enf-1"))
                .assertDenied().withCode(403).withMessageContaining(DENIAL);
        JsonNode line = EnforcementModesProfile.decision(decisions, "enf-1");
        assertEquals(List.of("north", "denied", "denied", "enforce"), List.of(line.path("cluster").asText(),
                line.path("verdict").asText(), line.path("decision").asText(), line.path("enforcement").asText()));
        if (ManagementEndpoints.metricsServed()) {
            assertEquals(1, reviews(EnforcementModesProfile.ENFORCE, "denied", "denied", "enforce") - before);
        }
    }

    @Test
    void anAllowedReviewIsTheSameInEveryMode() {
        for (String cluster : List.of(EnforcementModesProfile.WARN, EnforcementModesProfile.AUDIT,
                EnforcementModesProfile.ENFORCE)) {
            ReviewResult r = EnforcementModesProfile.validating(cluster, PATH).review(ReviewBuilder.create(
                    Pods.withLabels(Manifests.parse("""
                            apiVersion: v1
                            kind: Service
                            metadata: {name: api, namespace: shop}
                            spec: {ports: [{port: 80}]}
                            """), "team", "shop", "app.kubernetes.io/name", "api")).uid("ok-" + cluster))
                    .assertAllowed().assertNoWarnings();
            assertEquals("{\"cluster\":\"" + cluster + "\"}", r.review().path("response").path("auditAnnotations")
                    .toString(), cluster);
            assertEquals("allowed", EnforcementModesProfile.decision(decisions, "ok-" + cluster).path("decision")
                    .asText());
        }
    }
}
