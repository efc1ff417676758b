#if ($type == 'conversion')
#set ($crdGroup = $crd.substring($crd.indexOf('.') + 1))
package ${package};

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.admission.registration.RegistrationValidator;
import dev.tollgate.admission.registration.Registrations;
import dev.tollgate.admission.registration.WebhookRegistration;
import dev.tollgate.testing.ConversionTester;
import dev.tollgate.testing.Manifests;

/**
 * The conversion in process: no HTTP, both ConversionReview versions, every answer re-checked against the API
 * server's rules by {@link ConversionTester}.
 */
class ${className}Test {

    private static final String OLDEST = ${className}.VERSIONS.get(0);
    private static final String NEWEST = ${className}.NEWEST;

    private final ConversionTester tester = ConversionTester.of(new ${className}());

    /** One object of the CRD in {@code version}, as the API server would send it. */
    static ObjectNode object(String version) {
        String size = version.equals(NEWEST) ? "replicas" : "size";
        return Manifests.parse("apiVersion: ${crdGroup}/" + version + "\nkind: ${crdKind}\n"
                + "metadata: {name: blue, namespace: shop, uid: 0c0ffee0-1, resourceVersion: \"7\", labels: {team: a}}\n"
                + "spec: {" + size + ": 3, colour: blue}\n");
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void convertsUpAndDownInTheReviewVersionReceived(ReviewVersion version) {
        tester.version(version).convert("${crdGroup}/" + NEWEST, object(OLDEST)).assertConverted()
                .assertObject(0, object(NEWEST));
        tester.version(version).convert("${crdGroup}/" + OLDEST, object(NEWEST)).assertConverted()
                .assertObject(0, object(OLDEST));
    }

    @Test
    void everyPairOfVersionsRoundTripsLosslessly() {
        for (String from : ${className}.VERSIONS) {
            for (String via : ${className}.VERSIONS) {
                if (!from.equals(via)) {
                    tester.assertLossless(object(from), "${crdGroup}/" + via);
                }
            }
        }
    }

    @Test
    void convertsSeveralObjectsInOrder() {
        ObjectNode red = object(OLDEST);
        ((ObjectNode) red.get("metadata")).put("name", "red");
        var answer = tester.convert("${crdGroup}/" + NEWEST, object(OLDEST), red).assertConverted();
        assertEquals("blue", answer.object(0).path("metadata").path("name").asText());
        assertEquals("red", answer.object(1).path("metadata").path("name").asText());
    }

    @Test
    void anObjectOfAnotherGroupFailsTheWholeReview() {
        ObjectNode foreign = object(OLDEST);
        foreign.put("apiVersion", "other.example.com/" + OLDEST);
        tester.convert("${crdGroup}/" + NEWEST, object(OLDEST), foreign).assertFailed()
                .withMessageContaining("objects[1]").withMessageContaining("is not one of ${crdGroup}/");
    }

    /** webhook.yaml follows the API server's rules (what the Terraform catalog checks too) and names this policy. */
    @Test
    void webhookYamlIsAValidRegistrationOfThisPolicy() throws IOException {
        List<WebhookRegistration> entries;
        try (InputStream in = Files.newInputStream(Path.of(Registrations.FILE_NAME))) {
            entries = Registrations.read("${artifactId}", in, Registrations.FILE_NAME);
        }
        assertEquals(1, entries.size());
        WebhookRegistration entry = entries.get(0);
        assertEquals(List.of(), RegistrationValidator.validateDeclared(entry));
        assertEquals(WebhookRegistration.Type.conversion, entry.type());
        assertEquals("/${artifactId}", entry.path()); // the function's name, given nowhere else
        assertEquals(${className}.VERSIONS, entry.versions());
    }
}
#else
package ${package};

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.admission.registration.RegistrationValidator;
import dev.tollgate.admission.registration.Registrations;
import dev.tollgate.admission.registration.WebhookRegistration;
import dev.tollgate.testing.AdmissionTester;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.Pods;
import dev.tollgate.testing.ReviewBuilder;

/** The policy in process: no HTTP, both AdmissionReview versions, every answer checked against the API server. */
class ${className}Test {
#if ($type == 'mutating')

    private final AdmissionTester tester = AdmissionTester.of(
            new ${className}(List.of("team=unassigned", "example.com/owner=platform")));

