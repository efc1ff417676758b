package dev.tollgate.runtime;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.tollgate.testing.CapturedLog;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;

/**
 * One function, two clusters (east, west), each calling with its own path token and bearer token: each call is its
 * cluster's, in what the policy sees, the decision log and the metrics; credentials of two clusters are refused; and
 * revoking or rotating one cluster's token file touches no other cluster.
 */
@QuarkusTest
@TestProfile(AuthProfiles.Clusters.class)
class CallerClusterTest {

    private static Response post(String pathToken, String bearer, String... labels) {
        var spec = given().contentType("application/json").body(Probe.body(labels));
        if (bearer != null) {
            spec = spec.header("Authorization", "Bearer " + bearer);
        }
        return spec.post("/" + pathToken + "/probe");
    }

    @AfterEach
    void restoreFiles() throws InterruptedException {
        AuthProfiles.writeClusterFiles();
        awaitStatus(AuthProfiles.EAST_PATH, AuthProfiles.EAST_BEARER, 200);
        awaitStatus(AuthProfiles.WEST_PATH, AuthProfiles.WEST_BEARER, 200);
    }

    @Test
    void eachClustersCredentialsMakeTheCallThatClusters() {
        post(AuthProfiles.EAST_PATH, AuthProfiles.EAST_BEARER, "probe", "cluster").then().statusCode(200)
                .body("response.allowed", equalTo(true)).body("response.warnings[0]", equalTo("cluster east"));
        post(AuthProfiles.WEST_PATH, AuthProfiles.WEST_BEARER, "probe", "cluster").then().statusCode(200)
                .body("response.warnings[0]", equalTo("cluster west"));
    }

