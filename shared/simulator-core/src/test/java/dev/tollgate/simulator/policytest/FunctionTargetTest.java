package dev.tollgate.simulator.policytest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionPolicy;
import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.MutatingPolicy;
import dev.tollgate.admission.ValidatingPolicy;
import dev.tollgate.admission.Verdict;
import dev.tollgate.admission.conversion.ConversionException;
import dev.tollgate.admission.conversion.ConversionPolicy;
import dev.tollgate.simulator.InputException;

/**
 * {@link TestRunner.Target#function}: one function's policy in this process, its webhook.yaml rendered as Terraform
 * renders it, every call through the admission library's handler; no HTTP server, no bundle.
 */
class FunctionTargetTest {

    @TempDir
    Path dir;

    /** Denies pods whose image has no tag, and records which policy object answered. */
    static final class NoUntaggedImages implements ValidatingPolicy {
        final List<String> seen = new ArrayList<>();

        @Override
        public Verdict validate(AdmissionRequest request) {
            seen.add(request.name());
            for (var c : request.object().json().path("spec").path("containers")) {
                if (!c.path("image").asText().contains(":")) {
                    return Verdict.deny("container " + c.path("name").asText() + " has no image tag");
                }
            }
            return Verdict.allow().withWarning("checked by no-untagged");
        }
    }

    private static final String VALIDATING_WEBHOOK = """
            name: no-untagged.tollgate.dev
            type: validating
            path: /no-untagged
            rules:
              - operations: ["CREATE", "UPDATE"]
                apiGroups: [""]
                apiVersions: ["*"]
                resources: ["pods"]
                scope: "*"
            failurePolicy: Fail
            matchPolicy: Equivalent
            sideEffects: None
            timeoutSeconds: 10
            admissionReviewVersions: ["v1", "v1beta1"]
            """;

    private static final String PODS = """
            cases:
            - name: tagged image is allowed
              object:
                apiVersion: v1
                kind: Pod
                metadata: {name: tagged, namespace: shop}
                spec: {containers: [{name: app, image: "nginx:1.27"}]}
              expect:
                allowed: true
                warnings: ["checked by no-untagged"]
            - name: untagged image is denied
              object:
                apiVersion: v1
                kind: Pod
                metadata: {name: untagged, namespace: shop}
                spec: {containers: [{name: app, image: nginx}]}
              expect:
                allowed: false
                code: 403
                message: "container app has no image tag"
            """;

    private Path write(String relative, String text) throws IOException {
        Path p = dir.resolve(relative);
        Files.createDirectories(p.getParent());
        return Files.writeString(p, text);
    }

    private TestRunner.Run run(TestRunner.Target target, String testFile) throws IOException {
        return new TestRunner(target).run(List.of(write("tollgate-test.yaml", testFile)));
    }

    @Test
    void casesRunAgainstThePolicyInProcess() throws IOException {
        NoUntaggedImages policy = new NoUntaggedImages();
        Path webhook = write("no-untagged/webhook.yaml", VALIDATING_WEBHOOK);

        TestRunner.Run run = run(TestRunner.Target.function(policy, webhook), PODS);

        assertTrue(run.passed(), () -> TestOutput.text(run));
        assertEquals(2, run.cases());
        assertEquals(List.of("tagged", "untagged"), policy.seen, "each case called this policy object once");
        List<CaseResult> cases = run.files().get(0).cases();
        assertTrue(cases.get(1).outcome().startsWith("denied (403): "), cases.get(1).outcome());
    }

    @Test
    void aWrongExpectationFailsTheRunWithExpectedAndActual() throws IOException {
        Path webhook = write("no-untagged/webhook.yaml", VALIDATING_WEBHOOK);

        TestRunner.Run run = run(TestRunner.Target.function(new NoUntaggedImages(), webhook),
                PODS.replace("allowed: false", "allowed: true"));

        assertFalse(run.passed());
        assertEquals(1, run.failed());
        CaseResult failed = run.files().get(0).cases().get(1);
        assertEquals("untagged image is denied", failed.name());
        assertEquals("expect.allowed", failed.mismatches().get(0).field());
        assertTrue(TestOutput.text(run).contains("FAIL"), TestOutput.text(run));
    }