    /** The pod with the default labels added: what the API server stores after applying the patch. */
    private static ObjectNode withDefaults(ObjectNode object) {
        return Pods.withLabels(object.deepCopy(), "team", "unassigned", "example.com/owner", "platform");
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void addsMissingLabelsAndASecondPassChangesNothing(ReviewVersion version) {
        ObjectNode pod = Pods.minimal("web");
        tester.version(version).create(pod)
                .assertAllowed().assertPatched()
                .assertPatchedTo(withDefaults(pod))
                .assertIdempotent();
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void keepsLabelsTheObjectAlreadyHas(ReviewVersion version) {
        ObjectNode pod = Pods.withLabels(Pods.minimal("web"), "team", "payments");
        ObjectNode expected = Pods.withLabels(pod.deepCopy(), "example.com/owner", "platform");
        tester.version(version).create(pod).assertAllowed().assertPatchedTo(expected).assertIdempotent();
    }

    @Test
    void anObjectWithEveryLabelGetsNoPatch() {
        tester.create(withDefaults(Pods.minimal("web"))).assertAllowed().assertNoPatch();
    }

    @Test
    void worksForAnyKindAndOnUpdate() {
        ObjectNode configMap = Manifests.parse("""
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: settings, namespace: shop, labels: {app: shop}}
                data: {mode: fast}
                """);
        tester.update(configMap, configMap).assertAllowed().assertPatchedTo(withDefaults(configMap));
    }

    @Test
    void leavesDeletesAndSubresourcesAlone() {
        ObjectNode pod = Pods.minimal("web");
        tester.delete(pod).assertAllowed().assertNoPatch();
        tester.review(ReviewBuilder.update(pod, pod).subResource("status")).assertAllowed().assertNoPatch();
    }

    @Test
    void rejectsInvalidConfiguration() {
        assertThrows(IllegalArgumentException.class, () -> new ${className}(List.of()));
        assertThrows(IllegalArgumentException.class, () -> new ${className}(List.of("team")));
        assertThrows(IllegalArgumentException.class, () -> new ${className}(List.of("not a key=x")));
        assertThrows(IllegalArgumentException.class, () -> new ${className}(List.of("team=not a value")));
    }
#else

    private final AdmissionTester tester = AdmissionTester.of(new ${className}(List.of("latest", "main")));

    private static ObjectNode podWithImage(String image) {
        ObjectNode pod = Pods.minimal("web");
        ((ObjectNode) pod.path("spec").path("containers").get(0)).put("image", image);
        return pod;
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void deniesAnImageWithoutATag(ReviewVersion version) {
        tester.version(version).create(podWithImage("nginx"))
                .assertDenied().withCode(403).withMessageContaining("unpinned image app (nginx)");
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void allowsPinnedTagsAndDigests(ReviewVersion version) {
        tester.version(version).create(podWithImage("nginx:1.27")).assertAllowed().assertNoWarnings().assertNoPatch();
        tester.version(version).create(podWithImage("nginx@sha256:" + "a".repeat(64))).assertAllowed();
        tester.version(version).create(podWithImage("registry.example.com:5000/team/app:2.1.0")).assertAllowed();
    }

    @Test
    void deniesConfiguredTagsAndNamesEveryOffendingContainer() {
        ObjectNode pod = Pods.withContainer(podWithImage("nginx:latest"), "initContainers", "init", "busybox:main");
        tester.create(pod).assertDenied()
                .withMessageContaining("unpinned images init (busybox:main), app (nginx:latest)");
    }

    @Test
    void aRegistryPortIsNotATag() {
        tester.create(podWithImage("registry.example.com:5000/app")).assertDenied();
    }

    @Test
    void checksThePodTemplatesOfWorkloads() {
        ObjectNode deployment = Manifests.parse("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: shop}
                spec:
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: [{name: web, image: "nginx:latest"}]}
                """);
        tester.create(deployment).assertDenied().withMessageContaining("Deployment \"web\"");
        ObjectNode cronJob = Manifests.parse("""
                apiVersion: batch/v1
                kind: CronJob
                metadata: {name: nightly, namespace: shop}
                spec:
                  schedule: "0 3 * * *"
                  jobTemplate:
                    spec:
                      template:
                        spec: {restartPolicy: Never, containers: [{name: job, image: busybox}]}
                """);
        tester.create(cronJob).assertDenied().withMessageContaining("CronJob \"nightly\"");
    }

    @Test
    void ignoresDeletesSubresourcesAndObjectsWithoutPods() {
        ObjectNode unpinned = podWithImage("nginx");
        tester.delete(unpinned).assertAllowed();
        tester.review(ReviewBuilder.update(unpinned, unpinned).subResource("status")).assertAllowed();
        tester.create(Manifests.parse("{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: b}}"))
                .assertAllowed();
    }

    @Test
    void rejectsInvalidConfiguration() {
        assertThrows(IllegalArgumentException.class, () -> new ${className}(List.of("not a tag")));
    }
#end

    /** webhook.yaml follows the API server's rules (what the Terraform catalog checks too) and names this policy. */
    @Test
    void webhookYamlIsAValidRegistrationOfThisPolicy() throws IOException {
        List<WebhookRegistration> entries;
        try (InputStream in = Files.newInputStream(Path.of(Registrations.FILE_NAME))) {
            entries = Registrations.read("${artifactId}", in, Registrations.FILE_NAME);
        }
        assertEquals(1, entries.size());
        WebhookRegistration entry = entries.get(0);
        assertEquals(List.of(), RegistrationValidator.validateDeclared(entry));
        assertEquals("/${artifactId}", entry.path()); // the function's name, given nowhere else
        assertEquals(WebhookRegistration.Type.${type}, entry.type());
    }
}
#end
