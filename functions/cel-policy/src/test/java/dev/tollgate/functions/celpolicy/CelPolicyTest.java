package dev.tollgate.functions.celpolicy;

import static dev.tollgate.functions.celpolicy.Policies.deployment;
import static dev.tollgate.functions.celpolicy.Policies.deploymentPolicy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.Namespaces;
import dev.tollgate.cel.admission.PolicyConfig;
import dev.tollgate.cel.admission.RegistrationCoverage;
import dev.tollgate.testing.AdmissionTester;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.Pods;
import dev.tollgate.testing.ReviewBuilder;

/** The function's behaviour beyond the documentation tables: matching, params, configuration errors, examples. */
class CelPolicyTest {

    private static final String REPLICAS = deploymentPolicy("replicas.example.com", """
            validations:
            - expression: "object.spec.replicas <= 5"
            """, "[Deny]");

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void deniesWithTheApiServersWording(ReviewVersion version) {
        Policies.tester(REPLICAS + "---\n" + Policies.NAMESPACES).version(version)
                .create(deployment("default", 7, "nginx"))
                .assertDenied().withCode(422).withReason("Invalid")
                .withMessageContaining("ValidatingAdmissionPolicy 'replicas.example.com' with binding "
                        + "'replicas.example.com-binding' denied request: failed expression: object.spec.replicas <= 5");
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void allowsWhenEveryValidationHolds(ReviewVersion version) {
        Policies.tester(REPLICAS).version(version)
                .create(deployment("default", 3, "nginx"))
                .assertAllowed().assertNoWarnings();
    }

    @Test
    void unmatchedResourcesAreNotEvaluated() {
        Policies.tester(REPLICAS).create(Pods.minimal("web")).assertAllowed();
        // DELETE is not among the rule's operations, so a missing object does not matter.
        Policies.tester(REPLICAS).delete(deployment("default", 9)).assertAllowed();
    }

    @Test
    void excludeResourceRulesAndResourceNames() {
        String yaml = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: named.example.com}
                spec:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments],
                       resourceNames: [web, api]}
                    excludeResourceRules:
                    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments],
                       resourceNames: [api]}
                  validations: [{expression: "false", message: "caught"}]
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: named-binding}
                spec: {policyName: named.example.com, validationActions: [Deny]}
                """;
        AdmissionTester t = Policies.tester(yaml);
        t.create(deployment("default", 1)).assertDenied().withMessageContaining("caught");
        var api = deployment("default", 1);
        api.with("metadata").put("name", "api");
        t.create(api).assertAllowed();
        var other = deployment("default", 1);
        other.with("metadata").put("name", "other");
        t.create(other).assertAllowed();
    }

    @Test
    void objectSelectorMatchesNewOrOldObjectLabels() {
        String yaml = deploymentPolicy("selected.example.com", """
                validations: [{expression: "false", message: "selected"}]
                """, "[Deny]").replace("  matchConstraints:\n", """
                  matchConstraints:
                    objectSelector: {matchLabels: {guarded: "yes"}}
                """);
        AdmissionTester t = Policies.tester(yaml);
        t.create(deployment("default", 1)).assertAllowed();
        var guarded = Pods.withLabels(deployment("default", 1), "guarded", "yes");
        t.create(guarded).assertDenied().withMessageContaining("selected");
        // Removing the label in an update is still caught: the old object matches.
        t.update(deployment("default", 1), guarded).assertDenied();
    }

    @Test
    void bindingMatchResourcesNarrowThePolicy() {
        String yaml = REPLICAS.replace("validationActions: [Deny]", """
                validationActions: [Deny]
                  matchResources:
                    namespaceSelector: {matchLabels: {environment: prod}}""") + "---\n" + Policies.NAMESPACES;
        AdmissionTester t = Policies.tester(yaml);
        t.create(deployment("prod-ns", 9)).assertDenied();
        t.create(deployment("staging-ns", 9)).assertAllowed();
        t.create(deployment("default", 9)).assertAllowed();
    }

    @Test
    void unknownNamespaceFollowsFailurePolicyOrCountsAsEmpty() {
        String yaml = REPLICAS.replace("  matchConstraints:\n", """
                  matchConstraints:
                    namespaceSelector: {matchExpressions: [{key: environment, operator: NotIn, values: [dev]}]}
                """);
        Policies.tester(yaml).create(deployment("nowhere", 9))
                .assertDenied().withMessageContaining("ValidatingAdmissionPolicy 'replicas.example.com' denied "
                        + "request: failed to configure policy: namespaces \"nowhere\" not found (this function knows "
                        + "only the namespaces in its policy configuration files");
        Policies.tester(yaml.replace("  matchConstraints:\n", "  failurePolicy: Ignore\n  matchConstraints:\n"))
                .create(deployment("nowhere", 9)).assertAllowed();
        AdmissionTester.of(Policies.of(yaml, Namespaces.Unknown.EMPTY, "none")).create(deployment("nowhere", 9))
                .assertDenied().withMessageContaining("failed expression");
    }

    @Test
    void paramsBySelectorAreEachEvaluated() {
        String yaml = deploymentPolicy("limits.example.com", """
                paramKind: {apiVersion: v1, kind: ConfigMap}
                validations:
                - expression: "object.spec.replicas <= int(params.data.max)"
                  messageExpression: "'at most ' + params.data.max + ' replicas (' + params.metadata.name + ')'"
                """, "[Deny]").replace("validationActions: [Deny]", """
                validationActions: [Deny]
                  paramRef:
                    selector: {matchLabels: {kind: replica-limit}}
                    parameterNotFoundAction: Allow""") + """
                ---
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: a-limit, namespace: prod-ns, labels: {kind: replica-limit}}
                data: {max: "10"}
                ---
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: b-limit, namespace: prod-ns, labels: {kind: replica-limit}}
                data: {max: "4"}
                ---
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: unrelated, namespace: prod-ns}
                data: {max: "1"}
                """;
        AdmissionTester t = Policies.tester(yaml);
        t.create(deployment("prod-ns", 3)).assertAllowed();
        t.create(deployment("prod-ns", 6)).assertDenied().withMessageContaining("at most 4 replicas (b-limit)");
        // No params in that namespace, parameterNotFoundAction Allow: the binding does not apply.
        t.create(deployment("staging-ns", 60)).assertAllowed();
    }

    @Test
    void paramKindWithoutParamRefEvaluatesWithNullParams() {
        String yaml = deploymentPolicy("nullparams.example.com", """
                paramKind: {apiVersion: v1, kind: ConfigMap}
                validations: [{expression: "params == null", message: "params were set"}]
                """, "[Deny]");
        Policies.tester(yaml).create(deployment("default", 1)).assertAllowed();
    }

    /**
     * A policy without paramKind evaluates once with null params, whatever its binding's paramRef says: CollectParams
     * ignores the paramRef then (k8s.io/apiserver pkg/admission/plugin/policy/generic/policy_dispatcher.go, "ParamKind
     * is unset. Ignore any globalParamRef or namespaceParamRef setting."), so a missing param under Deny does not
     * fail the binding. The same binding of a policy with a paramKind does.
     */
    @Test
    void aBindingsParamRefIsIgnoredWithoutParamKind() {
        String binding = """
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: with-ref}
                spec:
                  policyName: %s
                  validationActions: [Deny]
                  paramRef: {name: missing, parameterNotFoundAction: Deny}
                """;
        String noKind = deploymentPolicy("nokind.example.com", """
                validations: [{expression: "object.spec.replicas <= 5", message: "evaluated without params"}]
                """, "[Audit]") + binding.formatted("nokind.example.com");
        AdmissionTester t = Policies.tester(noKind);
        t.create(deployment("default", 1)).assertAllowed();
        var denied = t.create(deployment("default", 9)).assertDenied();
        assertEquals("ValidatingAdmissionPolicy 'nokind.example.com' with binding 'with-ref' denied request: "
                + "evaluated without params", denied.message());

        String withKind = deploymentPolicy("kind.example.com", """
                paramKind: {apiVersion: v1, kind: ConfigMap}
                validations: [{expression: "object.spec.replicas <= 5"}]
                """, "[Audit]") + binding.formatted("kind.example.com") + """
                ---
                {apiVersion: v1, kind: ConfigMap, metadata: {name: other, namespace: default}, data: {}}
                """;
        Policies.tester(withKind).create(deployment("default", 1)).assertDenied().withMessageContaining(
                "no params found for policy binding with `Deny` parameterNotFoundAction");
    }

    /**
     * Without paramKind an expression cannot use {@code params} at all (the API server compiles it without the
     * variable: pkg/admission/plugin/policy/validating/plugin.go compilePolicy, HasParams: ParamKind != nil); here
     * the compile error is kept and the policy's failurePolicy decides each request.
     */
    @Test
    void paramsWithoutParamKindIsACompileError() {
        String yaml = deploymentPolicy("noparams.example.com", """
                validations: [{expression: "params == null"}]
                """, "[Deny]");
        CelPolicy policy = Policies.of(yaml);
        List<String> errors = policy.policies().compileErrors();
        assertEquals(1, errors.size(), errors::toString);
        assertTrue(errors.get(0).contains("validations[0].expression") && errors.get(0).contains(
                "ERROR: <input>:1:1: undeclared reference to 'params' (in container '')"), errors::toString);
        AdmissionTester.of(policy).create(deployment("default", 1)).assertDenied()
                .withMessageContaining("compilation error");
    }

    @Test
    void invalidDocumentsStopTheFunctionWithEveryProblem() {
        String yaml = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: Bad_Name}
                spec:
                  failurePolicy: Sometimes
                  validations: [{expression: "true", reason: Teapot, message: "two\\nlines"}]
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: b}
                spec: {policyName: x, validationActions: [Deny, Warn]}
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBindng
                metadata: {name: typo}
                """;
        var e = assertThrows(PolicyConfig.InvalidConfigException.class, () -> Policies.of(yaml));
        for (String expected : List.of("metadata.name 'Bad_Name'", "spec.failurePolicy must be Fail or Ignore",
                "spec.matchConstraints: required", ".reason: must be one of", "must not contain line breaks",
                "Deny and Warn may not be used together", "kind ValidatingAdmissionPolicyBindng is not used")) {
            assertTrue(e.getMessage().contains(expected), () -> "expected '" + expected + "' in:\n" + e.getMessage());
        }
    }

    @Test
    void compileErrorsAreReportedAndTheLoadSucceeds() {
        String yaml = deploymentPolicy("broken.example.com", """
                validations:
                - expression: "object.spec.replicas <="
                - expression: "'not a bool'"
                """, "[Deny]");
        CelPolicy policy = Policies.of(yaml);
        List<String> errors = policy.policies().compileErrors();
        assertEquals(2, errors.size(), errors::toString);
        assertTrue(errors.get(0).contains("validations[0].expression"), errors::toString);
        assertTrue(errors.get(1).contains("must evaluate to bool"), errors::toString);
    }

    @Test
    void policiesOutsideTheRegistrationAreReported() {
        var registration = RegistrationCoverage.packagedRules("/cel-policy");
        assertEquals(dev.tollgate.admission.registration.Registrations.load(Path.of("webhook.yaml")).get(0).rules(),
                registration, "the packaged webhook.yaml is this module's");
        var examples = ValidatingPolicies.load(ConfigFiles.read(List.of(Path.of("examples"))),
                CelPolicy.environment("none"), Namespaces.Unknown.ERROR);
        assertEquals(List.of(), examples.uncoveredBy(registration));
        var services = Policies.of(deploymentPolicy("svc.example.com", "validations: [{expression: \"true\"}]",
                "[Deny]").replace("resources: [deployments]", "resources: [deployments, services]"));
        List<String> uncovered = services.policies().uncoveredBy(registration);
        assertEquals(2, uncovered.size(), uncovered::toString);
        assertTrue(uncovered.get(0).startsWith("svc.example.com: CREATE apps/v1 services is not covered"),
                uncovered::toString);
    }

    @Test
    void examplesLoadAndBehaveAsDocumented() {
        Path examples = Path.of("examples");
        CelPolicy policy = new CelPolicy(ValidatingPolicies.load(ConfigFiles.read(List.of(examples)),
                CelPolicy.environment("none"), Namespaces.Unknown.ERROR));
        assertTrue(policy.policies().compileErrors().isEmpty(), () -> policy.policies().compileErrors().toString());
        assertTrue(policy.policies().warnings().isEmpty(), () -> policy.policies().warnings().toString());
        AdmissionTester t = AdmissionTester.of(policy);
        t.create(deployment("sandbox", 4, "registry.example.com/web:1.0")).assertDenied()
                .withMessageContaining("object.spec.replicas must be no greater than 3");
        t.create(deployment("shop", 40, "registry.example.com/web:1.0")).assertAllowed().assertNoWarnings();
        t.create(deployment("shop", 2, "registry.example.com/web:latest")).assertAllowed()
                .assertWarningContaining("pin container images to a version tag");
        var pod = Pods.withContainer(Pods.minimal("web"), "containers", "sidecar", "docker.io/envoy:1");
        pod.with("metadata").put("namespace", "shop");
        t.review(ReviewBuilder.create(pod)).assertDenied().withCode(403).withReason("Forbidden")
                .withMessageContaining("containers app, sidecar use images outside registry.example.com")
                .assertAuditAnnotation("trusted-registry.example.com.untrusted", "app,sidecar");
        var trusted = Manifests.parse("""
                apiVersion: v1
                kind: Pod
                metadata: {name: ok, namespace: shop}
                spec: {containers: [{name: app, image: registry.example.com/app:1}]}
                """);
        t.create(trusted).assertAllowed();
    }
}
