package dev.tollgate.cel.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Sorting a function's documents into policies, bindings, namespaces and params, with the API server's checks. */
class PolicyConfigTest {

    @Test
    void theReplicaLimitConfigurationLoads() {
        PolicyConfig<PolicySpec, BindingSpec> config = Configs.load(Configs.REPLICA_LIMIT, Namespaces.Unknown.ERROR);
        assertEquals("1 policies, 2 bindings, 2 params; namespaces: 3 from the configuration files, others not found "
                + "(unknown-namespace=error)", config.summary("policies"));
        PolicySpec policy = config.policies().get(0);
        assertEquals("replicalimit-policy.example.com", policy.name());
        assertEquals(new Params.Kind("rules.example.com/v1", "ReplicaLimit"), policy.paramKind());
        assertEquals(PolicySpec.FailurePolicy.Fail, policy.failurePolicy());
        assertEquals(List.of("replicalimit-binding-test.example.com", "replicalimit-binding-prod.example.com"),
                Configs.names(config.bindings()));
        assertEquals(List.of(), config.warnings());
    }

    @Test
    void everyProblemIsListedOnce() {
        InvalidConfig e = invalid("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: Bad_Name}
                spec:
                  failurePolicy: Sometimes
                  matchConstraints: {resourceRules: [{apiGroups: [''], apiVersions: [v1], operations: [CREATE], resources: [pods]}]}
                  variables: [{name: 'not-an-identifier', expression: '1'}]
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: b}
                spec:
                  policyName: x
                  paramRef: {name: p, selector: {}, parameterNotFoundAction: Allow}
                ---
                {apiVersion: admissionregistration.k8s.io/v1, kind: ValidatingAdmissionPolicyBindin, metadata: {name: typo}}
                """);
        assertTrue(e.has("ValidatingAdmissionPolicy 'Bad_Name' (test.yaml#1): metadata.name 'Bad_Name' must be a"
                + " lowercase DNS subdomain"), e.message);
        assertTrue(e.has("spec.failurePolicy must be Fail or Ignore, got 'Sometimes'"), e.message);
        assertTrue(e.has("spec.variables[0].name: 'not-an-identifier' must be a CEL identifier"), e.message);
        assertTrue(e.has("ValidatingAdmissionPolicyBinding 'b' (test.yaml#2): spec.paramRef: exactly one of name or"
                + " selector must be set"), e.message);
        assertTrue(e.has("ValidatingAdmissionPolicyBindin 'typo' (test.yaml#3): apiVersion"
                + " admissionregistration.k8s.io/v1 kind ValidatingAdmissionPolicyBindin is not used"), e.message);
    }

    @Test
    void matchConditionsAreLimitedTo64WithQualifiedNames() {
        StringBuilder conditions = new StringBuilder();
        for (int i = 0; i < 65; i++) {
            conditions.append("  - {name: c").append(i).append(", expression: 'true'}\n");
        }
        InvalidConfig e = invalid("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: p}
                spec:
                  matchConstraints: {resourceRules: [{apiGroups: [''], apiVersions: [v1], operations: [CREATE], resources: [pods]}]}
                  matchConditions:
                """ + conditions + "  - {name: 'no spaces allowed', expression: 'true'}\n");
        assertTrue(e.has("at most 64 match conditions are allowed, got 66"), e.message);
        assertTrue(e.has("spec.matchConditions[65].name: 'no spaces allowed' must be a qualified name"), e.message);
    }

    @Test
    void aBindingWithoutPolicyAndAPolicyWithoutBindingAreWarnings() {
        PolicyConfig<PolicySpec, BindingSpec> config = Configs.load("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: lonely}
                spec:
                  matchConstraints: {resourceRules: [{apiGroups: [''], apiVersions: [v1], operations: [CREATE], resources: [pods]}]}
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: orphan}
                spec: {policyName: missing}
                """, Namespaces.Unknown.ERROR);
        assertEquals(List.of("ValidatingAdmissionPolicyBinding 'orphan' refers to ValidatingAdmissionPolicy 'missing',"
                + " which is not configured: the binding has no effect",
                "ValidatingAdmissionPolicy 'lonely' has no binding: it is not enforced"), config.warnings());
    }

    private record InvalidConfig(String message) {
        boolean has(String part) {
            return message.contains(part);
        }
    }

    private static InvalidConfig invalid(String yaml) {
        PolicyConfig.InvalidConfigException e = assertThrows(PolicyConfig.InvalidConfigException.class,
                () -> Configs.load(yaml, Namespaces.Unknown.ERROR));
        assertTrue(e.getMessage().startsWith("invalid policy configuration:\n  - "), e.getMessage());
        return new InvalidConfig(e.getMessage());
    }
}
