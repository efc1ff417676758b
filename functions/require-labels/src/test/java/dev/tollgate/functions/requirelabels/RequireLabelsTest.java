package dev.tollgate.functions.requirelabels;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.testing.AdmissionTester;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.Pods;
import dev.tollgate.testing.ReviewBuilder;

class RequireLabelsTest {

    private final RequireLabels policy = new RequireLabels(List.of("team", "app.kubernetes.io/name"),
            List.of("cost-center"));

    private static ObjectNode deployment(String... labels) {
        ObjectNode d = Manifests.parse("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: shop}
                spec:
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: [{name: web, image: nginx}]}
                """);
        return Pods.withLabels(d, labels);
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void deniesEveryMissingRequiredKeyInOneMessage(ReviewVersion version) {
        AdmissionTester.of(policy).version(version)
                .create(deployment())
                .assertDenied().withCode(403).withReason("Forbidden")
                .withMessageContaining("missing required labels team, app.kubernetes.io/name");
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void allowsWhenEveryRequiredKeyIsPresent(ReviewVersion version) {
        AdmissionTester.of(policy).version(version)
                .create(deployment("team", "payments", "app.kubernetes.io/name", "web", "cost-center", "42"))
                .assertAllowed().assertNoWarnings().assertNoPatch();
    }

    @Test
    void warnsAboutMissingRecommendedKeyButAllows() {
        AdmissionTester.of(policy)
                .create(deployment("team", "payments", "app.kubernetes.io/name", "web"))
                .assertAllowed().assertWarningContaining("missing recommended label cost-center");
    }

    @Test
    void deniesUpdateThatDropsARequiredLabel() {
        ObjectNode before = deployment("team", "payments", "app.kubernetes.io/name", "web");
        ObjectNode after = deployment("app.kubernetes.io/name", "web");
        AdmissionTester.of(policy).update(after, before)
                .assertDenied().withMessageContaining("missing required label team");
    }

    @Test
    void anEmptyLabelValueCountsAsPresent() {
        AdmissionTester.of(policy).create(deployment("team", "", "app.kubernetes.io/name", "web"))
                .assertAllowed();
    }

    @Test
    void ignoresDeleteAndSubresources() {
        AdmissionTester.of(policy).delete(deployment()).assertAllowed();
        AdmissionTester.of(policy).review(ReviewBuilder.update(deployment(), deployment()).subResource("status"))
                .assertAllowed();
    }

    @Test
    void namesGeneratedObjectsByTheirPrefix() {
        ObjectNode d = deployment();
        ((ObjectNode) d.get("metadata")).remove("name");
        ((ObjectNode) d.get("metadata")).put("generateName", "web-");
        AdmissionTester.of(policy).create(d).assertDenied().withMessageContaining("\"web-*\"");
    }

    @Test
    void rejectsInvalidConfiguration() {
        assertThrows(IllegalArgumentException.class, () -> new RequireLabels(List.of(), List.of()));
        assertThrows(IllegalArgumentException.class, () -> new RequireLabels(List.of("not a key!"), List.of()));
    }
}
