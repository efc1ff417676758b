#if ($type == 'conversion')
#set ($crdGroup = $crd.substring($crd.indexOf('.') + 1))
package ${package};

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionLimits;
import dev.tollgate.admission.ReviewKind;
import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.testing.ConversionTester;
import dev.tollgate.testing.MalformedConversionRequests;
import dev.tollgate.testing.MalformedRequests;
import dev.tollgate.testing.ManagementEndpoints;
import dev.tollgate.testing.Manifests;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * The function as the API server sees it: the packaged application over HTTP, both ConversionReview versions (each
 * answer re-checked with the API server's rules), malformed input, health.
 */
@QuarkusTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ${className}HttpTest {

    private static final String PATH = "/${artifactId}";
    private static final String NEWEST = "${crdGroup}/" + ${className}.NEWEST;

    private static ConversionTester.Conversion convert(ReviewVersion version, String desired, ObjectNode object) {
        ObjectNode sent = ConversionTester.request(version, desired, object);
        Response r = given().contentType("application/json").body(Manifests.toJson(sent)).post(PATH);
        return ConversionTester.Conversion.checked(sent, r.statusCode(), r.asByteArray());
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void convertsToTheNewestVersionAndBack(ReviewVersion version) {
        String oldest = ${className}.VERSIONS.get(0);
        ObjectNode newest = convert(version, NEWEST, ${className}Test.object(oldest)).assertConverted()
                .assertObject(0, ${className}Test.object(${className}.NEWEST)).object(0).deepCopy();
        var back = convert(version, "${crdGroup}/" + oldest, newest).assertConverted();
        back.assertObject(0, ${className}Test.object(oldest));
        assertEquals(ReviewKind.CONVERSION.apiVersion(version), back.review().path("apiVersion").asText(),
                "answered in its version");
    }

    static List<MalformedRequests.Case> malformed() {
        return MalformedConversionRequests.cases(${className}Test.object(${className}.VERSIONS.get(0)), NEWEST,
                AdmissionLimits.DEFAULTS.maxBodyBytes());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    @Order(1)
    void refusesMalformedRequestWithAStatus(MalformedRequests.Case badRequest) {
        badRequest.assertRefused(PATH);
    }

    @Test
    @Order(2)
    void stillServingAfterBadRequests() {
        convert(ReviewVersion.V1, NEWEST, ${className}Test.object(${className}.VERSIONS.get(0))).assertConverted();
    }

    @Test
    void unknownPathsAreAJson404() {
        given().contentType("application/json").body("{}").post("/${artifactId}/no-such-path")
                .then().statusCode(404).body("code", equalTo(404));
    }

    @Test
    void healthAndMetricsOnlyOnTheManagementPort() {
        // Health and metrics: only on the management port, never on the function's URL.
        ManagementEndpoints.assertServedOnlyOnTheManagementPort();
    }
}
#else
package ${package};

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionLimits;
import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.testing.AdmissionHttp;
import dev.tollgate.testing.MalformedRequests;
import dev.tollgate.testing.ManagementEndpoints;
import dev.tollgate.testing.Pods;
import dev.tollgate.testing.ReviewBuilder;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The function as the API server sees it: the packaged application over HTTP with its application.properties, both
 * review versions, malformed input, health.
 */
@QuarkusTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ${className}HttpTest {

#if ($type == 'mutating')
    private static final AdmissionHttp FUNCTION = AdmissionHttp.mutating("/${artifactId}");

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void patchesWithTheConfiguredDefaultsAndIsIdempotent(ReviewVersion version) {
        ObjectNode pod = Pods.minimal("web");
        ObjectNode expected = Pods.withLabels(pod.deepCopy(), "team", "unassigned");
        FUNCTION.review(ReviewBuilder.create(pod).version(version))
                .assertAllowed().assertPatchedTo(expected).assertIdempotent();
    }

    @Test
    void dryRunRequestsAreAnsweredTheSameWay() {
        FUNCTION.review(ReviewBuilder.create(Pods.minimal("web")).dryRun()).assertAllowed().assertPatched();
    }
#else
    private static final AdmissionHttp FUNCTION = AdmissionHttp.validating("/${artifactId}");

    private static ObjectNode podWithImage(String image) {
        ObjectNode pod = Pods.minimal("web");
        ((ObjectNode) pod.path("spec").path("containers").get(0)).put("image", image);
        return pod;
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void deniesTheConfiguredTag(ReviewVersion version) {
        FUNCTION.review(ReviewBuilder.create(podWithImage("nginx:latest")).version(version))
                .assertDenied().withCode(403).withMessageContaining("unpinned image app (nginx:latest)");
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void allowsAPinnedImage(ReviewVersion version) {
        FUNCTION.review(ReviewBuilder.create(podWithImage("nginx:1.27")).version(version))
                .assertAllowed().assertNoWarnings();
    }
#end

    static List<MalformedRequests.Case> malformed() {
        return MalformedRequests.cases(AdmissionLimits.DEFAULTS.maxBodyBytes());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    @Order(1)
    void refusesMalformedRequestWithJsonError(MalformedRequests.Case badRequest) {
        badRequest.assertRefused("/${artifactId}");
    }

    @Test
    @Order(2)
    void stillServingAfterBadRequests() {
#if ($type == 'mutating')
        FUNCTION.review(ReviewBuilder.create(Pods.minimal("after"))).assertAllowed().assertPatched();
#else
        FUNCTION.review(ReviewBuilder.create(Pods.minimal("after"))).assertAllowed();
#end
    }

    @Test
    void unknownPathsAreAJson404() {
        given().contentType("application/json").body("{}").post("/${artifactId}/no-such-path")
                .then().statusCode(404).body("kind", equalTo("Status")).body("code", equalTo(404));
    }

    @Test
    void healthAndMetricsOnlyOnTheManagementPort() {
        // Health and metrics: only on the management port, never on the function's URL.
        ManagementEndpoints.assertServedOnlyOnTheManagementPort();
    }
}
#end
