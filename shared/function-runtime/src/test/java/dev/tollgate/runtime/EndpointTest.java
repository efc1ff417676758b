package dev.tollgate.runtime;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.admission.AdmissionHandler;
import dev.tollgate.testing.CapturedLog;
import io.quarkus.test.junit.QuarkusTest;

/** The endpoint without caller checks: deadline, policy failures, metrics and the decision log. */
@QuarkusTest
class EndpointTest {

    private CapturedLog decisions;

    @BeforeEach
    void captureDecisions() {
        decisions = CapturedLog.of(DecisionLog.CATEGORY);
    }

    @AfterEach
    void stopCapture() {
        decisions.close();
    }

    private static io.restassured.response.Response post(String body) {
        return given().contentType("application/json").body(body).post("/probe");
    }

    @Test
    void policyOverrunningTheDeadlineIsAnsweredWith500AndCounted() {
        String before = Probe.metrics();
        String body = Probe.body("sleep-ms", "30000");
        String uid = "uid=" + Probe.uid(body);
        try (CapturedLog log = CapturedLog.of(ReviewEdge.class, PolicyRunner.class, AnswerRecorder.class, AdmissionHandler.class)) {
            post(body).then().statusCode(500)
                    .body("kind", equalTo("Status")).body("code", equalTo(500)).body("reason", equalTo("InternalError"))
                    .body("message", containsString("did not answer within the deadline of 1000 ms"));
            // The overrun is logged; the policy, interrupted, fails, and its late return is dropped.
            log.await(Level.WARNING, "policy probe did not answer within the deadline of 1000 ms", uid,
                    "answered 500 (error)");
            log.await(Level.SEVERE, "policy probe failed on request " + uid);
            log.await(Level.WARNING, "policy probe returned after", uid, "its answer was dropped");
        }
        String after = Probe.metrics();
        assertEquals(1, Probe.metric(after, "tollgate_deadline_overruns_total", "function=\"probe\"")
                - Probe.metric(before, "tollgate_deadline_overruns_total", "function=\"probe\""));
        assertEquals(1, Probe.metric(after, "tollgate_reviews_total", "verdict=\"error\"", "kind=\"Pod\"")
                - Probe.metric(before, "tollgate_reviews_total", "verdict=\"error\"", "kind=\"Pod\""));
        JsonNode line = lastDecision();
        assertTrue(line.path("deadlineExceeded").asBoolean(), line.toString());
        assertEquals(500, line.path("status").asInt());
    }

    @Test
    void abandonedPolicyThatIgnoresInterruptsIsTrackedUntilItReturns() throws InterruptedException {
        String body = Probe.body("probe", "spin", "sleep-ms", "4000");
        String uid = "uid=" + Probe.uid(body);
        try (CapturedLog log = CapturedLog.of(ReviewEdge.class, PolicyRunner.class, AnswerRecorder.class)) {
            post(body).then().statusCode(500);
            log.await(Level.WARNING, "policy probe did not answer within the deadline of 1000 ms", uid);
            // Answered at the deadline (1 s) while the policy spins on for 3 s more, ignoring the interrupt.
            assertEquals(1, gaugeWithoutLabels(Probe.metrics()), "the abandoned policy is still running");
            double running = -1;
            for (int i = 0; i < 200 && running != 0; i++) {
                Thread.sleep(100);
                running = gaugeWithoutLabels(Probe.metrics());
            }
            assertEquals(0, running, "no longer counted once it returned");
            log.await(Level.WARNING, "policy probe returned after", uid, "its answer was dropped");
        }
        // And the function still answers.
        post(Probe.body()).then().statusCode(200).body("response.allowed", equalTo(true));
    }

    private static double gaugeWithoutLabels(String text) {
        for (String l : text.split("\n")) {
            if (l.startsWith("tollgate_abandoned_policies_running ")) {
                return Double.parseDouble(l.substring(l.indexOf(' ') + 1));
            }
        }
        return -1;
    }

