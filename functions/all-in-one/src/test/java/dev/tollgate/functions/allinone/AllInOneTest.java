package dev.tollgate.functions.allinone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.tollgate.admission.AdmissionPolicy;
import dev.tollgate.admission.registration.WebhookRegistration;
import dev.tollgate.runtime.PolicyDirectory;
import dev.tollgate.runtime.RegistrationCheck;
import dev.tollgate.testing.AdmissionHttp;
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
        Set<String> served = policies.all().stream().map(AdmissionPolicy::name).collect(Collectors.toCollection(
                TreeSet::new));
        Set<String> declared = registrations.registrations().stream().map(WebhookRegistration::function)
                .collect(Collectors.toCollection(TreeSet::new));
        assertTrue(served.containsAll(Set.of("require-labels", "always-pull-images")), "served: " + served);
        assertEquals(served, declared, "every bundled function must come with its packaged webhook.yaml");
    }

    @Test
    void everyDeclaredPathAnswersAReview() {
        assertFalse(registrations.registrations().isEmpty());
        for (WebhookRegistration r : registrations.registrations()) {
            AdmissionHttp function = r.mutating() ? AdmissionHttp.mutating(r.path()) : AdmissionHttp.validating(r.path());
            // Any verdict will do here: the point is that the path answers with a review the API server accepts.
            function.review(ReviewBuilder.create(Pods.minimal("probe")));
        }
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
