package dev.tollgate.functions.podsecurity;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.admission.registration.Registrations;
import dev.tollgate.admission.registration.WebhookRegistration;
import dev.tollgate.testing.AdmissionHttp;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.PackagedFunctionTest;
import dev.tollgate.testing.PathTokenResource;
import dev.tollgate.testing.ReviewBuilder;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;

/** The packaged function (fast-jar, or native with -Dnative) as it runs in production, behind a path token. */
@QuarkusIntegrationTest
@WithTestResource(PathTokenResource.class)
class PodSecurityIT extends PackagedFunctionTest {

    private static final String HOST_NETWORK_POD = """
            {apiVersion: v1, kind: Pod, metadata: {name: web, namespace: shop},
             spec: {hostNetwork: true, containers: [{name: app, image: nginx}]}}""";

    @Override
    protected String functionPath() {
        return "/pod-security/enforce/restricted/latest";
    }

    static List<WebhookRegistration> registrations() {
        return Registrations.load(Path.of("webhook.yaml"));
    }

    @ParameterizedTest
    @MethodSource("registrations")
    void everyRegisteredPathIsServed(WebhookRegistration r) {
        var result = AdmissionHttp.validating(PathTokenResource.withToken(r.path()))
                .review(ReviewBuilder.create(Manifests.parse(HOST_NETWORK_POD)));
        if (r.path().contains("/enforce/")) {
            result.assertDenied().withCode(403).withMessageContaining("host namespaces (hostNetwork=true)");
        } else {
            result.assertAllowed();
        }
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void warnsAndEnforcesInEitherReviewVersion(ReviewVersion version) {
        AdmissionHttp.validating(PathTokenResource.withToken("/pod-security/warn/baseline/v1.25"))
                .review(ReviewBuilder.create(Manifests.parse(HOST_NETWORK_POD)).version(version))
                .assertAllowed().assertWarningContaining("would violate PodSecurity \"baseline:v1.25\": host namespaces");
        AdmissionHttp.validating(PathTokenResource.withToken("/pod-security/enforce/restricted/latest"))
                .review(ReviewBuilder.create(Manifests.parse(HOST_NETWORK_POD)).version(version))
                .assertDenied().withCode(403).withMessageContaining("violates PodSecurity \"restricted:latest\"");
    }
}
