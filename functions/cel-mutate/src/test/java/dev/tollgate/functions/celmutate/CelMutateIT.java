package dev.tollgate.functions.celmutate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
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
 * the policies in examples/ at start.
 */
@QuarkusIntegrationTest
@WithTestResource(value = PathTokenResource.class,
        initArgs = @ResourceArg(name = "tollgate.cel-mutate.config", value = "examples"))
class CelMutateIT extends PackagedFunctionTest {

    private static final AdmissionHttp FUNCTION = AdmissionHttp.mutating(PathTokenResource.withToken("/cel-mutate"));

    @Override
    protected String functionPath() {
        return "/cel-mutate";
    }

    private static ReviewBuilder pod(String namespace) {
        return ReviewBuilder.create(Manifests.parse("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web, namespace: %s}
                spec: {containers: [{name: app, image: nginx}]}
                """.formatted(namespace)));
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void injectsTheSidecarOnceInTheMeshNamespace(ReviewVersion version) {
        var patched = FUNCTION.review(pod("shop").version(version))
                .assertAllowed().assertPatched().assertIdempotent().patchedObject();
        assertEquals("mesh/proxy:v1.0.0", patched.path("spec").path("initContainers").path(0).path("image").asText());
    }

    @Test
    void leavesOtherNamespacesAlone() {
        FUNCTION.review(pod("default")).assertAllowed().assertNoPatch();
    }
}
