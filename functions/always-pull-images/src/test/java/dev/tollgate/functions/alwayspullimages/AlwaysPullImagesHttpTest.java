package dev.tollgate.functions.alwayspullimages;

import java.nio.file.Path;
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
import dev.tollgate.testing.Pods;
import dev.tollgate.testing.ReviewBuilder;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AlwaysPullImagesHttpTest {

    private static final AdmissionHttp FUNCTION = AdmissionHttp.mutating("/always-pull-images");

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void patchesPodOverHttpAndIsIdempotent(ReviewVersion version) {
        ObjectNode pod = Pods.withContainer(Pods.minimal("web"), "initContainers", "init", "busybox");
        ObjectNode expected = pod.deepCopy();
        expected.path("spec").path("containers").forEach(c -> ((ObjectNode) c).put("imagePullPolicy", "Always"));
        expected.path("spec").path("initContainers").forEach(c -> ((ObjectNode) c).put("imagePullPolicy", "Always"));
        FUNCTION.review(ReviewBuilder.create(pod).version(version))
                .assertAllowed().assertPatchedTo(expected).assertIdempotent();
    }

    @Test
    void dryRunRequestsAreAnsweredTheSameWay() {
        FUNCTION.review(ReviewBuilder.create(Pods.minimal("web")).dryRun()).assertAllowed().assertPatched();
    }

    @Test
    void shippedSampleIsPatched() {
        FUNCTION.review(ReviewBuilder.fromFile(Path.of("samples/pod.v1.json")))
                .assertAllowed().assertPatched().assertIdempotent();
    }

    static List<MalformedRequests.Case> malformed() {
        return MalformedRequests.cases(AdmissionLimits.DEFAULTS.maxBodyBytes());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    @Order(1)
    void refusesMalformedRequestWithJsonError(MalformedRequests.Case badRequest) {
        badRequest.assertRefused("/always-pull-images");
    }

    @Test
    @Order(2)
    void stillServingAfterBadRequests() {
        FUNCTION.review(ReviewBuilder.create(Pods.minimal("after"))).assertAllowed().assertPatched();
    }
}
