package dev.tollgate.functions.celpolicy;

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
 * The startup check ({@link CelPolicy#load}): mistyped policies on Pods, each caught before any request in the API
 * server's words. Errors (the API server refuses the policy: k8s.io/apiserver admission/plugin/cel/compile.go, its
 * field error through pkg/apis/admissionregistration/validation) stop the function with one line naming the file,
 * the policy and the field; warnings (admission/plugin/policy/validating/typechecking.go against the Pod's schema,
 * with cel-go's checker/errors.go messages) are returned to be logged, and the policy is served.
 */
class StartupTypeCheckTest {

    @TempDir
    Path dir;

    /** A policy on CREATE of v1 pods with a binding; {@code spec} is the rest of its spec. */
    private List<String> write(String spec) throws Exception {
        Files.writeString(dir.resolve("pods.yaml"), """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: pods.example.com}
                spec:
                  failurePolicy: Fail
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
                %s
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: pods-binding.example.com}
                spec: {policyName: pods.example.com, validationActions: [Deny]}
                """.formatted(spec));
        return List.of(dir.toString());
    }

    private String source() {
        return "ValidatingAdmissionPolicy 'pods.example.com' (" + dir.resolve("pods.yaml") + "#1)";
    }

    private List<String> warnings(String spec) throws Exception {
        List<String> config = write(spec);
        ValidatingPolicies loaded = CelPolicy.load(config, "none", key -> Optional.empty()).policies();
        return CelPolicy.typeCheck(CelPolicy.environment("none"), ConfigFiles.read(List.of(dir)), loaded);
    }

    private String refused(String spec) throws Exception {
        List<String> config = write(spec);
        return assertThrows(IllegalArgumentException.class, () -> CelPolicy.load(config, "none",
                key -> Optional.empty())).getMessage();
    }

    @Test
    void theShippedExamplesStartClean() {
        var documents = ConfigFiles.read(List.of(Path.of("examples")));
        ValidatingPolicies loaded = CelPolicy.load(List.of("examples"), "none", key -> Optional.empty()).policies();
        assertEquals(List.of(), CelPolicy.typeCheck(CelPolicy.environment("none"), documents, loaded));
        assertFalse(loaded.summary().isEmpty());
    }

    /** cel-go checker/errors.go undefinedField: the Pod has no spec.containres. */
    @Test
    void aMisspelledFieldIsAWarning() throws Exception {
        assertEquals(List.of(source() + ": spec.validations[0].expression: /v1, Kind=Pod: ERROR: <input>:1:12: "
                + "undefined field 'containres'"), warnings("""
                  validations:
                  - expression: "object.spec.containres.all(c, c.image != '')"
                """));
    }

    /** cel-go checker/errors.go noMatchingOverload: spec.priority is an int32 (integer) in the Pod's schema. */
    @Test
    void aWrongTypeComparisonIsAWarning() throws Exception {
        assertEquals(List.of(source() + ": spec.validations[0].expression: /v1, Kind=Pod: ERROR: <input>:1:22: "
                + "found no matching overload for '_>_' applied to '(int, string)'"), warnings("""
                  validations:
                  - expression: "object.spec.priority > '1000'"
                """));
    }

    /** messageExpression, variables and matchConditions are checked against the Pod too, each named by its field. */
    @Test
    void misspelledFieldsInEveryKindOfExpression() throws Exception {
        assertEquals(List.of(
                source() + ": spec.variables[0].expression: /v1, Kind=Pod: ERROR: <input>:1:12: undefined field "
                        + "'imagePullSecret'",
                source() + ": spec.matchConditions[0].expression: /v1, Kind=Pod: ERROR: <input>:1:5: undefined "
                        + "field 'nodeNme'",
                source() + ": spec.validations[0].messageExpression: /v1, Kind=Pod: ERROR: <input>:1:33: undefined "
                        + "field 'nam'"),
                warnings("""
                  variables:
                  - name: secrets
                    expression: "object.spec.imagePullSecret"
                  matchConditions:
                  - name: unscheduled
                    expression: "!has(object.spec.nodeNme)"
                  validations:
                  - expression: "object.spec.containers.size() < 10"
                    messageExpression: "'too many in ' + object.metadata.nam"
                """));
    }

    /** compile.go: the API server refuses a validation whose result is not a bool. */
    @Test
    void aResultThatIsNotABoolStopsStartup() throws Exception {
        assertEquals("cel-policy: the API server would refuse this configuration: " + source()
                + ": spec.validations[0].expression: Invalid value: \"'no containers'\": must evaluate to bool but got "
                + "string", refused("""
                  validations:
                  - expression: "'no containers'"
                """));
    }

    /**
     * A policy without paramKind has no params (pkg/apis/admissionregistration/validation compiles with HasParams:
     * paramKind != nil): cel-go's undeclaredReference, refused.
     */
    @Test
    void paramsWithoutParamKindStopsStartup() throws Exception {
        assertEquals("cel-policy: the API server would refuse this configuration: " + source()
                + ": spec.validations[0].expression: Invalid value: \"params == null\": compilation failed: ERROR: "
                + "<input>:1:1: undeclared reference to 'params' (in container '')", refused("""
                  validations:
                  - expression: "params == null"
                """));
    }

    /** cel-go checker/errors.go undeclaredReference: an unknown function is a compile error, refused. */
    @Test
    void anUnknownFunctionStopsStartup() throws Exception {
        String message = refused("""
                  validations:
                  - expression: "object.spec.containers.all(c, c.image.startsWth('registry.example.com/'))"
                """);
        assertEquals("cel-policy: the API server would refuse this configuration: " + source()
                + ": spec.validations[0].expression: Invalid value: \"object.spec.containers.all(c, "
                + "c.image.startsWth('registry.example.com/'))\": compilation failed: ERROR: <input>:1:48: "
                + "undeclared reference to 'startsWth' (in container '')", message);
        assertFalse(message.contains("\n"), "one line");
    }
}
