package dev.tollgate.functions.alwayspullimages;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.testing.AdmissionHttp;
import dev.tollgate.testing.PackagedFunctionTest;
import dev.tollgate.testing.PathTokenResource;
import dev.tollgate.testing.Pods;
import dev.tollgate.testing.ReviewBuilder;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;

/** The packaged function (fast-jar, or native with -Dnative) as it runs in production, behind a path token. */
@QuarkusIntegrationTest
@WithTestResource(PathTokenResource.class)
class AlwaysPullImagesIT extends PackagedFunctionTest {

    private static final AdmissionHttp FUNCTION = AdmissionHttp.mutating(PathTokenResource.withToken("/always-pull-images"));

    @Override
    protected String functionPath() {
        return "/always-pull-images";
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void patchesEveryContainerAndIsIdempotent(ReviewVersion version) {
        ObjectNode pod = Pods.withContainer(Pods.minimal("web"), "initContainers", "init", "busybox");
        ObjectNode expected = pod.deepCopy();
        expected.path("spec").path("containers").forEach(c -> ((ObjectNode) c).put("imagePullPolicy", "Always"));
        expected.path("spec").path("initContainers").forEach(c -> ((ObjectNode) c).put("imagePullPolicy", "Always"));
        FUNCTION.review(ReviewBuilder.create(pod).version(version))
                .assertAllowed().assertPatchedTo(expected).assertIdempotent();
    }

    @Test
    void shippedSampleIsPatched() {
        FUNCTION.review(ReviewBuilder.fromFile(Path.of("samples/pod.v1.json")))
                .assertAllowed().assertPatched().assertIdempotent();
    }
}
