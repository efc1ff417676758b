package dev.tollgate.functions.celpolicy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.testing.CapturedLog;
import dev.tollgate.testing.EnforcementModesProfile;
import dev.tollgate.testing.ManagementEndpoints;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.ReviewBuilder;
import dev.tollgate.testing.ReviewResult;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * cel-policy's denial in warn and audit: the function's mode applies on top of what its CEL policies decide (their
 * own validationActions), and the policies' own warnings and audit annotations are kept.
 */
@QuarkusTest
@TestProfile(EnforcementModesProfile.class)
class CelPolicyEnforcementModesTest {

    private static final String PATH = "/cel-policy";
    private static final String DENIAL = "containers app use images outside registry.example.com";
    private static final String OWN_ANNOTATION = "trusted-registry.example.com.untrusted";
    private CapturedLog decisions;

    @BeforeEach
    void capture() {
        decisions = CapturedLog.of("tollgate.decision");
    }

    @AfterEach
    void release() {
        decisions.close();
    }

    /** Denied by trusted-registry (with its audit annotation) and warned about by no-latest-tag. */
    private static ReviewBuilder untrustedLatestPod(String uid) {
        return ReviewBuilder.create(Manifests.parse("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web, namespace: shop}
                spec: {containers: [{name: app, image: docker.io/nginx}]}
                """)).uid(uid);
    }

    private static double reviews(String cluster, String verdict, String decision, String enforcement) {
        return ManagementEndpoints.metric(ManagementEndpoints.metrics(), "tollgate_reviews_total",
                "function=\"cel-policy\"", "cluster=\"" + cluster + "\"", "verdict=\"" + verdict + "\"",
                "decision=\"" + decision + "\"", "enforcement=\"" + enforcement + "\"");
    }

    private static List<String> logged(JsonNode line) {
        return List.of(line.path("cluster").asText(), line.path("verdict").asText(), line.path("decision").asText(),
                line.path("enforcement").asText());
    }

    @Test
    void warn() {
        ReviewResult enforced = EnforcementModesProfile.validating(EnforcementModesProfile.ENFORCE, PATH)
                .review(untrustedLatestPod("enforce-1")).assertDenied().withCode(403)
                .withMessageContaining(DENIAL);
        double before = reviews(EnforcementModesProfile.WARN, "allowed", "denied", "warn");

        ReviewResult r = EnforcementModesProfile.validating(EnforcementModesProfile.WARN, PATH)
                .review(untrustedLatestPod("warn-1")).assertAllowed()
                .assertAuditAnnotation(OWN_ANNOTATION, "app");
        assertEquals("Validation failed for function 'cel-policy': " + enforced.message(), r.warnings().get(0));
        assertEquals(enforced.warnings(), r.warnings().subList(1, r.warnings().size()),
                "the policies' own warnings follow");
        assertEquals(List.of("east", "allowed", "denied", "warn"),
                logged(EnforcementModesProfile.decision(decisions, "warn-1")));
        assertEquals(List.of("north", "denied", "denied", "enforce"),
                logged(EnforcementModesProfile.decision(decisions, "enforce-1")));
        assertEquals(1, reviews(EnforcementModesProfile.WARN, "allowed", "denied", "warn") - before);
    }

    @Test
    void audit() {
        ReviewResult enforced = EnforcementModesProfile.validating(EnforcementModesProfile.ENFORCE, PATH)
                .review(untrustedLatestPod("enforce-2")).assertDenied();
        double before = reviews(EnforcementModesProfile.AUDIT, "allowed", "denied", "audit");

        ReviewResult r = EnforcementModesProfile.validating(EnforcementModesProfile.AUDIT, PATH)
                .review(untrustedLatestPod("audit-2")).assertAllowed()
                .assertAuditAnnotation("would_deny", enforced.message())
                .assertAuditAnnotation(OWN_ANNOTATION, "app");
        assertEquals(enforced.warnings(), r.warnings());
        assertEquals(List.of("west", "allowed", "denied", "audit"),
                logged(EnforcementModesProfile.decision(decisions, "audit-2")));
        assertEquals(1, reviews(EnforcementModesProfile.AUDIT, "allowed", "denied", "audit") - before);
    }
}
