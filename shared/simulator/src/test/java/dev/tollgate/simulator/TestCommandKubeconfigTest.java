package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.tollgate.functions.crdconversion.DatabaseConversion;
import dev.tollgate.simulator.cli.TestCommand;
import dev.tollgate.testing.KubeApiServer;
import dev.tollgate.testing.Skip;

/**
 * {@code tollgate test --kubeconfig} against a real kube-apiserver (../shared/tools/kube-apiserver): the
 * CustomResourceDefinitions the cluster serves are schemas for type checking, so a policy on a custom kind that no
 * file describes is checked as the API server checks it (admission/plugin/policy/validating/typechecking.go: the
 * kind, then cel-go's issue with its position), below the test files' own schemas. Skipped, saying so, where no
 * kube-apiserver has been built.
 */
class TestCommandKubeconfigTest {

    private static final String TEST = "TestCommandKubeconfigTest";

    static KubeApiServer cluster;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        if (KubeApiServer.missing().isPresent()) {
            return;
        }
        cluster = KubeApiServer.start(TEST, "test-crds").orElseThrow();
        cluster.apply("""
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: widgets.example.com}
                spec:
                  group: example.com
                  scope: Namespaced
                  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    schema:
                      openAPIV3Schema:
                        type: object
                        properties:
                          spec:
                            type: object
                            properties:
                              size: {type: integer}
                """);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.stop();
        }
    }

    private static void skipWithoutCluster() {
        Skip.unless(cluster != null, TEST, () -> KubeApiServer.missing().orElse("no kube-apiserver"));
    }

    private static CapturedCommand.Output run(String... args) {
        TestCommand command = new TestCommand(() -> {
            throw new AssertionError("the in-process bundle was asked for");
        }, () -> Map.of("crd-conversion", new DatabaseConversion()), key -> "");
        return CapturedCommand.run(command, args);
    }

    private Path write(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }

    /** A policy on widgets whose first expression misspells a field and whose second compares it with a string. */
    private Path widgetPolicyTest() throws Exception {
        write("widgets.yaml", """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: widgets.example.com}
                spec:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [widgets]}
                  validations:
                  - expression: "object.spec.sizee <= 10"
                  - expression: "object.spec.size > 'big'"
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: widgets-binding.example.com}
                spec: {policyName: widgets.example.com, validationActions: [Deny]}
                """);
        return write("widgets-test.yaml", """
                functions: [cel-policy]
                policies:
                  cel-policy: [widgets.yaml]
                cases:
                - name: a pod
                  object: {apiVersion: v1, kind: Pod, metadata: {name: p, namespace: shop},
                           spec: {containers: [{name: p, image: i}]}}
                  expect: {allowed: true}
                """);
    }

    @Test
    void theClustersCrdsAreSchemasForTypeChecking() throws Exception {
        skipWithoutCluster();
        Path file = widgetPolicyTest();
        String source = "ValidatingAdmissionPolicy 'widgets.example.com' (" + dir.resolve("widgets.yaml") + "#1)";
        String misspelt = "  warning: " + source + ": spec.validations[0].expression: example.com/v1, Kind=Widget: "
                + "ERROR: <input>:1:12: undefined field 'sizee'\n";
        String wrongType = "  warning: " + source + ": spec.validations[1].expression: example.com/v1, Kind=Widget: "
                + "ERROR: <input>:1:18: found no matching overload for '_>_' applied to '(int, string)'\n";

        CapturedCommand.Output with = run("--kubeconfig", cluster.kubeconfig().toString(), file.toString());
        assertEquals(0, with.exit(), "warnings do not fail the run: " + with.stdout() + with.stderr());
        assertTrue(with.stdout().contains(misspelt), with.stdout());
        assertTrue(with.stdout().contains(wrongType), with.stdout());

        // Without the cluster no schema describes Widget: not checked against one, as upstream.
        CapturedCommand.Output without = run(file.toString());
        assertEquals(0, without.exit(), without.stdout() + without.stderr());
        assertFalse(without.stdout().contains("Kind=Widget"), without.stdout());
        assertTrue(without.stdout().startsWith("FILE "), "no type check findings:\n" + without.stdout());
    }

    @Test
    void aCrdInTheTestFilesSchemasWinsOverTheClusters() throws Exception {
        skipWithoutCluster();
        Path file = widgetPolicyTest();
        // The same kind, with sizee and no size: the file's schema is the one checked against.
        write("crd.yaml", """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: widgets.example.com}
                spec:
                  group: example.com
                  scope: Namespaced
                  names: {plural: widgets, singular: widget, kind: Widget}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    schema:
                      openAPIV3Schema:
                        type: object
                        properties:
                          spec: {type: object, properties: {sizee: {type: integer}}}
                """);
        Files.writeString(file, Files.readString(file).replace("cases:\n", "schemas: [crd.yaml]\ncases:\n"));
        CapturedCommand.Output out = run("--kubeconfig", cluster.kubeconfig().toString(), file.toString());
        assertEquals(0, out.exit(), out.stdout() + out.stderr());
        assertFalse(out.stdout().contains("undefined field 'sizee'"), out.stdout());
        assertTrue(out.stdout().contains("spec.validations[1].expression: example.com/v1, Kind=Widget: ERROR: "
                + "<input>:1:12: undefined field 'size'\n"), out.stdout());
    }

    @Test
    void theClustersCustomKindsMayBeTheObjectsOfCases() throws Exception {
        skipWithoutCluster();
        widgetPolicyTest();
        Path file = write("widget-case.yaml", """
                functions: [cel-policy]
                policies:
                  cel-policy: [widgets.yaml]
                cases:
                - name: a widget
                  object: {apiVersion: example.com/v1, kind: Widget, metadata: {name: w, namespace: shop},
                           spec: {size: 3}}
                  expect: {allowed: true}
                """);
        CapturedCommand.Output with = run("--kubeconfig", cluster.kubeconfig().toString(), file.toString());
        assertEquals(0, with.exit(), with.stdout() + with.stderr());
        assertTrue(with.stdout().endsWith("1 case: 1 passed, 0 failed\n"), with.stdout());

        CapturedCommand.Output without = run(file.toString());
        assertEquals(2, without.exit(), without.stdout() + without.stderr());
        assertTrue(without.stderr().contains("case 'a widget': object:") && without.stderr().contains(
                "give its CRD in schemas"), without.stderr());
    }

    @Test
    void aContextTheKubeconfigDoesNotHaveIsBadInput() throws Exception {
        skipWithoutCluster();
        Path file = widgetPolicyTest();
        CapturedCommand.Output out = run("--kubeconfig", cluster.kubeconfig().toString(), "--context", "nope",
                file.toString());
        assertEquals(2, out.exit(), out.stdout() + out.stderr());
        assertEquals("tollgate test: --context nope: no such context in the kubeconfig\n", out.stderr());
        assertEquals("", out.stdout());
    }
}
