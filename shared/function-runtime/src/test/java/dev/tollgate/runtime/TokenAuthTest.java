package dev.tollgate.runtime;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.tollgate.testing.CapturedLog;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;

/** Bearer and path token together: both must pass; refusals are a bare, counted 401. */
@QuarkusTest
@TestProfile(AuthProfiles.Tokens.class)
class TokenAuthTest {

    /** A 404 names no part of the path (issue 45): it may hold a token. */
    static final String NOT_SERVED = "no policy is served at the requested path; this function serves /probe, "
            + "/probe-conversion";

    private static Response post(String path, String bearer) {
        var spec = given().contentType("application/json").body(Probe.body("probe", "deny"));
        if (bearer != null) {
            spec = spec.header("Authorization", "Bearer " + bearer);
        }
        return spec.post(path);
    }

    private static void assertRefused(Response r) {
        r.then().statusCode(401).body("kind", equalTo("Status")).body("code", equalTo(401)).body("message", equalTo("Unauthorized"));
        String body = r.asString();
        assertEquals(false, body.contains("probe") || body.contains("token") || body.contains("bearer"), body);
    }

    @Test
    void healthAndMetricsAreNotBehindThePathTokenEither() {
        // Through the public URL with the token: the gate knows no policy there (a Status 404, nothing leaks).
        given().get("/" + AuthProfiles.PATH_TOKEN + "/q/metrics").then().statusCode(401);
        post("/" + AuthProfiles.PATH_TOKEN + "/q/metrics", AuthProfiles.BEARER_OLD).then().statusCode(404)
                .body("kind", equalTo("Status")).body("message", equalTo(NOT_SERVED));
        given().header("Authorization", "Bearer " + AuthProfiles.BEARER_OLD)
                .get("/" + AuthProfiles.PATH_TOKEN + "/q/health/live").then().statusCode(404)
                .body("kind", equalTo("Status"));
        // Without the token: the main port has no such route.
        given().get("/q/metrics").then().statusCode(404);
        given().get("/q/health/live").then().statusCode(404);
        // The management port serves them without a caller check: it is not reachable through the function URL.
        given().get(Probe.management("/q/health/live")).then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void bothTokensAdmitTheCaller() {
        post("/" + AuthProfiles.PATH_TOKEN + "/probe", AuthProfiles.BEARER_OLD).then().statusCode(200)
                .body("response.allowed", equalTo(false));
    }

    @Test
    void anyMissingOrWrongTokenIsA401WithNoDetail() {
        String before = Probe.metrics();
        assertRefused(post("/probe", AuthProfiles.BEARER_OLD)); // no path token
        assertRefused(post("/" + AuthProfiles.PATH_TOKEN + "x/probe", AuthProfiles.BEARER_OLD));
        assertRefused(post("/" + AuthProfiles.PATH_TOKEN + "/probe", null)); // no bearer
        assertRefused(post("/" + AuthProfiles.PATH_TOKEN + "/probe", AuthProfiles.BEARER_NEW)); // not yet valid
        assertRefused(post("/nothing/here", null)); // unknown paths look the same as known ones
        assertRefused(given().get("/" + AuthProfiles.PATH_TOKEN + "/../probe"));
        String after = Probe.metrics();
        assertEquals(2, Probe.metric(after, "tollgate_rejected_callers_total", "check=\"path-token\"")
                - Probe.metric(before, "tollgate_rejected_callers_total", "check=\"path-token\""));
        assertEquals(4, Probe.metric(after, "tollgate_rejected_callers_total", "check=\"bearer\"")
                - Probe.metric(before, "tollgate_rejected_callers_total", "check=\"bearer\""));
    }

    @Test
    void conversionFunctionsAreBehindTheSameChecks() {
        var review = dev.tollgate.testing.ConversionTester.request(
                dev.tollgate.admission.ReviewVersion.V1, ProbeConversion.GROUP + "/v2",
                ConversionGateTest.probe("a"));
        String body = dev.tollgate.testing.Manifests.toJson(review);
        String path = "/" + AuthProfiles.PATH_TOKEN + "/probe-conversion";
        given().contentType("application/json").header("Authorization", "Bearer " + AuthProfiles.BEARER_OLD)
                .body(body).post(path).then().statusCode(200)
                .body("response.uid", equalTo(review.path("request").path("uid").asText()))
                .body("response.result.status", equalTo("Success"));
        assertRefused(given().contentType("application/json").header("Authorization", "Bearer "
                + AuthProfiles.BEARER_OLD).body(body).post("/probe-conversion"));
        assertRefused(given().contentType("application/json").body(body).post(path));
    }

    @Test
    void noTokenAppearsInAnyLogLineOrMetric() {
        // The API server leaks a path token in its own error messages; Tollgate must not add to that: no log line
        // (decision log included) and no metric may carry a token, valid or not (issue 14, secrets in URLs).
        String wrong = AuthProfiles.PATH_TOKEN + "-wrong";
        List<String> seen;
        try (CapturedLog log = CapturedLog.of("", DecisionLog.CATEGORY)) {
            post("/" + AuthProfiles.PATH_TOKEN + "/probe", AuthProfiles.BEARER_OLD).then().statusCode(200);
            post("/" + AuthProfiles.PATH_TOKEN + "/no-such-policy", AuthProfiles.BEARER_OLD).then().statusCode(404);
            given().contentType("application/json").header("Authorization", "Bearer " + AuthProfiles.BEARER_OLD)
                    .body("{not json").post("/" + AuthProfiles.PATH_TOKEN + "/probe").then().statusCode(400);
            assertRefused(post("/" + wrong + "/probe", AuthProfiles.BEARER_OLD));
            String metrics = Probe.metrics();
            assertFalse(metrics.contains(AuthProfiles.PATH_TOKEN), "a metric carries the token");
            assertFalse(metrics.contains(AuthProfiles.BEARER_OLD), "a metric carries the bearer token");
            seen = log.records().stream().map(CapturedLog::message).toList();
        }
        assertTrue(seen.stream().anyMatch(l -> l.contains("\"function\":\"probe\"")),
                "the decision log was captured: " + seen);
        for (String line : seen) {
            assertFalse(line.contains(AuthProfiles.PATH_TOKEN) || line.contains(AuthProfiles.BEARER_OLD),
                    "a log line carries a token: " + line);
        }
    }

    /**
     * A refused caller is counted, not logged (README, "Decision log"): no decision line, while an admitted call
     * refused for another reason (404) has its line, so the capture sees the decision log.
     */
    @Test
    void aRefusedCallerLeavesNoDecisionLineAndIsCounted() {
        String before = Probe.metrics();
        List<String> refused;
        List<String> notServed;
        try (CapturedLog log = CapturedLog.of("", DecisionLog.CATEGORY)) {
            assertRefused(post("/" + AuthProfiles.PATH_TOKEN + "-wrong/probe", AuthProfiles.BEARER_OLD));
            refused = log.records().stream().map(CapturedLog::message).filter(l -> l.startsWith("{")).toList();
            post("/" + AuthProfiles.PATH_TOKEN + "/no-such-policy", AuthProfiles.BEARER_OLD).then().statusCode(404);
            notServed = log.records().stream().map(CapturedLog::message).filter(l -> l.startsWith("{")).toList();
        }
        assertEquals(List.of(), refused, "a refused caller's decision line");
        assertTrue(notServed.size() == 1 && notServed.get(0).contains("\"status\":404"), notServed.toString());
        assertEquals(1, Probe.metric(Probe.metrics(), "tollgate_rejected_callers_total", "check=\"path-token\"")
                - Probe.metric(before, "tollgate_rejected_callers_total", "check=\"path-token\""));
    }

    @Test
    void pathTokenIsStrippedBeforeDispatch() {
        given().contentType("application/json").header("Authorization", "Bearer " + AuthProfiles.BEARER_OLD)
                .body("{}").post("/" + AuthProfiles.PATH_TOKEN + "/no-such-policy")
                .then().statusCode(404).body("message", equalTo(NOT_SERVED));
    }

    @Test
    void bearerTokensRotateWithoutRestart() throws Exception {
        String path = "/" + AuthProfiles.PATH_TOKEN + "/probe";
        var file = AuthProfiles.TOKEN_DIR.resolve("bearer");
        try {
            Files.writeString(file, AuthProfiles.BEARER_OLD + "\n" + AuthProfiles.BEARER_NEW + "\n");
            awaitStatus(path, AuthProfiles.BEARER_NEW, 200);
            Files.writeString(file, AuthProfiles.BEARER_NEW + "\n");
            awaitStatus(path, AuthProfiles.BEARER_OLD, 401);
            post(path, AuthProfiles.BEARER_NEW).then().statusCode(200);
        } finally {
            Files.writeString(file, AuthProfiles.BEARER_OLD + "\n");
            awaitStatus(path, AuthProfiles.BEARER_OLD, 200);
        }
    }

    /** Waits (bounded) for the file to be re-read: the reload period is 200 ms. */
    private static void awaitStatus(String path, String bearer, int status) throws InterruptedException {
        int got = -1;
        for (int i = 0; i < 100 && got != status; i++) {
            got = post(path, bearer).statusCode();
            if (got != status) {
                Thread.sleep(100);
            }
        }
        assertEquals(status, got);
    }
}
