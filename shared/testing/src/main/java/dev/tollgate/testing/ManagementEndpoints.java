package dev.tollgate.testing;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.net.URI;
import java.util.List;

import org.eclipse.microprofile.config.ConfigProvider;

import io.restassured.response.Response;

/**
 * Health and metrics of the function under test, which live on the management interface (their own port, 9000 in
 * production), not on the port its policies are served on: the function URL is public, so {@code /q/health} and
 * {@code /q/metrics} must not be reachable through it.
 */
public final class ManagementEndpoints {

    /** Paths the management interface serves and the main port must not. */
    public static final List<String> PATHS = List.of("/q/health", "/q/health/live", "/q/health/ready",
            "/q/health/started", "/q/metrics");

    private ManagementEndpoints() {
    }

    /**
     * {@code path} on the management port: in a {@code @QuarkusTest} the random test port Quarkus chose, for a
     * packaged function started by {@link PathTokenResource} the port it gave the function.
     */
    public static String url(String path) {
        String port = System.getProperty(PathTokenResource.MANAGEMENT_PORT_PROPERTY);
        if (port != null) {
            return "http://localhost:" + port + path;
        }
        URI base = URI.create(ConfigProvider.getConfig().getValue("test.management.url", String.class));
        return base.getScheme() + "://" + base.getHost() + ":" + base.getPort() + path;
    }

    /**
     * Liveness and readiness are UP on the management port, metrics are there, and the main port (RestAssured's
     * default) answers none of them.
     */
    public static void assertServedOnlyOnTheManagementPort() {
        given().get(url("/q/health/live")).then().statusCode(200).body("status", equalTo("UP"));
        given().get(url("/q/health/ready")).then().statusCode(200).body("status", equalTo("UP"));
        given().get(url("/q/metrics")).then().statusCode(200);
        for (String path : PATHS) {
            Response r = given().get(path);
            assertEquals(404, r.statusCode(), () -> path + " on the function's port: " + r.asString());
            assertFalse(r.asString().contains("\"UP\""), () -> path + " on the function's port: " + r.asString());
        }
    }
}
