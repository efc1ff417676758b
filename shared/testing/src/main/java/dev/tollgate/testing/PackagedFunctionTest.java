package dev.tollgate.testing;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.tollgate.admission.AdmissionLimits;

/**
 * What every packaged function must do, whatever its policy: run as a {@code @QuarkusIntegrationTest} against the
 * artifact that ships (fast-jar in {@code ./mvnw verify}, the native executable with {@code -Dnative}), started
 * with a path token by {@link PathTokenResource}. A function's {@code *IT} extends this, names the path it checks
 * these on, and adds its own samples and verdicts in both review versions.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public abstract class PackagedFunctionTest {

    /** The function path (without the token) the common checks are made on, e.g. {@code /require-labels}. */
    protected abstract String functionPath();

    /** A review this function answers with a 200; used to check the caller check and that it still serves. */
    protected ReviewBuilder validReview() {
        return ReviewBuilder.create(Pods.minimal("web"));
    }

    /** The function path as a caller holding the token reaches it. */
    protected String callerPath() {
        return PathTokenResource.withToken(functionPath());
    }

    static List<MalformedRequests.Case> malformed() {
        return MalformedRequests.cases(AdmissionLimits.DEFAULTS.maxBodyBytes());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    @Order(1)
    void refusesMalformedRequestWithStatusError(MalformedRequests.Case badRequest) {
        badRequest.assertRefused(callerPath());
    }

    @Test
    @Order(2)
    void stillServingAfterBadRequests() {
        var answer = given().contentType("application/json").body(validReview().bytes()).post(callerPath());
        assertEquals(200, answer.statusCode(), answer::asString);
        assertEquals("AdmissionReview", answer.jsonPath().getString("kind"), answer::asString);
    }

    @Test
    void refusesCallersWithoutTheToken() {
        assertRefusesCallersWithoutTheToken(functionPath(), validReview().bytes());
    }

    @Test
    void unknownPathWithTheTokenIsAStatus404() {
        assertUnknownPathWithTheTokenIsAStatus404();
    }

    @Test
    void healthAndMetricsOnlyOnTheManagementPort() {
        assertHealthAndMetricsOnlyOnTheManagementPort();
    }

    // The checks above, for an *IT that extends its function's HTTP test class instead (a conversion function's:
    // its reviews and malformed requests are not the admission ones above).

    /** A valid request to {@code functionPath} is refused 401 without the token and with another one. */
    public static void assertRefusesCallersWithoutTheToken(String functionPath, byte[] validRequest) {
        given().contentType("application/json").body(validRequest).post(functionPath).then().statusCode(401);
        given().contentType("application/json").body(validRequest).post("/not-the-token-0123456789" + functionPath)
                .then().statusCode(401);
    }

    /** With the token, a path no function serves is answered with a Kubernetes {@code Status} 404. */
    public static void assertUnknownPathWithTheTokenIsAStatus404() {
        given().contentType("application/json").body("{}").post(PathTokenResource.withToken("/no-such-function"))
                .then().statusCode(404).body("kind", equalTo("Status")).body("code", equalTo(404));
    }

    /** Health and metrics are served on the management port, and not on the public URL even with the token. */
    public static void assertHealthAndMetricsOnlyOnTheManagementPort() {
        ManagementEndpoints.assertServedOnlyOnTheManagementPort();
        // With the token, the public URL still does not reach them: the gate knows no policy there.
        given().get(PathTokenResource.withToken("/q/metrics")).then().statusCode(404).body("kind", equalTo("Status"));
        given().get(PathTokenResource.withToken("/q/health/live")).then().statusCode(404)
                .body("kind", equalTo("Status"));
    }
}
