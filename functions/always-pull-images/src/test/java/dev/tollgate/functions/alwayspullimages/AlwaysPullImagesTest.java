package dev.tollgate.functions.alwayspullimages;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.testing.AdmissionTester;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.Pods;
import dev.tollgate.testing.ReviewBuilder;

class AlwaysPullImagesTest {

    private final AdmissionTester tester = AdmissionTester.of(new AlwaysPullImages(true));

    private static ObjectNode podWithAllContainerKinds() {
        return Manifests.parse("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: web
                  namespace: shop
                  labels: {app.kubernetes.io/name: web}
                  annotations: {example.com/odd~key: "x"}
                spec:
                  initContainers:
                  - {name: init, image: busybox:1.36, imagePullPolicy: IfNotPresent}
                  containers:
                  - {name: app, image: nginx:1.27}
                  - {name: sidecar, image: envoy:1.31, imagePullPolicy: Never}
                  - {name: done, image: redis:7, imagePullPolicy: Always}
                  ephemeralContainers:
                  - {name: debug, image: busybox:1.36, imagePullPolicy: IfNotPresent}
                """);
    }

    private static ObjectNode allAlways(ObjectNode pod) {
        ObjectNode expected = pod.deepCopy();
        for (String list : new String[] { "initContainers", "containers", "ephemeralContainers" }) {
            expected.path("spec").path(list).forEach(c -> ((ObjectNode) c).put("imagePullPolicy", "Always"));
        }
        return expected;
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void setsAlwaysOnEveryContainerKindAndThePatchReproducesTheEdit(ReviewVersion version) {
        ObjectNode pod = podWithAllContainerKinds();
        tester.version(version).create(pod)
                .assertAllowed().assertPatched()
                .assertPatchedTo(allAlways(pod))
                .assertIdempotent();
    }

    @Test
    void patchTouchesOnlyThePullPolicies() {
        ObjectNode pod = podWithAllContainerKinds();
        JsonNode patch = tester.create(pod).patch();
        assertEquals(4, patch.size(), patch::toString);
        patch.forEach(op -> assertEquals(true, op.path("path").asText().endsWith("/imagePullPolicy"), op::toString));
    }

    @Test
    void podThatAlreadyPullsAlwaysGetsNoPatch() {
        tester.create(allAlways(podWithAllContainerKinds())).assertAllowed().assertNoPatch();
    }

    @Test
    void updateWithoutNewImagesIsLeftAlone() {
        ObjectNode old = Pods.minimal("web");
        ObjectNode updated = Pods.withLabels(old.deepCopy(), "team", "shop");
        tester.update(updated, old).assertAllowed().assertNoPatch();
    }

    @Test
    void updateWithANewImageIsMutated() {
        ObjectNode old = Pods.minimal("web");
        ObjectNode updated = old.deepCopy();
        ((ObjectNode) updated.path("spec").path("containers").get(0)).put("image", "nginx:1.28");
        tester.update(updated, old).assertPatchedTo(allAlways(updated)).assertIdempotent();
    }

    @Test
    void ephemeralContainersSubresourceChangesOnlyEphemeralContainers() {
        ObjectNode old = Pods.minimal("web");
        ObjectNode updated = Pods.withContainer(old.deepCopy(), "ephemeralContainers", "debug", "busybox:1.36");
        var result = tester.review(ReviewBuilder.update(updated, old).subResource("ephemeralcontainers"));
        ObjectNode expected = updated.deepCopy();
        ((ObjectNode) expected.path("spec").path("ephemeralContainers").get(0)).put("imagePullPolicy", "Always");
        result.assertPatchedTo(expected).assertIdempotent();
    }

    @Test
    void strictParityModeSkipsTheEphemeralSubresource() {
        ObjectNode old = Pods.minimal("web");
        ObjectNode updated = Pods.withContainer(old.deepCopy(), "ephemeralContainers", "debug", "busybox:1.36");
        AdmissionTester.of(new AlwaysPullImages(false))
                .review(ReviewBuilder.update(updated, old).subResource("ephemeralcontainers"))
                .assertAllowed().assertNoPatch();
    }

    @Test
    void otherSubresourcesResourcesAndOperationsAreIgnored() {
        ObjectNode pod = Pods.minimal("web");
        tester.review(ReviewBuilder.update(pod, pod).subResource("status")).assertNoPatch();
        tester.delete(pod).assertAllowed().assertNoPatch();
        ObjectNode deployment = Manifests.parse("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web}
                spec: {template: {spec: {containers: [{name: a, image: nginx}]}}}
                """);
        tester.create(deployment).assertAllowed().assertNoPatch();
    }

    @Test
    void podWithoutContainersOrSpecIsAllowedUnchanged() {
        tester.create(Manifests.parse("{apiVersion: v1, kind: Pod, metadata: {name: empty}}"))
                .assertAllowed().assertNoPatch();
    }
}