    @Test
    void theRegistrationDecidesWhatIsCalled() throws IOException {
        // Rendered as Terraform renders it: kube-system is excluded, and only pods match the rules.
        NoUntaggedImages policy = new NoUntaggedImages();
        Path webhook = write("no-untagged/webhook.yaml", VALIDATING_WEBHOOK);

        TestRunner.Run run = run(TestRunner.Target.function(policy, webhook), """
                cases:
                - name: excluded namespace
                  object:
                    apiVersion: v1
                    kind: Pod
                    metadata: {name: sys, namespace: kube-system}
                    spec: {containers: [{name: app, image: nginx}]}
                  expect: {allowed: true, warnings: []}
                - name: not a pod
                  object:
                    apiVersion: v1
                    kind: ConfigMap
                    metadata: {name: cm, namespace: shop}
                  expect: {allowed: true}
                """);

        assertTrue(run.passed(), () -> TestOutput.text(run));
        assertEquals(List.of(), policy.seen, "the webhook was never called");
    }

    @Test
    void aMutatingPolicysEditsArePatchedAndChecked() throws IOException {
        MutatingPolicy policy = (request, object) -> {
            ((ObjectNode) object.get("metadata")).withObjectProperty("labels").put("team", "unassigned");
            return Verdict.allow();
        };
        Path webhook = write("default-team/webhook.yaml", VALIDATING_WEBHOOK.replace("no-untagged", "default-team")
                .replace("type: validating", "type: mutating\nreinvocationPolicy: IfNeeded"));

        TestRunner.Run run = run(TestRunner.Target.function(policy, webhook), """
                cases:
                - name: gets the team label
                  object:
                    apiVersion: v1
                    kind: Pod
                    metadata: {name: p, namespace: shop}
                    spec: {containers: [{name: app, image: "nginx:1.27"}]}
                  expect:
                    allowed: true
                    patch: [{op: add, path: /metadata/labels, value: {team: unassigned}}]
                    object: {metadata: {labels: {team: unassigned}}}
                - name: wrong label value
                  object:
                    apiVersion: v1
                    kind: Pod
                    metadata: {name: q, namespace: shop}
                    spec: {containers: [{name: app, image: "nginx:1.27"}]}
                  expect:
                    object: {metadata: {labels: {team: payments}}}
                """);

        assertEquals(1, run.failed(), () -> TestOutput.text(run));
        CaseResult wrong = run.files().get(0).cases().get(1);
        assertEquals("expect.object", wrong.mismatches().get(0).field());
        assertTrue(String.join("\n", wrong.mismatches().get(0).diff()).contains("unassigned"),
                () -> wrong.mismatches().toString());
    }

    @Test
    void aPolicyThatThrowsGetsItsFailurePolicy() throws IOException {
        ValidatingPolicy broken = request -> {
            throw new IllegalStateException("boom");
        };
        Path webhook = write("no-untagged/webhook.yaml", VALIDATING_WEBHOOK);

        TestRunner.Run run = run(TestRunner.Target.function(broken, webhook), PODS.split("- name: untagged")[0]
                .replace("warnings: [\"checked by no-untagged\"]", "message: \"failed calling webhook\""));

        // The handler answers 500 (never an allow), so failurePolicy Fail rejects the request.
        assertEquals(1, run.failed(), () -> TestOutput.text(run));
        assertEquals("expect.allowed", run.files().get(0).cases().get(0).mismatches().get(0).field());
        assertTrue(run.files().get(0).cases().get(0).outcome().startsWith("denied"),
                run.files().get(0).cases().get(0).outcome());
    }

