package dev.tollgate.functions.crdconversion;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.testing.ConversionTester;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.PackagedFunctionTest;
import dev.tollgate.testing.PathTokenResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;

/**
 * The packaged function (fast-jar, or native with -Dnative) as it runs in production, behind a path token: every test
 * of {@link DatabaseConversionHttpTest} (each version to each other in both ConversionReview versions, the shipped
 * examples and samples, the malformed requests and their {@code Status} bodies, still serving afterwards), posted
 * with the token, plus what {@link PackagedFunctionTest} checks of every packaged function. It extends the HTTP test,
 * not PackagedFunctionTest, whose reviews and malformed requests are admission ones.
 */
@QuarkusIntegrationTest
@WithTestResource(PathTokenResource.class)
class CrdConversionIT extends DatabaseConversionHttpTest {

    @Override
    protected String callerPath() {
        return PathTokenResource.withToken(PATH);
    }

    @Test
    void refusesCallersWithoutTheToken() {
        byte[] review = Manifests.toJson(ConversionTester.request(ReviewVersion.V1, GROUP + "v1",
                Databases.v1alpha1())).getBytes(StandardCharsets.UTF_8);
        PackagedFunctionTest.assertRefusesCallersWithoutTheToken(PATH, review);
    }

    @Test
    void unknownPathWithTheTokenIsAStatus404() {
        PackagedFunctionTest.assertUnknownPathWithTheTokenIsAStatus404();
    }

    @Test
    void healthAndMetricsOnlyOnTheManagementPort() {
        PackagedFunctionTest.assertHealthAndMetricsOnlyOnTheManagementPort();
    }
}
