#if ($type == 'conversion')
#set ($crdGroup = $crd.substring($crd.indexOf('.') + 1))
package ${package};

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.testing.ConversionTester;
import dev.tollgate.testing.ManagementEndpoints;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.PathTokenResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.restassured.response.Response;

/**
 * The packaged function (fast-jar in {@code verify}, the native executable with {@code -Dnative}) as it runs in
 * production: behind a path token, health and metrics on the management port only.
 */
@QuarkusIntegrationTest
@WithTestResource(PathTokenResource.class)
class ${className}IT {

    private static final String PATH = "/${artifactId}";
    private static final String NEWEST = "${crdGroup}/" + ${className}.NEWEST;

    private static ConversionTester.Conversion convert(ReviewVersion version, String desired, ObjectNode object) {
        ObjectNode sent = ConversionTester.request(version, desired, object);
        Response r = given().contentType("application/json").body(Manifests.toJson(sent))
                .post(PathTokenResource.withToken(PATH));
        return ConversionTester.Conversion.checked(sent, r.statusCode(), r.asByteArray());
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void convertsToTheNewestVersion(ReviewVersion version) {
        convert(version, NEWEST, ${className}Test.object(${className}.VERSIONS.get(0))).assertConverted()
                .assertObject(0, ${className}Test.object(${className}.NEWEST));
    }

    @Test
    void refusesCallersWithoutTheToken() {
        String review = Manifests.toJson(ConversionTester.request(ReviewVersion.V1, NEWEST,
                ${className}Test.object(${className}.VERSIONS.get(0))));
        given().contentType("application/json").body(review).post(PATH).then().statusCode(401);
    }

    @Test
    void healthAndMetricsOnlyOnTheManagementPort() {
        ManagementEndpoints.assertServedOnlyOnTheManagementPort();
        given().get(PathTokenResource.withToken("/q/metrics")).then().statusCode(404).body("kind", equalTo("Status"));
    }
}
#else
package ${package};

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

/**
 * The packaged function (fast-jar in {@code verify}, the native executable with {@code -Dnative}) as it runs in
 * production, behind a path token: the checks every function passes (malformed requests, callers without the token,
 * health and metrics on the management port only; {@link PackagedFunctionTest}) and its own answers.
 */
@QuarkusIntegrationTest
@WithTestResource(PathTokenResource.class)
class ${className}IT extends PackagedFunctionTest {

#if ($type == 'mutating')
    private static final AdmissionHttp FUNCTION = AdmissionHttp.mutating(PathTokenResource.withToken("/${artifactId}"));
#else
    private static final AdmissionHttp FUNCTION = AdmissionHttp.validating(PathTokenResource.withToken("/${artifactId}"));
#end

    @Override
    protected String functionPath() {
        return "/${artifactId}";
    }
#if ($type == 'mutating')

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void patchesWithTheConfiguredDefaults(ReviewVersion version) {
        ObjectNode pod = Pods.minimal("web");
        FUNCTION.review(ReviewBuilder.create(pod).version(version)).assertAllowed()
                .assertPatchedTo(Pods.withLabels(pod.deepCopy(), "team", "unassigned")).assertIdempotent();
    }
#else

    private static ObjectNode podWithImage(String image) {
        ObjectNode pod = Pods.minimal("web");
        ((ObjectNode) pod.path("spec").path("containers").get(0)).put("image", image);
        return pod;
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void deniesAnUnpinnedImageAndAllowsAPinnedOne(ReviewVersion version) {
        FUNCTION.review(ReviewBuilder.create(podWithImage("nginx:latest")).version(version))
                .assertDenied().withCode(403).withMessageContaining("unpinned image app (nginx:latest)");
        FUNCTION.review(ReviewBuilder.create(podWithImage("nginx:1.27")).version(version)).assertAllowed();
    }
#end
}
#end
