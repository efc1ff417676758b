package dev.tollgate.cel.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.tollgate.admission.GroupVersionKind;
import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.admission.PolicyTypeChecker.Finding;
import dev.tollgate.cel.admission.PolicyTypeChecker.Severity;

/**
 * Mistyped policies, each caught before any request with the API server's wording: errors where the API server
 * refuses the policy (admission/plugin/cel/compile.go through pkg/apis/admissionregistration/validation), warnings
 * where its type checking only warns (admission/plugin/policy/validating/typechecking.go against
 * common.SchemaDeclType of the matched kind's schema).
 */
class PolicyTypeCheckerTest {

    /** The CronTab CustomResourceDefinition of the Kubernetes documentation ("Extend the Kubernetes API ..."). */
    static final String CRD = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata: {name: crontabs.stable.example.com}
            spec:
              group: stable.example.com
              scope: Namespaced
              names: {plural: crontabs, singular: crontab, kind: CronTab}
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
                          cronSpec: {type: string}
                          image: {type: string}
                          replicas: {type: integer}
                          port: {x-kubernetes-int-or-string: true}
                          schedule: {type: string, format: date-time}
            """;

    static PolicyTypeChecker checker() {
        return new PolicyTypeChecker(KubeCel.standard(),
                new OpenApiSchemas().add(ConfigFiles.parse(CRD, "crd.yaml")));
    }

    static List<Finding> check(String validations, String extraSpec) {
        String policy = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: crontab-policy}
                spec:
                  matchConstraints:
                    resourceRules:
                    - apiGroups: [stable.example.com]
                      apiVersions: [v1]
                      operations: [CREATE, UPDATE]
                      resources: [crontabs]
                %s
                  validations:
                %s
                """.formatted(extraSpec, validations);
        return checker().check(ConfigFiles.parse(policy, "policy.yaml"));
    }

    static Finding only(List<Finding> findings) {
        assertEquals(1, findings.size(), findings.toString());
        return findings.get(0);
    }

    @Test
    void aCorrectPolicyHasNoFindings() {
        assertEquals(List.of(), check("""
                  - expression: "object.spec.replicas <= 5 && object.spec.image.startsWith('registry.example.com/')"
                    messageExpression: "'too many replicas: ' + string(object.spec.replicas)"
                  - expression: "object.metadata.name.size() < 64 && has(object.metadata.labels)"
                  - expression: "type(object.spec.port) == int || object.spec.port.endsWith('%')"
                  - expression: "object.spec.schedule > timestamp('2020-01-01T00:00:00Z')"
                """, ""));
    }

    /** A misspelled field: cel-go checker/errors.go undefinedField, reported per kind by typechecking.go. */
    @Test
    void misspelledFieldIsAWarning() {
        Finding f = only(check("""
                  - expression: "object.spec.replcas <= 5"
                """, ""));
        assertEquals(Severity.WARNING, f.severity());
        assertEquals("spec.validations[0].expression", f.fieldRef());
        assertEquals("stable.example.com/v1, Kind=CronTab: ERROR: <input>:1:12: undefined field 'replcas'\n"
                + " | object.spec.replcas <= 5\n | ...........^\n", f.message());
    }

    /** Wrong operand types: cel-go checker/errors.go noMatchingOverload, the schema's int against a string. */
    @Test
    void wrongTypesAreAWarning() {
        Finding f = only(check("""
                  - expression: "object.spec.replicas > '3'"
                """, ""));
        assertEquals(Severity.WARNING, f.severity());
        assertEquals("stable.example.com/v1, Kind=CronTab: ERROR: <input>:1:22: found no matching overload for"
                + " '_>_' applied to '(int, string)'\n | object.spec.replicas > '3'\n | .....................^\n",
                f.message());
    }

    /** A variable has its expression's type (admission/plugin/cel/composition.go), also when typed from the schema. */
    @Test
    void variablesAreTyped() {
        Finding f = only(check("""
                  - expression: "variables.replicas == 'three'"
                """, """
                  variables:
                  - name: replicas
                    expression: "object.spec.replicas"
                """));
        assertEquals(Severity.WARNING, f.severity());
        assertTrue(f.message().contains("found no matching overload for '_==_' applied to '(int, string)'"),
                f.message());
    }

    /** compile.go: the result must be exactly bool; a dyn one is refused when the policy is created. */
    @Test
    void wrongResultTypeIsAnError() {
        Finding f = only(check("""
                  - expression: "object.spec.replicas"
                  - expression: "true"
                    messageExpression: "object.spec.replicas > 1"
                """, "").subList(0, 1));
        assertEquals(Severity.ERROR, f.severity());
        assertEquals("Invalid value: \"object.spec.replicas\": must evaluate to bool but got dyn", f.message());
        Finding message = check("""
                  - expression: "true"
                    messageExpression: "object.spec.replicas > 1"
                """, "").get(0);
        assertEquals("spec.validations[0].messageExpression", message.fieldRef());
        assertEquals("Invalid value: \"object.spec.replicas > 1\": must evaluate to string but got bool",
                message.message());
    }

    /**
     * An unknown function is a compile error (cel-go checker/errors.go undeclaredReference, at the call's opening
     * parenthesis as cel-go's parser places a member call): refused.
     */
    @Test
    void unknownFunctionIsAnError() {
        Finding f = only(check("""
                  - expression: "object.spec.image.startsWth('registry.example.com/')"
                """, ""));
        assertEquals(Severity.ERROR, f.severity());
        assertEquals("Invalid value: \"object.spec.image.startsWth('registry.example.com/')\": compilation failed:"
                + " ERROR: <input>:1:28: undeclared reference to 'startsWth' (in container '')\n"
                + " | object.spec.image.startsWth('registry.example.com/')\n"
                + " | ...........................^", f.message());
    }

    /**
     * Without a paramKind the API server declares no {@code params} (admission/plugin/cel/compile.go
     * createEnvForOpts, HasParams: paramKind != nil in pkg/apis/admissionregistration/validation): every expression
     * using it is refused with cel-go's undeclaredReference, at the identifier; a comprehension variable of that
     * name is not {@code params}.
     */
    @Test
    void paramsWithoutParamKindIsAnError() {
        List<Finding> findings = check("""
                  - expression: "params.data.max == '1'"
                  - expression: "true"
                    messageExpression: "'at most ' + params.data.max"
                  - expression: "[1, 2].all(params, params > 0)"
                """, """
                  variables:
                  - name: max
                    expression: "int(params.data.max)"
                """);
        assertEquals(3, findings.size(), findings.toString());
        assertTrue(findings.stream().allMatch(f -> f.severity() == Severity.ERROR), findings.toString());
        assertEquals("spec.variables[0].expression", findings.get(0).fieldRef());
        assertEquals("Invalid value: \"int(params.data.max)\": compilation failed: ERROR: <input>:1:5: undeclared "
                + "reference to 'params' (in container '')\n | int(params.data.max)\n | ....^",
                findings.get(0).message());
        assertEquals("spec.validations[0].expression", findings.get(1).fieldRef());
        assertEquals("Invalid value: \"params.data.max == '1'\": compilation failed: ERROR: <input>:1:1: undeclared "
                + "reference to 'params' (in container '')\n | params.data.max == '1'\n | ^",
                findings.get(1).message());
        assertEquals("spec.validations[1].messageExpression", findings.get(2).fieldRef());
        assertTrue(findings.get(2).message().contains("ERROR: <input>:1:14: undeclared reference to 'params' (in "
                + "container '')"), findings.get(2).message());

        // The same expressions with a paramKind compile (params is dyn: its kind has no schema here).
        assertEquals(List.of(), check("""
                  - expression: "params.data.max == '1'"
                  - expression: "true"
                    messageExpression: "'at most ' + params.data.max"
                """, """
                  paramKind: {apiVersion: v1, kind: ConfigMap}
                  variables:
                  - name: max
                    expression: "int(params.data.max)"
                """));
    }

    /** matchConditions, auditAnnotations and variables are checked too, each named by its field. */
    @Test
    void everyExpressionIsChecked() {
        List<Finding> findings = check("""
                  - expression: "true"
                  auditAnnotations:
                  - key: image
                    valueExpression: "'image: ' + object.spec.imge"
                """, """
                  matchConditions:
                  - name: small
                    expression: "object.spec.replicas < '10'"
                  variables:
                  - name: cron
                    expression: "object.spec.cronSpc"
                """);
        assertEquals(List.of("spec.variables[0].expression", "spec.matchConditions[0].expression",
                "spec.auditAnnotations[0].valueExpression"), findings.stream().map(Finding::fieldRef).toList(),
                findings.toString());
        findings.forEach(f -> assertEquals(Severity.WARNING, f.severity(), f.toString()));
    }

    /** typechecking.go typesToCheck: a wildcard group or version leaves nothing to check. */
    @Test
    void wildcardRulesAreNotTypeChecked() {
        String policy = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: any}
                spec:
                  matchConstraints:
                    resourceRules:
                    - apiGroups: ["*"]
                      apiVersions: [v1]
                      operations: [CREATE]
                      resources: [crontabs]
                  validations:
                  - expression: "object.spec.replcas <= 5"
                """;
        assertEquals(List.of(), checker().check(ConfigFiles.parse(policy, "p.yaml")));
    }

    /** The real upstream OpenAPI v3 document of admissionregistration.k8s.io/v1 ($ref, allOf, ObjectMeta). */
    @Test
    void upstreamOpenApiDocument() throws Exception {
        String dir = System.getProperty("tollgate.fixtures.dir");
        Path doc = dir == null ? null : Path.of(dir, "schemas", "k8s-admissionregistration-v1-openapi.json");
        String missing = doc == null ? "tollgate.fixtures.dir is not set"
                : Files.isRegularFile(doc) ? null : "fixture " + doc.toAbsolutePath().normalize() + " is absent";
        if (missing != null) {
            System.out.println("SKIPPED PolicyTypeCheckerTest.upstreamOpenApiDocument: " + missing);
        }
        assumeTrue(missing == null, missing);
        OpenApiSchemas schemas = new OpenApiSchemas()
                .add(new com.fasterxml.jackson.databind.ObjectMapper().readTree(doc.toFile()))
                .resource("validatingadmissionpolicies", GroupVersionKind.of("admissionregistration.k8s.io", "v1",
                        "ValidatingAdmissionPolicy"));
        String policy = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: policies-have-validations}
                spec:
                  matchConstraints:
                    resourceRules:
                    - apiGroups: [admissionregistration.k8s.io]
                      apiVersions: [v1]
                      operations: [CREATE]
                      resources: [validatingadmissionpolicies]
                  validations:
                  - expression: "object.spec.validations.all(v, v.expression.size() < 1000)"
                  - expression: "object.metadata.labels.all(k, k.startsWith('x')) && object.spec.failurePolicy != 'Ignore'"
                  - expression: "object.spec.validatons.size() > 0"
                  - expression: "object.spec.failurePolicy == 1"
                """;
        List<Finding> findings = new PolicyTypeChecker(KubeCel.standard(), schemas)
                .check(ConfigFiles.parse(policy, "p.yaml"));
        assertEquals(List.of("spec.validations[2].expression", "spec.validations[3].expression"),
                findings.stream().map(Finding::fieldRef).toList(), findings.toString());
        assertTrue(findings.get(0).message().startsWith("admissionregistration.k8s.io/v1,"
                + " Kind=ValidatingAdmissionPolicy: ERROR: <input>:1:12: undefined field 'validatons'"),
                findings.get(0).message());
        assertTrue(findings.get(1).message().contains("found no matching overload for '_==_' applied to"
                + " '(string, int)'"), findings.get(1).message());
    }
}
