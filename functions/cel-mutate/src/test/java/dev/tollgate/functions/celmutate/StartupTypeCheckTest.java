package dev.tollgate.functions.celmutate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.tollgate.cel.admission.ConfigFiles;

/**
 * The startup check ({@link CelMutate#load}): mistyped MutatingAdmissionPolicies on Pods caught before any request.
 * Warnings in the words of cel-go's checker (checker/errors.go undefinedField, noMatchingOverload) per matched kind
 * as admission/plugin/policy/validating/typechecking.go reports them; refusals as the API server's field error
 * (admission/plugin/cel/compile.go) stop the function with one line naming the file, the policy and the field.
 */
class StartupTypeCheckTest {

    @TempDir
    Path dir;

    private List<String> write(String spec) throws Exception {
        Files.writeString(dir.resolve("mutate.yaml"), """
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingAdmissionPolicy
                metadata: {name: pods.example.com}
                spec:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
                %s
                ---
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingAdmissionPolicyBinding
                metadata: {name: pods-binding.example.com}
                spec: {policyName: pods.example.com}
                """.formatted(spec));
        return List.of(dir.toString());
    }

    private String source() {
        return "MutatingAdmissionPolicy 'pods.example.com' (" + dir.resolve("mutate.yaml") + "#1)";
    }

    private List<String> warnings(String spec) throws Exception {
        MutatingPolicies loaded = CelMutate.load(write(spec), "none", key -> Optional.empty());
        return CelMutate.typeCheck(CelMutate.environment("none"), ConfigFiles.read(List.of(dir)), loaded);
    }

    @Test
    void theShippedExamplesStartClean() {
        var documents = ConfigFiles.read(List.of(Path.of("examples")));
        MutatingPolicies loaded = CelMutate.load(List.of("examples"), "none", key -> Optional.empty());
        assertEquals(List.of(), CelMutate.typeCheck(CelMutate.environment("none"), documents, loaded));
    }

    /** A misspelled field in a mutation, a variable (a wrong type) and a matchCondition, each at its position. */
    @Test
    void misspelledFieldsAndWrongTypesAreWarnings() throws Exception {
        assertEquals(List.of(
                source() + ": spec.variables[0].expression: /v1, Kind=Pod: ERROR: <input>:1:43: found no matching "
                        + "overload for '_+_' applied to '(int, string)'",
                source() + ": spec.matchConditions[0].expression: /v1, Kind=Pod: ERROR: <input>:1:4: undefined "
                        + "field 'serviceAcountName'",
                source() + ": spec.mutations[0].applyConfiguration.expression: /v1, Kind=Pod: ERROR: <input>:1:66: "
                        + "undefined field 'namespce'"),
                warnings("""
                  variables:
                  - name: grace
                    expression: "object.spec.terminationGracePeriodSeconds + 's'"
                  matchConditions:
                  - name: has-account
                    expression: "has(object.spec.serviceAcountName)"
                  mutations:
                  - patchType: ApplyConfiguration
                    applyConfiguration:
                      expression: "Object{metadata: Object.metadata{labels: {'team': object.metadata.namespce}}}"
                """));
    }

    /** A JSONPatch field that does not exist: the API server refuses the policy; the function does not start. */
    @Test
    void anUnknownJsonPatchFieldStopsStartup() throws Exception {
        List<String> config = write("""
                  mutations:
                  - patchType: JSONPatch
                    jsonPatch: {expression: '[JSONPatch{op: "add", path: "/metadata/labels", valu: {}}]'}
                """);
        String message = assertThrows(IllegalArgumentException.class, () -> CelMutate.load(config, "none",
                key -> Optional.empty())).getMessage();
        assertEquals("cel-mutate: the API server would refuse this configuration: " + source()
                + ": spec.mutations[0].jsonPatch.expression: Invalid value: \"[JSONPatch{op: \\\"add\\\", path: "
                + "\\\"/metadata/labels\\\", valu: {}}]\": compilation failed: JSONPatch has no field 'valu' (op, "
                + "path, from, value)", message);
        assertFalse(message.contains("\n"), "one line");
    }

    /** An unknown function in a mutation (cel-go undeclaredReference): refused, at its position as written. */
    @Test
    void anUnknownFunctionInAMutationStopsStartup() throws Exception {
        List<String> config = write("""
                  mutations:
                  - patchType: ApplyConfiguration
                    applyConfiguration:
                      expression: "Object{metadata: Object.metadata{labels: {'team': object.metadata.name.lowercase()}}}"
                """);
        String message = assertThrows(IllegalArgumentException.class, () -> CelMutate.load(config, "none",
                key -> Optional.empty())).getMessage();
        assertEquals("cel-mutate: the API server would refuse this configuration: " + source()
                + ": spec.mutations[0].applyConfiguration.expression: Invalid value: \"Object{metadata: "
                + "Object.metadata{labels: {'team': object.metadata.name.lowercase()}}}\": compilation failed: "
                + "ERROR: <input>:1:81: undeclared reference to 'lowercase' (in container '')", message);
    }
}
