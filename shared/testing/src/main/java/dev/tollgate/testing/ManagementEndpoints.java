package dev.tollgate.testing;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

    /** The function's Prometheus metrics, from the management port. */
    public static String metrics() {
        return given().get(url("/q/metrics")).then().statusCode(200).extract().asString();
    }

    /** The sum of the samples of metric {@code name} in {@code text} whose labels hold every one of {@code labels}. */
    public static double metric(String text, String name, String... labels) {
        double sum = 0;
        Matcher m = Pattern.compile("^" + Pattern.quote(name) + "\\{([^}]*)\\} ([0-9.eE+-]+)$", Pattern.MULTILINE)
                .matcher(text);
        while (m.find()) {
            boolean all = true;
            for (String label : labels) {
                all &= m.group(1).contains(label);
            }
            if (all) {
                sum += Double.parseDouble(m.group(2));
            }
        }
        return sum;
    }

    /**
     * The function's port (RestAssured's default) answers none of the management paths; liveness and readiness are
     * UP on the management port and metrics are there. Built for AWS Lambda ({@code -Plambda}), the function serves
     * its events in-process and Quarkus starts no HTTP server, the management interface included: then health and
     * metrics are nowhere, which is checked too.
     */
    public static void assertServedOnlyOnTheManagementPort() {
        for (String path : PATHS) {
            Response r = given().get(path);
            assertEquals(404, r.statusCode(), () -> path + " on the function's port: " + r.asString());
            assertFalse(r.asString().contains("\"UP\""), () -> path + " on the function's port: " + r.asString());
        }
        if (onLambda()) {
            URI management = URI.create(url("/q/health/live"));
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(management.getHost(), management.getPort()), 2000);
                throw new AssertionError("a Lambda function has no management server, yet " + management
                        + " accepts connections");
            } catch (IOException expected) {
                return; // nothing listens: health and metrics are not served at all
            }
        }
        given().get(url("/q/health/live")).then().statusCode(200).body("status", equalTo("UP"));
        given().get(url("/q/health/ready")).then().statusCode(200).body("status", equalTo("UP"));
        given().get(url("/q/metrics")).then().statusCode(200);
    }

    /**
     * Whether the function under test serves metrics to read: built for AWS Lambda ({@code -Plambda}) it has no
     * management server (see {@link #assertServedOnlyOnTheManagementPort()}), so tests check its answers and logs only.
     */
    public static boolean metricsServed() {
        return !onLambda();
    }

    /** Whether the function under test is built for AWS Lambda (quarkus-amazon-lambda-http is on the class path). */
    static boolean onLambda() {
        try {
            Class.forName("io.quarkus.amazon.lambda.http.LambdaHttpHandler", false,
                    Thread.currentThread().getContextClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
