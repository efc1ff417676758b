package dev.tollgate.runtime;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * Health and metrics live on the management interface (its own port), never on the port the policies are served on
 * (issue 14: the function URL is public, and these must not be reachable through it).
 */
@QuarkusTest
class ManagementInterfaceTest {

    private static final List<String> MANAGEMENT_PATHS = List.of("/q/health", "/q/health/live", "/q/health/ready",
            "/q/health/started", "/q/metrics");

    @Test
    void healthAndMetricsAreServedOnTheManagementPort() {
        given().get(Probe.management("/q/health/live")).then().statusCode(200).body("status", equalTo("UP"));
        given().get(Probe.management("/q/health/ready")).then().statusCode(200).body("status", equalTo("UP"));
        // The runtime's meters are registered when the first review is served (its metrics bean is created lazily).
        given().contentType("application/json").body(Probe.body()).post("/probe").then().statusCode(200);
        String metrics = given().get(Probe.management("/q/metrics")).then().statusCode(200).extract().asString();
        assertTrue(metrics.contains("tollgate_abandoned_policies_running"), "the runtime's metrics are there");
    }

    @Test
    void theMainPortDoesNotServeHealthOrMetrics() {
        for (String path : MANAGEMENT_PATHS) {
            Response r = given().get(path);
            assertEquals(404, r.statusCode(), path + " on the main port: " + r.asString());
            String body = r.asString();
            assertFalse(body.contains("\"UP\"") || body.contains("tollgate_"), path + " leaks: " + body);
        }
    }

    @Test
    void livenessChecksThatTheMainPortAnswers() {
        Response live = given().get(Probe.management("/q/health/live"));
        live.then().statusCode(200);
        List<Map<String, Object>> checks = live.jsonPath().getList("checks");
        Map<String, Object> mainPort = checks.stream().filter(c -> MainPortLiveness.NAME.equals(c.get("name")))
                .findFirst().orElseThrow(() -> new AssertionError("no " + MainPortLiveness.NAME + " check: " + checks));
        assertEquals("UP", mainPort.get("status"), mainPort.toString());
        @SuppressWarnings("unchecked")
        Map<String, Object> data = (Map<String, Object>) mainPort.get("data");
        assertEquals("answered 404", data.get("probe"), data.toString());
        assertEquals("http", data.get("scheme"));
    }

    @Test
    void theLivenessRequestIsNeitherCountedNorLogged() {
        String before = Probe.metrics();
        given().get(Probe.management("/q/health/live")).then().statusCode(200);
        given().get(Probe.management("/q/health/live")).then().statusCode(200);
        String after = Probe.metrics();
        assertEquals(Probe.metric(before, "tollgate_bad_requests_total"),
                Probe.metric(after, "tollgate_bad_requests_total"), "the probe goes around the gate");
    }
}
