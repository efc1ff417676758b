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

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.ReviewKind;
import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.admission.conversion.ConversionHandler;
import dev.tollgate.admission.registration.Registrations;
import dev.tollgate.admission.registration.WebhookRegistration;
import dev.tollgate.testing.CapturedLog;
import dev.tollgate.testing.ConversionTester;
import dev.tollgate.testing.Manifests;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/** Conversion functions behind the same gate: served, timed, counted and logged like admission functions. */
@QuarkusTest
class ConversionGateTest {

    private static final String PATH = "/probe-conversion";
    private static final String V2 = ProbeConversion.GROUP + "/v2";

    @Inject
    PolicyDirectory policies;

    private CapturedLog decisions;

    @BeforeEach
    void captureDecisions() {
        decisions = CapturedLog.of(DecisionLog.CATEGORY);
    }

    @AfterEach
    void stopCapture() {
        decisions.close();
    }

    /** A v1 Probe object whose labels steer {@link ProbeConversion}. */
    static ObjectNode probe(String name, String... labels) {
        ObjectNode o = (ObjectNode) Manifests.parse("apiVersion: probe.tollgate.dev/v1\nkind: Probe\n"
                + "metadata: {name: " + name + ", namespace: shop, uid: 0d1c5e7a-1}\nspec: {size: 3}\n");
        ObjectNode l = ((ObjectNode) o.get("metadata")).putObject("labels");
        for (int i = 0; i < labels.length; i += 2) {
            l.put(labels[i], labels[i + 1]);
        }
        return o;
    }

    private static Response post(JsonNode review) {
        return given().contentType("application/json").body(Manifests.toJson(review)).post(PATH);
    }

    private static ConversionTester.Conversion convert(ReviewVersion version, JsonNode... objects) {
        ObjectNode sent = ConversionTester.request(version, V2, objects);
        Response r = post(sent);
        return ConversionTester.Conversion.checked(sent, r.statusCode(), r.asByteArray());
    }