    @Test
    void aPathBelowTheFunctionIsServedByTheSubPolicy() throws IOException {
        ValidatingPolicy strict = request -> Verdict.deny("strict says no");
        ValidatingPolicy parent = new ValidatingPolicy() {
            @Override
            public Verdict validate(AdmissionRequest request) {
                return Verdict.deny("the parent was called");
            }

            @Override
            public Optional<? extends AdmissionPolicy> forSubPath(String subPath) {
                return subPath.equals("levels/strict") ? Optional.of(strict) : Optional.empty();
            }
        };
        Path webhook = write("levels/webhook.yaml", VALIDATING_WEBHOOK.replace("no-untagged", "levels")
                .replace("path: /levels", "path: /levels/levels/strict"));

        TestRunner.Run run = run(TestRunner.Target.function(parent, webhook), """
                cases:
                - name: strict
                  object:
                    apiVersion: v1
                    kind: Pod
                    metadata: {name: p, namespace: shop}
                    spec: {containers: [{name: app, image: "nginx:1.27"}]}
                  expect: {allowed: false, message: strict says no}
                """);

        assertTrue(run.passed(), () -> TestOutput.text(run));
    }

    @Test
    void aConversionFunctionConvertsEachCase() throws IOException {
        ConversionPolicy rename = (object, desired) -> {
            if (!object.path("apiVersion").asText().startsWith("example.com/")) {
                throw new ConversionException("not example.com");
            }
            ObjectNode spec = (ObjectNode) object.get("spec");
            if (desired.endsWith("/v1") && spec.has("size")) {
                spec.set("replicas", spec.remove("size"));
            } else if (desired.endsWith("/v1alpha1") && spec.has("replicas")) {
                spec.set("size", spec.remove("replicas"));
            }
            return object.put("apiVersion", desired);
        };
        Path webhook = write("widgets/webhook.yaml", """
                type: conversion
                path: /widgets
                crd: widgets.example.com
                versions: [v1alpha1, v1]
                conversionReviewVersions: [v1, v1beta1]
                """);

        TestRunner.Run run = run(TestRunner.Target.function(rename, webhook), """
                cases:
                - name: up
                  object:
                    apiVersion: example.com/v1alpha1
                    kind: Widget
                    metadata: {name: w, namespace: shop}
                    spec: {size: 3}
                  expect:
                    converted:
                      example.com/v1: {spec: {replicas: 3, size: null}}
                - name: wrong expectation
                  object:
                    apiVersion: example.com/v1
                    kind: Widget
                    metadata: {name: w, namespace: shop}
                    spec: {replicas: 3}
                  expect:
                    converted:
                      example.com/v1alpha1: {spec: {replicas: 3}}
                """);

        assertEquals(2, run.cases());
        assertEquals(1, run.failed(), () -> TestOutput.text(run));
        assertEquals("expect.converted.example.com/v1alpha1",
                run.files().get(0).cases().get(1).mismatches().get(0).field());
    }

    @Test
    void badInputNamesTheFunctionUnderTest() throws IOException {
        Path webhook = write("no-untagged/webhook.yaml", VALIDATING_WEBHOOK);
        TestRunner.Target target = TestRunner.Target.function(new NoUntaggedImages(), webhook);

        InputException other = assertThrows(InputException.class,
                () -> run(target, "functions: [cel-policy]\n" + PODS));
        assertTrue(other.getMessage().contains("functions: cel-policy is not the function under test ("
                + webhook + ": no-untagged)"), other.getMessage());

        write("p.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n");
        InputException cel = assertThrows(InputException.class,
                () -> run(target, "policies: {cel-policy: [p.yaml]}\n" + PODS));
        assertTrue(cel.getMessage().contains("policies: configures the bundled cel-policy; the function under test"),
                cel.getMessage());

        InputException conversion = assertThrows(InputException.class,
                () -> TestRunner.Target.function((o, v) -> o, webhook));
        assertEquals(webhook + ": declares no conversion webhook entry for a ConversionPolicy",
                conversion.getMessage());

        InputException missing = assertThrows(InputException.class,
                () -> TestRunner.Target.function(new NoUntaggedImages(), dir.resolve("none/webhook.yaml")));
        assertTrue(missing.getMessage().endsWith("none/webhook.yaml: no such file (the function's webhook.yaml)"),
                missing.getMessage());
    }
}
