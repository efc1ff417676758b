package dev.tollgate.runtime;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.tollgate.testing.CapturedLog;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * One function, two clusters, every credential from one JSON value (tollgate.auth.clusters-json, as on AWS Lambda):
 * each cluster's call is that cluster's, in what the policy sees, the decision log and the metrics, and credentials
 * of two clusters are refused.
 */
@QuarkusTest
@TestProfile(AuthProfiles.ClustersJson.class)
class CallerClustersJsonTest {

    private static io.restassured.response.Response post(String pathToken, String bearer, String body) {
        return given().contentType("application/json").header("Authorization", "Bearer " + bearer).body(body)
                .post("/" + pathToken + "/probe");
    }

    @Test
    void eastAndWestCallsLandInTheirClusterInLogAndMetrics() {
        String before = Probe.metrics();
        String eastBody = Probe.body("probe", "deny");
        String westBody = Probe.body("probe", "cluster");
        List<String> lines;
        try (CapturedLog log = CapturedLog.of("", DecisionLog.CATEGORY)) {
            post(AuthProfiles.EAST_PATH, AuthProfiles.EAST_BEARER, eastBody).then().statusCode(200)
                    .body("response.allowed", equalTo(false));
            post(AuthProfiles.WEST_PATH, AuthProfiles.WEST_BEARER, westBody).then().statusCode(200)
                    .body("response.allowed", equalTo(true)).body("response.warnings[0]", equalTo("cluster west"));
            lines = log.records().stream().map(CapturedLog::message).toList();
        }
        post(AuthProfiles.EAST_PATH, AuthProfiles.EAST_BEARER, Probe.body("probe", "cluster")).then()
                .body("response.warnings[0]", equalTo("cluster east"));
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"uid\":\"" + Probe.uid(eastBody) + "\"")
                && l.contains("\"cluster\":\"east\"") && l.contains("\"verdict\":\"denied\"")), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"uid\":\"" + Probe.uid(westBody) + "\"")
                && l.contains("\"cluster\":\"west\"") && l.contains("\"verdict\":\"allowed\"")), lines.toString());
        String after = Probe.metrics();
        assertEquals(1, Probe.metric(after, "tollgate_reviews_total", "cluster=\"east\"", "verdict=\"denied\"")
                - Probe.metric(before, "tollgate_reviews_total", "cluster=\"east\"", "verdict=\"denied\""));
        assertEquals(1, Probe.metric(after, "tollgate_reviews_total", "cluster=\"west\"", "verdict=\"allowed\"")
                - Probe.metric(before, "tollgate_reviews_total", "cluster=\"west\"", "verdict=\"allowed\""));
        assertEquals(0, Probe.metric(after, "tollgate_reviews_total", "cluster=\"default\"")
                - Probe.metric(before, "tollgate_reviews_total", "cluster=\"default\""));
    }

    @Test
    void credentialsOfTwoClustersOrNoneAreRefused() {
        String before = Probe.metrics();
        post(AuthProfiles.EAST_PATH, AuthProfiles.WEST_BEARER, Probe.body()).then().statusCode(401);
        post(AuthProfiles.WEST_PATH, AuthProfiles.EAST_BEARER, Probe.body()).then().statusCode(401);
        post("not-a-cluster-token-0123456789", AuthProfiles.EAST_BEARER, Probe.body()).then().statusCode(401);
        String after = Probe.metrics();
        assertEquals(2, Probe.metric(after, "tollgate_rejected_callers_total", "check=\"cluster\"")
                - Probe.metric(before, "tollgate_rejected_callers_total", "check=\"cluster\""));
    }
}