    @Test
    void policyExceptionIs500WithoutDetailAndCounted() {
        String before = Probe.metrics();
        String body = Probe.body("probe", "throw");
        try (CapturedLog log = CapturedLog.of(AdmissionHandler.class)) {
            post(body).then().statusCode(500)
                    .body("message", equalTo("policy probe failed: IllegalStateException"));
            // The caller gets no detail; the log has the exception, for the operator.
            LogRecord failure = log.await(Level.SEVERE, "policy probe failed on request uid=" + Probe.uid(body));
            assertEquals("probe failure", failure.getThrown().getMessage());
        }
        assertEquals(1, Probe.metric(Probe.metrics(), "tollgate_reviews_total", "verdict=\"error\"")
                - Probe.metric(before, "tollgate_reviews_total", "verdict=\"error\""));
    }

    @Test
    void verdictsAreCountedByFunctionOperationKindAndVerdict() {
        String before = Probe.metrics();
        post(Probe.body("probe", "deny")).then().statusCode(200).body("response.allowed", equalTo(false));
        post(Probe.body()).then().statusCode(200).body("response.allowed", equalTo(true));
        String after = Probe.metrics();
        for (String verdict : new String[] { "denied", "allowed" }) {
            String[] labels = { "function=\"probe\"", "operation=\"CREATE\"", "kind=\"Pod\"",
                    "verdict=\"" + verdict + "\"" };
            assertEquals(1, Probe.metric(after, "tollgate_reviews_total", labels)
                    - Probe.metric(before, "tollgate_reviews_total", labels), verdict);
        }
        assertTrue(after.contains("tollgate_review_duration_seconds_bucket{"), "latency histogram is published");
    }

    @Test
    void badRequestsAreCountedByStatus() {
        String before = Probe.metrics();
        given().contentType("application/json").body("{}").post("/probe").then().statusCode(400);
        given().contentType("text/plain").body("{}").post("/probe").then().statusCode(400);
        given().contentType("application/json").body("{}").post("/nothing-here").then().statusCode(404);
        String after = Probe.metrics();
        assertEquals(2, Probe.metric(after, "tollgate_bad_requests_total", "function=\"probe\"", "status=\"400\"")
                - Probe.metric(before, "tollgate_bad_requests_total", "function=\"probe\"", "status=\"400\""));
        assertEquals(1, Probe.metric(after, "tollgate_bad_requests_total", "status=\"404\"")
                - Probe.metric(before, "tollgate_bad_requests_total", "status=\"404\""));
    }

    @Test
    void oneJsonDecisionLinePerReviewWithoutObjectContent() {
        post(Probe.body("probe", "deny", "secret-ish", "do-not-log")).then().statusCode(200);
        JsonNode line = lastDecision();
        assertEquals("probe", line.path("function").asText());
        assertEquals("CREATE", line.path("operation").asText());
        assertEquals("Pod", line.path("kind").asText());
        assertEquals("web", line.path("name").asText());
        assertEquals("denied", line.path("verdict").asText());
        assertEquals(200, line.path("status").asInt());
        assertEquals(403, line.path("code").asInt());
        assertEquals(0, line.path("patchOps").asInt());
        assertFalse(line.path("uid").asText().isEmpty());
        assertTrue(line.has("user") && line.has("namespace") && line.path("latencyMs").isNumber(), line.toString());
        assertFalse(line.toString().contains("do-not-log"), "no object content: " + line);
    }

    private JsonNode lastDecision() {
        List<LogRecord> lines = decisions.records();
        assertFalse(lines.isEmpty(), "a decision line was logged");
        String last = CapturedLog.message(lines.get(lines.size() - 1));
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(last);
        } catch (java.io.IOException e) {
            throw new AssertionError("decision line is not JSON: " + last, e);
        }
    }
}
