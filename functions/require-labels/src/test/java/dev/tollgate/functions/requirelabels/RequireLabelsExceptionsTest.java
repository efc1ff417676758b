package dev.tollgate.functions.requirelabels;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.admission.Operation;
import dev.tollgate.testing.AdmissionHttp;
import dev.tollgate.testing.CapturedLog;
import dev.tollgate.testing.EnforcementModesProfile;
import dev.tollgate.testing.ManagementEndpoints;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.ReviewBuilder;
import dev.tollgate.testing.ReviewResult;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * The exceptions file applied by the function itself (tollgate.exceptions.file): an excepted request is allowed
 * without the policy, saying which exception in its audit annotations, the decision log and the metrics; expired
 * exceptions, other functions' and those that need namespace labels do not except anything here.
 */
@QuarkusTest
@TestProfile(RequireLabelsExceptionsTest.WithExceptions.class)
class RequireLabelsExceptionsTest {

    public static class WithExceptions implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("tollgate.exceptions.file", "src/test/resources/exceptions-test.yaml");
        }
    }

    private static final AdmissionHttp FUNCTION = AdmissionHttp.validating("/require-labels");
    private CapturedLog decisions;

    @BeforeEach
    void capture() {
        decisions = CapturedLog.of("tollgate.decision");
    }

    @AfterEach
    void release() {
        decisions.close();
    }

    private static ReviewBuilder unlabelledService(String uid, String namespace) {
        return ReviewBuilder.create(Manifests.parse("""
                apiVersion: v1
                kind: Service
                metadata: {name: api, namespace: %s}
                spec: {ports: [{port: 80}]}
                """.formatted(namespace))).uid(uid).namespace(namespace);
    }

    private static double excepted() {
        return ManagementEndpoints.metric(ManagementEndpoints.metrics(), "tollgate_reviews_total",
                "function=\"require-labels\"", "verdict=\"allowed\"", "decision=\"excepted\"");
    }

    @Test
    void anExceptedRequestIsAllowedWithoutThePolicyNamingTheException() {
        double before = ManagementEndpoints.metricsServed() ? excepted() : 0;
        ReviewResult r = FUNCTION.review(unlabelledService("exc-ns", "legacy")).assertAllowed().assertNoWarnings();
        assertEquals(Map.of("excepted_by", "legacy-shop"), auditAnnotations(r));
        JsonNode line = EnforcementModesProfile.decision(decisions, "exc-ns");
        assertEquals(List.of("allowed", "excepted", "legacy-shop"), List.of(line.path("verdict").asText(),
                line.path("decision").asText(), line.path("exception").asText()));

        r = FUNCTION.review(unlabelledService("exc-user", "shop").user("ci-bot")).assertAllowed();
        assertEquals(Map.of("excepted_by", "ci-deployer"), auditAnnotations(r));
        if (ManagementEndpoints.metricsServed()) {
            assertEquals(2, excepted() - before);
        }
    }

    @Test
    void otherRequestsMeetThePolicy() {
        // Another namespace; ci-bot outside the exception's operations; an expired exception; another function's;
        // one that selects namespaces by label, which the function cannot read.
        FUNCTION.review(unlabelledService("plain", "shop")).assertDenied().withCode(403);
        FUNCTION.review(unlabelledService("ci-update", "shop").user("ci-bot").operation(Operation.UPDATE)
                .oldObject(unlabelledService("x", "shop").build().path("request").path("object")))
                .assertDenied().withCode(403);
        FUNCTION.review(unlabelledService("expired", "old")).assertDenied().withCode(403);
        FUNCTION.review(unlabelledService("sandbox", "sandbox")).assertDenied().withCode(403);
        JsonNode line = EnforcementModesProfile.decision(decisions, "expired");
        assertEquals(List.of("denied", "denied", ""), List.of(line.path("verdict").asText(),
                line.path("decision").asText(), line.path("exception").asText()));
    }

    private static Map<String, String> auditAnnotations(ReviewResult r) {
        Map<String, String> out = new java.util.TreeMap<>();
        r.review().path("response").path("auditAnnotations").fields()
                .forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }
}
