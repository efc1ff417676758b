package dev.tollgate.functions.celmutate;

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
class CelMutateHttpTest {

    private static final AdmissionHttp FUNCTION = AdmissionHttp.mutating("/cel-mutate");

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void injectsTheSidecarOnceInTheMeshNamespace(ReviewVersion version) {
        var pod = Manifests.parse("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web, namespace: shop}
                spec: {containers: [{name: app, image: nginx}]}
                """);
        var patched = FUNCTION.review(ReviewBuilder.create(pod).version(version))
                .assertAllowed().assertPatched().assertIdempotent().patchedObject();
        assertEquals("mesh/proxy:v1.0.0", patched.path("spec").path("initContainers").path(0).path("image").asText());
    }

    @Test
    void leavesOtherNamespacesAlone() {
        var pod = Manifests.parse("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web, namespace: default}
                spec: {containers: [{name: app, image: nginx}]}
                """);
        FUNCTION.review(ReviewBuilder.create(pod)).assertAllowed().assertNoPatch();
    }

    static List<MalformedRequests.Case> malformed() {
        return MalformedRequests.cases(AdmissionLimits.DEFAULTS.maxBodyBytes());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    @Order(1)
    void refusesMalformedRequestWithJsonError(MalformedRequests.Case badRequest) {
        badRequest.assertRefused("/cel-mutate");
    }

    @Test
    void healthAndMetricsOnlyOnTheManagementPort() {
        // Health and metrics: only on the management port, never on the function's URL.
        ManagementEndpoints.assertServedOnlyOnTheManagementPort();
    }
}
