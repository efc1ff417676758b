package dev.tollgate.functions.celpolicy;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

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
import dev.tollgate.testing.ReviewBuilder;
import io.quarkus.test.junit.QuarkusTest;

/** The function as the API server sees it, configured with examples/ (see application.properties, %test). */
@QuarkusTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CelPolicyHttpTest {

    private static final AdmissionHttp FUNCTION = AdmissionHttp.validating("/cel-policy");

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void deniesWithTheParamOfTheNamespacesEnvironment(ReviewVersion version) {
        FUNCTION.review(ReviewBuilder.create(Policies.deployment("sandbox", 4, "registry.example.com/web:1"))
                .version(version))
                .assertDenied().withCode(422).withReason("Invalid")
                .withMessageContaining("ValidatingAdmissionPolicy 'replicalimit-policy.example.com' with binding "
                        + "'replicalimit-binding-test.example.com' denied request: object.spec.replicas must be no "
                        + "greater than 3");
        FUNCTION.review(ReviewBuilder.create(Policies.deployment("shop", 40, "registry.example.com/web:1"))
                .version(version)).assertAllowed().assertNoWarnings();
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void warnsWithoutDenying(ReviewVersion version) {
        FUNCTION.review(ReviewBuilder.create(Policies.deployment("shop", 2, "registry.example.com/web"))
                .version(version))
                .assertAllowed().assertWarningContaining("Validation failed for ValidatingAdmissionPolicy "
                        + "'no-latest-tag.example.com' with binding 'no-latest-tag-binding.example.com'");
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void deniesUntrustedImagesAndAuditsThem(ReviewVersion version) {
        var pod = Manifests.parse("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web, namespace: shop}
                spec: {containers: [{name: app, image: docker.io/nginx}]}
                """);
        FUNCTION.review(ReviewBuilder.create(pod).version(version))
                .assertDenied().withCode(403).withReason("Forbidden")
                .withMessageContaining("containers app use images outside registry.example.com")
                .assertAuditAnnotation("trusted-registry.example.com.untrusted", "app");
    }

    /** The README's curl, as written: the review file it posts exists, and the answer is the one the README states. */
    @Test
    void theReadmeCurlReviewIsDenied() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        var curl = Pattern.compile("curl .*--data @(\\S+) localhost:8080/cel-policy").matcher(readme);
        assertTrue(curl.find(), "README.md has no curl of localhost:8080/cel-policy");
        var review = Path.of(System.getProperty("tollgate.root.dir")).resolve(curl.group(1));
        assertTrue(Files.isRegularFile(review), "README.md posts " + curl.group(1) + ": no such file");
        assertTrue(readme.replaceAll("\\s+", " ").contains("containers app use images outside registry.example.com"),
                "README.md states the answer");
        given().contentType("application/json").body(Files.readAllBytes(review)).post("/cel-policy")
                .then().statusCode(200)
                .body("response.uid", equalTo("8d5f3c1e-0b1a-4c6e-9d2f-2f0c4a7e1b90"))
                .body("response.allowed", equalTo(false))
                .body("response.status.message", containsString(
                        "containers app use images outside registry.example.com"));
    }

    @Test
    void anUnlistedNamespaceExistsWithOnlyItsNameLabel() {
        // The default (unknown-namespace=empty), as the simulator assumes: no environment label, so no replica
        // limit binding selects it, and nothing fails.
        FUNCTION.review(ReviewBuilder.create(Policies.deployment("elsewhere", 40, "registry.example.com/web:1")))
                .assertAllowed().assertNoWarnings();
    }

    static List<MalformedRequests.Case> malformed() {
        return MalformedRequests.cases(AdmissionLimits.DEFAULTS.maxBodyBytes());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    @Order(1)
    void refusesMalformedRequestWithJsonError(MalformedRequests.Case badRequest) {
        badRequest.assertRefused("/cel-policy");
    }

    @Test
    void healthAndMetricsOnlyOnTheManagementPort() {
        // Health and metrics: only on the management port, never on the function's URL.
        ManagementEndpoints.assertServedOnlyOnTheManagementPort();
    }

    @Test
    @Order(2)
    void stillServingAfterBadRequests() {
        FUNCTION.review(ReviewBuilder.create(Policies.deployment("shop", 1, "registry.example.com/web:1")))
                .assertAllowed().assertNoWarnings();
    }
}
