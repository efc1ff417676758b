package dev.tollgate.functions.podsecurity;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.tollgate.admission.AdmissionLimits;
import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.admission.registration.RegistrationValidator;
import dev.tollgate.admission.registration.Registrations;
import dev.tollgate.admission.registration.WebhookRegistration;
import dev.tollgate.testing.AdmissionHttp;
import dev.tollgate.testing.MalformedRequests;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.ReviewBuilder;
import io.quarkus.test.junit.QuarkusTest;

/** The function as the API server sees it: the registered paths, modes over HTTP, bad paths and bad input. */
@QuarkusTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PodSecurityHttpTest {

    private static final String HOST_NETWORK_POD = """
            {apiVersion: v1, kind: Pod, metadata: {name: web, namespace: shop},
             spec: {hostNetwork: true, containers: [{name: app, image: nginx}]}}""";

    static List<WebhookRegistration> registrations() {
        return Registrations.load(Path.of("webhook.yaml"));
    }

    @Test
    void registrationIsValidAndCoversEveryModeAndLevel() {
        List<WebhookRegistration> entries = registrations();
        assertEquals(6, entries.size());
        for (WebhookRegistration r : entries) {
            assertEquals(List.of(), RegistrationValidator.validateDeclared(r), r.name());
            assertTrue(r.name().endsWith(".pod-security.tollgate.dev"), r.name());
            String[] path = r.path().split("/");
            // /pod-security/<mode>/<level>/latest, selecting namespaces by pod-security.kubernetes.io/<mode>=<level>
            assertEquals(5, path.length, r.path());
            var selector = r.entry().path("namespaceSelector").path("matchExpressions").get(0);
            assertEquals("pod-security.kubernetes.io/" + path[2], selector.path("key").asText(), r.name());
            assertEquals(path[3], selector.path("values").get(0).asText(), r.name());
            assertEquals(path[2].equals("enforce") ? "Fail" : "Ignore", r.failurePolicy(), r.name());
        }
    }

    @ParameterizedTest
    @MethodSource("registrations")
    void everyRegisteredPathIsServed(WebhookRegistration r) {
        var result = AdmissionHttp.validating(r.path()).review(ReviewBuilder.create(Manifests.parse(HOST_NETWORK_POD)));
        if (r.path().contains("/enforce/")) {
            result.assertDenied().withCode(403).withMessageContaining("host namespaces (hostNetwork=true)");
        } else {
            result.assertAllowed();
        }
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void warnsOverHttpInEitherReviewVersion(ReviewVersion version) {
        AdmissionHttp.validating("/pod-security/warn/baseline/v1.25")
                .review(ReviewBuilder.create(Manifests.parse(HOST_NETWORK_POD)).version(version))
                .assertAllowed().assertWarningContaining("would violate PodSecurity \"baseline:v1.25\": host namespaces");
    }

    @ParameterizedTest
    @ValueSource(strings = { "/pod-security/enforce", "/pod-security/enforce/restricted",
            "/pod-security/enforce/strict/latest", "/pod-security/enforce/restricted/v2.0",
            "/pod-security/block/restricted/latest", "/pod-security/enforce/restricted/latest/extra" })
    void unknownSubPathsAre404(String path) {
        given().contentType("application/json").body(ReviewBuilder.create(Manifests.parse(HOST_NETWORK_POD)).bytes())
                .post(path).then().statusCode(404);
    }

    @Test
    void barePathUsesTheConfiguredDefaultsWhichArePrivileged() {
        AdmissionHttp.validating("/pod-security").review(ReviewBuilder.create(Manifests.parse(HOST_NETWORK_POD)))
                .assertAllowed().assertNoWarnings();
    }

    static List<MalformedRequests.Case> malformed() {
        return MalformedRequests.cases(AdmissionLimits.DEFAULTS.maxBodyBytes());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    @Order(1)
    void refusesMalformedRequestWithJsonError(MalformedRequests.Case badRequest) {
        badRequest.assertRefused("/pod-security/enforce/restricted/latest");
    }

    @Test
    @Order(2)
    void stillServingAfterBadRequests() {
        AdmissionHttp.validating("/pod-security/enforce/baseline/latest")
                .review(ReviewBuilder.create(Manifests.parse(HOST_NETWORK_POD))).assertDenied();
    }
}
