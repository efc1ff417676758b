package dev.tollgate.functions.allinone;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.testing.AdmissionHttp;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.PackagedFunctionTest;
import dev.tollgate.testing.PathTokenResource;
import dev.tollgate.testing.Pods;
import dev.tollgate.testing.ReviewBuilder;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;

/**
 * The packaged bundle (fast-jar, or native with -Dnative) as it runs in production, behind one path token: every
 * bundled function answers at its own path with its own configuration.
 */
@QuarkusIntegrationTest
@WithTestResource(value = PathTokenResource.class, initArgs = {
        @ResourceArg(name = "tollgate.cel-policy.config", value = "../cel-policy/examples"),
        @ResourceArg(name = "tollgate.cel-mutate.config", value = "../cel-mutate/examples") })
class AllInOneIT extends PackagedFunctionTest {

    @Override
    protected String functionPath() {
        return "/require-labels";
    }

    private static AdmissionHttp validating(String path) {
        return AdmissionHttp.validating(PathTokenResource.withToken(path));
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void everyBundledFunctionAnswersAtItsPath(ReviewVersion version) {
        var deployment = Manifests.parse("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: shop}
                spec: {template: {spec: {containers: [{name: app, image: nginx}]}}}
                """);
        validating("/require-labels").review(ReviewBuilder.create(deployment).version(version))
                .assertDenied().withCode(403).withMessageContaining("missing required label team");
        AdmissionHttp.mutating(PathTokenResource.withToken("/always-pull-images"))
                .review(ReviewBuilder.create(Pods.minimal("web")).version(version)).assertAllowed().assertPatched();
        var hostNetwork = Manifests.parse("""
                {apiVersion: v1, kind: Pod, metadata: {name: web, namespace: shop},
                 spec: {hostNetwork: true, containers: [{name: app, image: nginx}]}}""");
        validating("/pod-security/enforce/baseline/latest").review(ReviewBuilder.create(hostNetwork).version(version))
                .assertDenied().withCode(403).withMessageContaining("host namespaces (hostNetwork=true)");
        var untrusted = Manifests.parse("""
                {apiVersion: v1, kind: Pod, metadata: {name: web, namespace: shop},
                 spec: {containers: [{name: app, image: docker.io/nginx}]}}""");
        validating("/cel-policy").review(ReviewBuilder.create(untrusted).version(version))
                .assertDenied().withCode(403).withMessageContaining("use images outside registry.example.com");
        var patched = AdmissionHttp.mutating(PathTokenResource.withToken("/cel-mutate"))
                .review(ReviewBuilder.create(untrusted).version(version))
                .assertAllowed().assertPatched().assertIdempotent().patchedObject();
        assertEquals("mesh/proxy:v1.0.0", patched.path("spec").path("initContainers").path(0).path("image").asText());
    }
}
