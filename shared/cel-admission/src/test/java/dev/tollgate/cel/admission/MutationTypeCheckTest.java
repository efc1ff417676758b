package dev.tollgate.cel.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.admission.PolicyTypeChecker.Finding;
import dev.tollgate.cel.admission.PolicyTypeChecker.Severity;

/**
 * A MutatingAdmissionPolicy's mutations are type-checked with their {@code Object{...}} and {@code JSONPatch{...}}
 * literals ({@link StructLiterals}), each problem at its position in the expression as written (cel-go's
 * {@code ERROR: <input>:line:column:} and excerpt, common/errors.go), against the Pod's schema.
 */
class MutationTypeCheckTest {

    static List<Finding> check(String mutations) {
        String yaml = """
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingAdmissionPolicy
                metadata: {name: pods.example.com}
                spec:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
                  mutations:
                %s""".formatted(mutations);
        List<ConfigFiles.Document> docs = ConfigFiles.parse(yaml, "mutate.yaml");
        return new PolicyTypeChecker(KubeCel.standard(), KubernetesSchemas.with(docs)).check(docs);
    }

    /** undefinedField inside an ApplyConfiguration's nested Object literals, at its column as written. */
    @Test
    void aMisspelledFieldInAnApplyConfiguration() {
        List<Finding> findings = check("""
                  - patchType: ApplyConfiguration
                    applyConfiguration:
                      expression: "Object{metadata: Object.metadata{labels: {'team': object.metadata.namespce}}}"
                """);
        assertEquals(1, findings.size(), findings::toString);
        assertEquals(Severity.WARNING, findings.get(0).severity());
        assertEquals("spec.mutations[0].applyConfiguration.expression", findings.get(0).fieldRef());
        assertEquals("/v1, Kind=Pod: ERROR: <input>:1:66: undefined field 'namespce'\n"
                + " | Object{metadata: Object.metadata{labels: {'team': object.metadata.namespce}}}\n"
                + " | " + ".".repeat(65) + "^\n",
                findings.get(0).message());
    }

    /** The same in a JSONPatch's value on the second line of a multi-line expression. */
    @Test
    void aMisspelledFieldInAJsonPatchOnItsLine() {
        List<Finding> findings = check("""
                  - patchType: JSONPatch
                    jsonPatch:
                      expression: |-
                        [JSONPatch{op: "add", path: "/metadata/labels/team",
                                   value: object.spec.serviceAcount}]
                """);
        assertEquals(1, findings.size(), findings::toString);
        assertEquals("/v1, Kind=Pod: ERROR: <input>:2:30: undefined field 'serviceAcount'\n"
                + " |            value: object.spec.serviceAcount}]\n"
                + " | " + ".".repeat(29) + "^\n", findings.get(0).message());
    }

    /**
     * A MutatingAdmissionPolicy without paramKind has no {@code params} either (its validation and
     * admission/plugin/policy/mutating/compilation.go compile with HasParams: paramKind != nil): refused, at the
     * identifier as written inside the JSONPatch literal.
     */
    @Test
    void paramsWithoutParamKindIsAnError() {
        String expression = "[JSONPatch{op: \"add\", path: \"/metadata/labels/team\", value: params.data.team}]";
        List<Finding> findings = check("""
                  - patchType: JSONPatch
                    jsonPatch: {expression: '%s'}
                """.formatted(expression));
        assertEquals(1, findings.size(), findings::toString);
        assertEquals(Severity.ERROR, findings.get(0).severity());
        assertEquals("spec.mutations[0].jsonPatch.expression", findings.get(0).fieldRef());
        String at = "ERROR: <input>:1:" + (expression.indexOf("params") + 1) + ": undeclared reference to 'params' "
                + "(in container '')";
        assertEquals(true, findings.get(0).message().contains(at), findings.get(0).message());
    }

    /** A JSONPatch field that does not exist is refused, as the API server's JSONPatch type has only four. */
    @Test
    void anUnknownJsonPatchFieldIsAnError() {
        Finding f = check("""
                  - patchType: JSONPatch
                    jsonPatch: {expression: '[JSONPatch{op: "add", path: "/x", valu: 1}]'}
                """).get(0);
        assertEquals(Severity.ERROR, f.severity());
        assertEquals("Invalid value: \"[JSONPatch{op: \\\"add\\\", path: \\\"/x\\\", valu: 1}]\": compilation "
                + "failed: JSONPatch has no field 'valu' (op, path, from, value)", f.message());
    }

    /** The Kubernetes documentation's sidecar, correct: nothing to report. */
    @Test
    void theDocumentationsSidecarHasNoFindings() {
        assertEquals(List.of(), check("""
                  - patchType: ApplyConfiguration
                    applyConfiguration:
                      expression: >
                        Object{
                          spec: Object.spec{
                            initContainers: [
                              Object.spec.initContainers{
                                name: "mesh-proxy",
                                image: "mesh/proxy:v1.0.0",
                                args: ["proxy", "sidecar"],
                                restartPolicy: "Always"
                              }
                            ]
                          }
                        }
                """));
    }

    @Test
    void rewrittenPositionsMapBack() throws Exception {
        StructLiterals.Rewritten r = StructLiterals.rewrite("Object.spec{replicas: x, ?paused: y}");
        assertEquals("           {\"replicas\": dyn(x), ?\"paused\": dyn(y)}", r.text());
        int x = r.text().indexOf('x');
        assertEquals(22, r.origin()[x]);
        assertEquals("ERROR: <input>:1:23: undeclared reference to 'x'\n | Object.spec{replicas: x, ?paused: y}\n"
                + " | ......................^", r.remap("ERROR: <input>:1:" + (x + 1) + ": undeclared reference to 'x'"
                + "\n | " + r.text() + "\n | " + ".".repeat(x) + "^"));
        assertThrows(StructLiterals.RewriteException.class, () -> StructLiterals.rewrite("Thing{a: 1}"));
        String map = "'a' in {'a': 1} && {\"Object{\": 1}.size() == 1";
        assertEquals(map, StructLiterals.rewrite(map).text());
    }
}
