package dev.tollgate.functions.requirelabels;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.testing.AdmissionHttp;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.PackagedFunctionTest;
import dev.tollgate.testing.PathTokenResource;
import dev.tollgate.testing.Pods;
import dev.tollgate.testing.ReviewBuilder;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;

/** The packaged function (fast-jar, or native with -Dnative) as it runs in production, behind a path token. */
@QuarkusIntegrationTest
@WithTestResource(PathTokenResource.class)
class RequireLabelsIT extends PackagedFunctionTest {

    private static final AdmissionHttp FUNCTION = AdmissionHttp.validating(PathTokenResource.withToken("/require-labels"));

    @Override
    protected String functionPath() {
        return "/require-labels";
    }

    private static ReviewBuilder service(String... labels) {
        return ReviewBuilder.create(Pods.withLabels(Manifests.parse("""
                apiVersion: v1
                kind: Service
                metadata: {name: api, namespace: shop}
                spec: {ports: [{port: 80}]}
                """), labels));
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void deniesMissingLabelAndWarnsAboutRecommendedOne(ReviewVersion version) {
        FUNCTION.review(service().version(version))
                .assertDenied().withCode(403).withMessageContaining("missing required label team");
        FUNCTION.review(service("team", "shop").version(version))
                .assertAllowed().assertWarningContaining("app.kubernetes.io/name");
    }

    @Test
    void shippedSamplesGiveTheDocumentedAnswers() {
        FUNCTION.review(ReviewBuilder.fromFile(Path.of("samples/deployment-missing-labels.v1.json")))
                .assertDenied().withCode(403).withMessageContaining("missing required label team");
        FUNCTION.review(ReviewBuilder.fromFile(Path.of("samples/service-labelled.v1beta1.json")))
                .assertAllowed().assertWarningContaining("missing recommended label app.kubernetes.io/name");
    }
}