    @Test
    void theConversionPolicyIsServedByTheNameItsWebhookYamlGives() {
        assertEquals(List.of("probe-conversion"), List.copyOf(policies.conversions().keySet()));
        assertTrue(policies.resolveConversion("/probe-conversion").orElseThrow() instanceof ProbeConversion);
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void convertsInTheReviewVersionReceived(ReviewVersion version) {
        var answer = convert(version, probe("a"), probe("b")).assertConverted();
        assertEquals(ReviewKind.CONVERSION.apiVersion(version), answer.review().path("apiVersion").asText());
        assertEquals(3, answer.object(0).path("spec").path("capacity").asInt());
        assertEquals("b", answer.object(1).path("metadata").path("name").asText());
    }

    @Test
    void aRefusedObjectFailsTheReviewAndIsCountedAsFailed() {
        String before = Probe.metrics();
        convert(ReviewVersion.V1, probe("a"), probe("b", "probe", "refuse")).assertFailed()
                .withMessageContaining("objects[1] (Probe shop/b, probe.tollgate.dev/v1): cannot convert to "
                        + V2 + ": probe refuses");
        String[] labels = { "function=\"probe-conversion\"", "operation=\"CONVERT\"", "kind=\"Probe\"",
                "verdict=\"failed\"" };
        assertEquals(1, Probe.metric(Probe.metrics(), "tollgate_reviews_total", labels)
                - Probe.metric(before, "tollgate_reviews_total", labels));
        JsonNode line = lastDecision();
        assertEquals("failed", line.path("verdict").asText());
        assertEquals(2, line.path("objectCount").asInt());
        assertTrue(line.path("error").asText().contains("probe refuses"), line.toString());
    }

    @Test
    void aConversionTheApiServerWouldRejectIsAFailureNotAnAnswer() {
        convert(ReviewVersion.V1, probe("a", "probe", "rename")).assertFailed()
                .withMessageContaining("is invalid");
        assertEquals("invalid", lastDecision().path("verdict").asText());
    }

    @Test
    void aPolicyThatThrowsIsA500StatusAndCounted() {
        String before = Probe.metrics();
        ObjectNode sent = ConversionTester.request(ReviewVersion.V1, V2, probe("a", "probe", "throw"));
        try (CapturedLog log = CapturedLog.of(ConversionHandler.class)) {
            post(sent).then()
                    .statusCode(500).body("kind", equalTo("Status"))
                    .body("message", equalTo("conversion policy probe-conversion failed: IllegalStateException"));
            // The caller gets no detail; the log has the exception, for the operator.
            LogRecord failure = log.await(Level.SEVERE, "conversion policy probe-conversion failed on request uid="
                    + sent.path("request").path("uid").asText());
            assertEquals("probe failure", failure.getThrown().getMessage());
        }
        String[] labels = { "function=\"probe-conversion\"", "verdict=\"error\"", "kind=\"Probe\"" };
        assertEquals(1, Probe.metric(Probe.metrics(), "tollgate_reviews_total", labels)
                - Probe.metric(before, "tollgate_reviews_total", labels));
    }

    @Test
    void aConversionOverrunningTheDeadlineIsAnswered500AndCounted() {
        String before = Probe.metrics();
        ObjectNode sent = ConversionTester.request(ReviewVersion.V1, V2, probe("slow", "sleep-ms", "30000"));
        String uid = "uid=" + sent.path("request").path("uid").asText();
        try (CapturedLog log = CapturedLog.of(ReviewEdge.class, PolicyRunner.class, AnswerRecorder.class, ConversionHandler.class)) {
            post(sent).then().statusCode(500).body("kind", equalTo("Status"))
                    .body("message", containsString("did not answer within the deadline of 1000 ms"));
            // The overrun is logged; the policy, interrupted, fails, and its late return is dropped.
            log.await(Level.WARNING, "policy probe-conversion did not answer within the deadline of 1000 ms", uid,
                    "answered 500 (error)");
            log.await(Level.SEVERE, "conversion policy probe-conversion failed on request " + uid);
            log.await(Level.WARNING, "policy probe-conversion returned after", uid, "its answer was dropped");
        }
        String after = Probe.metrics();
        assertEquals(1, Probe.metric(after, "tollgate_deadline_overruns_total", "function=\"probe-conversion\"")
                - Probe.metric(before, "tollgate_deadline_overruns_total", "function=\"probe-conversion\""));
        JsonNode line = lastDecision();
        assertTrue(line.path("deadlineExceeded").asBoolean(), line.toString());
        assertEquals(sent.path("request").path("uid").asText(), line.path("uid").asText());
        assertEquals("CONVERT", line.path("operation").asText());
        // And the function still answers.
        convert(ReviewVersion.V1, probe("after")).assertConverted();
    }

    @Test
    void oneDecisionLineWithoutObjectContent() {
        ObjectNode sent = ConversionTester.request(ReviewVersion.V1BETA1, V2, probe("a", "secret-ish", "do-not-log"));
        post(sent).then().statusCode(200);
        JsonNode line = lastDecision();
        assertEquals(sent.path("request").path("uid").asText(), line.path("uid").asText());
        assertEquals("probe-conversion", line.path("function").asText());
        assertEquals("CONVERT", line.path("operation").asText());
        assertEquals("Probe", line.path("kind").asText());
        assertEquals(V2, line.path("desiredAPIVersion").asText());
        assertEquals(1, line.path("objectCount").asInt());
        assertEquals("converted", line.path("verdict").asText());
        assertEquals(200, line.path("status").asInt());
        assertFalse(line.toString().contains("do-not-log"), "no object content: " + line);
    }

    @Test
    void badRequestsNameTheConversionReviewAndAreCounted() {
        String before = Probe.metrics();
        given().contentType("application/json").body("[]").post(PATH).then().statusCode(400)
                .body("message", equalTo("body is not a JSON object: expected a ConversionReview"));
        given().contentType("application/json").body("{}").post(PATH).then().statusCode(400)
                .body("message", equalTo("apiVersion: required"));
        given().contentType("application/json").body("{\"a\":1} {}").post(PATH).then().statusCode(400)
                .body("message", containsString("data after the ConversionReview"));
        given().get(PATH).then().statusCode(405).header("Allow", "POST")
                .body("message", equalTo("method GET not allowed: POST a ConversionReview"));
        assertEquals(4, Probe.metric(Probe.metrics(), "tollgate_bad_requests_total",
                "function=\"probe-conversion\"") - Probe.metric(before, "tollgate_bad_requests_total",
                        "function=\"probe-conversion\""));
        // An AdmissionReview is not a ConversionReview, and the other way round.
        post(Manifests.parse(Probe.body())).then().statusCode(400)
                .body("message", containsString("expected apiextensions.k8s.io/v1 or apiextensions.k8s.io/v1beta1"));
        given().contentType("application/json").body(Manifests.toJson(ConversionTester.request(ReviewVersion.V1,
                V2, probe("a")))).post("/probe").then().statusCode(400)
                .body("message", containsString("expected admission.k8s.io/v1 or admission.k8s.io/v1beta1"));
    }

    @Test
    void registrationsMustPointAtAPolicyOfTheirType() {
        List<WebhookRegistration> entries = Registrations.read("probe", new java.io.ByteArrayInputStream("""
                type: conversion
                path: /probe-conversion
                crd: probes.probe.tollgate.dev
                versions: [v1, v2]
                conversionReviewVersions: [v1, v1beta1]
                ---
                type: conversion
                path: /probe
                crd: others.probe.tollgate.dev
                versions: [v1, v2]
                conversionReviewVersions: [v1]
                ---
                type: validating
                path: /probe-conversion
                name: probe.tollgate.dev
                rules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
                sideEffects: None
                admissionReviewVersions: [v1]
                """.getBytes()), "test");
        assertEquals(List.of("others.probe.tollgate.dev (conversion) -> /probe",
                "probe.tollgate.dev (validating) -> /probe-conversion"), RegistrationCheck.unserved(entries, policies));
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
