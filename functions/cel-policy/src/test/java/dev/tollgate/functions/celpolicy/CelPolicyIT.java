package dev.tollgate.functions.celpolicy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.testing.AdmissionHttp;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.PackagedFunctionTest;
import dev.tollgate.testing.PathTokenResource;
import dev.tollgate.testing.ReviewBuilder;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;

/**
 * The packaged function (fast-jar, or native with -Dnative) as it runs in production, behind a path token, reading
 * the policies in examples/ at start (CEL compiled in the artifact: cel-java's protobuf descriptors in a native image).
 */
@QuarkusIntegrationTest
@WithTestResource(value = PathTokenResource.class,
        initArgs = @ResourceArg(name = "tollgate.cel-policy.config", value = "examples"))
class CelPolicyIT extends PackagedFunctionTest {

    private static final AdmissionHttp FUNCTION = AdmissionHttp.validating(PathTokenResource.withToken("/cel-policy"));

    @Override
    protected String functionPath() {
        return "/cel-policy";
    }

    @Override
    protected ReviewBuilder validReview() {
        return ReviewBuilder.create(Policies.deployment("shop", 1, "registry.example.com/web:1"));
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void paramsVariablesAndMessagesAsInTheApiServer(ReviewVersion version) {
        FUNCTION.review(ReviewBuilder.create(Policies.deployment("sandbox", 4, "registry.example.com/web:1"))
                .version(version))
                .assertDenied().withCode(422).withReason("Invalid")
                .withMessageContaining("ValidatingAdmissionPolicy 'replicalimit-policy.example.com' with binding "
                        + "'replicalimit-binding-test.example.com' denied request: object.spec.replicas must be no "
                        + "greater than 3");
        FUNCTION.review(ReviewBuilder.create(Policies.deployment("shop", 40, "registry.example.com/web:1"))
                .version(version)).assertAllowed().assertNoWarnings();
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
}
