package dev.tollgate.functions.allinone;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.admission.registration.WebhookRegistration;
import dev.tollgate.runtime.PolicyDirectory;
import dev.tollgate.runtime.RegistrationCheck;
import dev.tollgate.testing.AdmissionHttp;
import dev.tollgate.testing.ConversionTester;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.Pods;
import dev.tollgate.testing.ReviewBuilder;
import io.quarkus.test.junit.QuarkusTest;

/** The bundle serves every bundled function at its own path, with each function's own configuration. */
@QuarkusTest
class AllInOneTest {

    @Inject
    PolicyDirectory policies;

    @Inject
    RegistrationCheck registrations;

    @Test
    void servesEveryFunctionWhoseRegistrationItCarries() {
        Set<String> served = new TreeSet<>(policies.admission().keySet());
        served.addAll(policies.conversions().keySet());
        Set<String> declared = registrations.registrations().stream().map(WebhookRegistration::function)
                .collect(Collectors.toCollection(TreeSet::new));
        assertTrue(served.containsAll(Set.of("require-labels", "always-pull-images", "crd-conversion")),
                "served: " + served);
        assertEquals(served, declared, "every bundled function must come with its packaged webhook.yaml");
    }

    @Test
    void everyDeclaredPathAnswersAReview() {
        assertFalse(registrations.registrations().isEmpty());
        for (WebhookRegistration r : registrations.registrations()) {
            if (r.conversion()) {
                continue; // a ConversionReview, below
            }
            AdmissionHttp function = r.mutating() ? AdmissionHttp.mutating(r.path()) : AdmissionHttp.validating(r.path());
            // Any verdict will do here: the point is that the path answers with a review the API server accepts.
            function.review(ReviewBuilder.create(Pods.minimal("probe")));
        }
    }

    /** The CRD conversion function is served at its declared path, behind the same gate. */
    @Test
    void theConversionEntryAnswersAConversionReview() {
        WebhookRegistration conversion = registrations.registrations().stream().filter(WebhookRegistration::conversion)
                .findFirst().orElseThrow();
        assertEquals("databases.data.tollgate.dev", conversion.crd());
        var sent = ConversionTester.request(ReviewVersion.V1BETA1, "data.tollgate.dev/v1", Manifests.parse("""
                apiVersion: data.tollgate.dev/v1alpha1
                kind: Database
                metadata: {name: orders, namespace: shop}
                spec: {engine: "postgres:16.2", storageSize: 20Gi}
                """));
        var r = given().contentType("application/json").body(Manifests.toJson(sent)).post(conversion.path());
        var converted = ConversionTester.Conversion.checked(sent, r.statusCode(), r.asByteArray()).assertConverted()
                .object(0);
        assertEquals("postgres", converted.path("spec").path("engine").path("name").asText());
        assertEquals("disable", converted.path("spec").path("tlsMode").asText());
    }

    @Test
    void requireLabelsKeepsItsOwnConfiguration() {
        var deployment = Manifests.parse("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: shop}
                spec: {template: {spec: {containers: [{name: app, image: nginx}]}}}
                """);
        AdmissionHttp.validating("/require-labels").review(ReviewBuilder.create(deployment))
                .assertDenied().withCode(403).withMessageContaining("missing required label team");
    }

    @Test
    void alwaysPullImagesPatchesPods() {
        AdmissionHttp.mutating("/always-pull-images").review(ReviewBuilder.create(Pods.minimal("web")))
                .assertAllowed().assertPatched();
    }
}
