package dev.tollgate.functions.requirelabels;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import dev.tollgate.admission.AdmissionLimits;
import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.testing.AdmissionHttp;
import dev.tollgate.testing.MalformedRequests;
import dev.tollgate.testing.ManagementEndpoints;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.Pods;
import dev.tollgate.testing.ReviewBuilder;
import io.quarkus.test.junit.QuarkusTest;

/** The function as the API server sees it: HTTP, both review versions, bad input, health. */
@QuarkusTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RequireLabelsHttpTest {

    private static final AdmissionHttp FUNCTION = AdmissionHttp.validating("/require-labels");

    private static ReviewBuilder service(String... labels) {
        var svc = Pods.withLabels(Manifests.parse("""
                apiVersion: v1
                kind: Service
                metadata: {name: api, namespace: shop}
                spec: {ports: [{port: 80}]}
                """), labels);
        return ReviewBuilder.create(svc);
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void deniesMissingTeamLabel(ReviewVersion version) {
        FUNCTION.review(service().version(version))
                .assertDenied().withCode(403).withMessageContaining("missing required label team");
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void allowsLabelledObjectAndWarnsAboutRecommendedLabel(ReviewVersion version) {
        FUNCTION.review(service("team", "shop").version(version))
                .assertAllowed().assertWarningContaining("app.kubernetes.io/name");
    }

    @Test
    void shippedSamplesGiveTheDocumentedAnswers() {
        FUNCTION.review(ReviewBuilder.fromFile(Path.of("samples/deployment-missing-labels.v1.json")))
                .assertDenied().withCode(403).withMessageContaining("missing required label team");
        FUNCTION.review(ReviewBuilder.fromFile(Path.of("samples/service-labelled.v1beta1.json")))
                .assertAllowed().assertWarningContaining("missing recommended label app.kubernetes.io/name");
    }

    static List<MalformedRequests.Case> malformed() {
        return MalformedRequests.cases(AdmissionLimits.DEFAULTS.maxBodyBytes());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    @Order(1)
    void refusesMalformedRequestWithJsonError(MalformedRequests.Case badRequest) {
        badRequest.assertRefused("/require-labels");
    }

    @Test
    void unknownPolicyPathIsAJson404() {
        given().contentType("application/json").body("{}").post("/no-such-policy")
                .then().statusCode(404).body("kind", equalTo("Status")).body("code", equalTo(404));
        given().contentType("application/json").body("{}").post("/require-labels/extra")
                .then().statusCode(404).body("kind", equalTo("Status")).body("code", equalTo(404));
    }

    @Test
    void healthAndMetricsOnlyOnTheManagementPort() {
        // Health and metrics: only on the management port, never on the function's URL.
        ManagementEndpoints.assertServedOnlyOnTheManagementPort();
    }

    @Test
    @Order(2)
    void stillServingAfterBadRequests() {
        // Runs after the malformed cases: the function must keep answering valid reviews.
        FUNCTION.review(service("team", "shop", "app.kubernetes.io/name", "api")).assertAllowed().assertNoWarnings();
    }
}