    @Test
    void decisionLogAndMetricsCarryTheCluster() {
        String before = Probe.metrics();
        String eastBody = Probe.body("probe", "deny");
        String westBody = Probe.body("probe", "cluster");
        List<String> lines;
        try (CapturedLog log = CapturedLog.of("", DecisionLog.CATEGORY)) {
            given().contentType("application/json").header("Authorization", "Bearer " + AuthProfiles.EAST_BEARER)
                    .body(eastBody).post("/" + AuthProfiles.EAST_PATH + "/probe").then().statusCode(200);
            given().contentType("application/json").header("Authorization", "Bearer " + AuthProfiles.WEST_BEARER)
                    .body(westBody).post("/" + AuthProfiles.WEST_PATH + "/probe").then().statusCode(200);
            given().contentType("application/json").header("Authorization", "Bearer " + AuthProfiles.WEST_BEARER)
                    .body(westBody).post("/" + AuthProfiles.WEST_PATH + "/no-such-policy").then().statusCode(404);
            lines = log.records().stream().map(CapturedLog::message).toList();
        }
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"uid\":\"" + Probe.uid(eastBody) + "\"")
                && l.contains("\"cluster\":\"east\"") && l.contains("\"verdict\":\"denied\"")), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"uid\":\"" + Probe.uid(westBody) + "\"")
                && l.contains("\"cluster\":\"west\"") && l.contains("\"verdict\":\"allowed\"")), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"status\":404") && l.contains("\"cluster\":\"west\"")),
                lines.toString());
        String after = Probe.metrics();
        assertEquals(1, Probe.metric(after, "tollgate_reviews_total", "cluster=\"east\"", "verdict=\"denied\"")
                - Probe.metric(before, "tollgate_reviews_total", "cluster=\"east\"", "verdict=\"denied\""));
        assertEquals(1, Probe.metric(after, "tollgate_reviews_total", "cluster=\"west\"", "verdict=\"allowed\"")
                - Probe.metric(before, "tollgate_reviews_total", "cluster=\"west\"", "verdict=\"allowed\""));
        assertEquals(0, Probe.metric(after, "tollgate_reviews_total", "cluster=\"west\"", "verdict=\"denied\"")
                - Probe.metric(before, "tollgate_reviews_total", "cluster=\"west\"", "verdict=\"denied\""));
        assertEquals(1, Probe.metric(after, "tollgate_review_duration_seconds_count", "cluster=\"east\"")
                - Probe.metric(before, "tollgate_review_duration_seconds_count", "cluster=\"east\""));
    }

    @Test
    void credentialsOfTwoClustersAreRefused() {
        String before = Probe.metrics();
        post(AuthProfiles.EAST_PATH, AuthProfiles.WEST_BEARER).then().statusCode(401)
                .body("message", equalTo("Unauthorized"));
        post(AuthProfiles.WEST_PATH, AuthProfiles.EAST_BEARER).then().statusCode(401);
        post(AuthProfiles.EAST_PATH, null).then().statusCode(401);
        String after = Probe.metrics();
        assertEquals(2, Probe.metric(after, "tollgate_rejected_callers_total", "check=\"cluster\"")
                - Probe.metric(before, "tollgate_rejected_callers_total", "check=\"cluster\""));
        assertEquals(1, Probe.metric(after, "tollgate_rejected_callers_total", "check=\"bearer\"")
                - Probe.metric(before, "tollgate_rejected_callers_total", "check=\"bearer\""));
    }

    @Test
    void revokingOneClustersTokenFileStopsOnlyThatCluster() throws Exception {
        Path east = AuthProfiles.CLUSTERS_DIR.resolve("east.path-tokens");
        Files.writeString(east, "# revoked\n");
        awaitStatus(AuthProfiles.EAST_PATH, AuthProfiles.EAST_BEARER, 401);
        post(AuthProfiles.WEST_PATH, AuthProfiles.WEST_BEARER).then().statusCode(200);

        // Removed altogether (the key taken out of the Secret): still only east.
        Files.delete(east);
        post(AuthProfiles.WEST_PATH, AuthProfiles.WEST_BEARER).then().statusCode(200);
        post(AuthProfiles.EAST_PATH, AuthProfiles.EAST_BEARER).then().statusCode(401);
    }

    @Test
    void rotatingOneClustersTokenTouchesNoOther() throws Exception {
        String next = "east-path-token-next-0123456789";
        Path east = AuthProfiles.CLUSTERS_DIR.resolve("east.path-tokens");
        Files.writeString(east, AuthProfiles.EAST_PATH + "\n" + next + "\n");
        awaitStatus(next, AuthProfiles.EAST_BEARER, 200);
        post(next, AuthProfiles.EAST_BEARER, "probe", "cluster").then().body("response.warnings[0]",
                equalTo("cluster east"));
        Files.writeString(east, next + "\n");
        awaitStatus(AuthProfiles.EAST_PATH, AuthProfiles.EAST_BEARER, 401);
        post(next, AuthProfiles.EAST_BEARER).then().statusCode(200);
        post(AuthProfiles.WEST_PATH, AuthProfiles.WEST_BEARER).then().statusCode(200);
    }

    @Test
    void aFileThatWouldGiveAnotherClustersTokenIsRefusedAndTheOtherClusterKeepsIt() throws Exception {
        Path east = AuthProfiles.CLUSTERS_DIR.resolve("east.path-tokens");
        try (CapturedLog log = CapturedLog.of(TokenSet.class)) {
            Files.writeString(east, AuthProfiles.EAST_PATH + "\n" + AuthProfiles.WEST_PATH + "\n");
            awaitStatus(AuthProfiles.EAST_PATH, AuthProfiles.EAST_BEARER, 401); // east's file: fail closed
            log.await(java.util.logging.Level.SEVERE, "is also a token of cluster west");
        }
        post(AuthProfiles.WEST_PATH, AuthProfiles.WEST_BEARER, "probe", "cluster").then().statusCode(200)
                .body("response.warnings[0]", equalTo("cluster west"));
    }

    /** Waits (bounded) for the files to be re-read: the reload period is 200 ms. */
    private static void awaitStatus(String pathToken, String bearer, int status) throws InterruptedException {
        int got = -1;
        for (int i = 0; i < 100 && got != status; i++) {
            got = post(pathToken, bearer).statusCode();
            if (got != status) {
                Thread.sleep(100);
            }
        }
        assertEquals(status, got);
    }
}
