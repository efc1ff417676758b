package dev.tollgate.functions.celpolicy;

import static dev.tollgate.functions.celpolicy.Policies.deployment;
import static dev.tollgate.functions.celpolicy.Policies.deploymentPolicy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.Pods;
import dev.tollgate.testing.ReviewBuilder;
import dev.tollgate.testing.ReviewResult;

/**
 * Decision tables transcribed from the Kubernetes documentation, "Validating Admission Policy"
 * (kubernetes.io/docs/reference/access-authn-authz/validating-admission-policy): variable composition, message
 * expressions and their fallbacks, failurePolicy on errors, validation actions, matchConditions and audit
 * annotations. Expected messages are the API server's (as quoted there, minus the kubectl prefix). Each row runs in
 * both review versions.
 */
class DocumentationTablesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    // ----- Variable composition: image-matches-namespace-environment.policy.example.com, as in the docs. -----

    private static final String IMAGE_ENVIRONMENT = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata:
              name: "image-matches-namespace-environment.policy.example.com"
            spec:
              failurePolicy: Fail
              matchConstraints:
                resourceRules:
                - apiGroups:   ["apps"]
                  apiVersions: ["v1"]
                  operations:  ["CREATE", "UPDATE"]
                  resources:   ["deployments"]
              variables:
              - name: environment
                expression: "'environment' in namespaceObject.metadata.labels ? namespaceObject.metadata.labels['environment'] : 'prod'"
              - name: exempt
                expression: "'exempt' in object.metadata.labels && object.metadata.labels['exempt'] == 'true'"
              - name: containers
                expression: "object.spec.template.spec.containers"
              - name: containersToCheck
                expression: "variables.containers.filter(c, c.image.contains('example.com'))"
              validations:
              - expression: "variables.exempt || variables.containersToCheck.all(c, c.image.startsWith(variables.environment + '.'))"
                messageExpression: "'only ' + variables.environment + ' images are allowed in namespace ' + namespaceObject.metadata.name"
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicyBinding
            metadata: {name: demo-binding-test.example.com}
            spec:
              policyName: image-matches-namespace-environment.policy.example.com
              validationActions: [Deny]
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: default, labels: {environment: prod}}
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: staging-ns, labels: {environment: staging}}
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: team-ns, labels: {team: shop}}
            """;

    static Stream<Arguments> variableComposition() {
        return Stream.of(
                // namespace, exempt label, image, expected message (null: allowed)
                Arguments.of("default", false, "dev.example.com/nginx", "ValidatingAdmissionPolicy "
                        + "'image-matches-namespace-environment.policy.example.com' with binding "
                        + "'demo-binding-test.example.com' denied request: only prod images are allowed in namespace "
                        + "default"),
                Arguments.of("default", false, "prod.example.com/nginx", null),
                Arguments.of("default", false, "nginx:1.27", null),
                Arguments.of("default", true, "dev.example.com/nginx", null),
                Arguments.of("staging-ns", false, "staging.example.com/app", null),
                Arguments.of("staging-ns", false, "prod.example.com/app",
                        "only staging images are allowed in namespace staging-ns"),
                Arguments.of("team-ns", false, "dev.example.com/app", "only prod images are allowed in namespace team-ns"),
                Arguments.of("team-ns", false, "prod.example.com/app", null));
    }

    @ParameterizedTest(name = "{0} exempt={1} {2}")
    @MethodSource("variableComposition")
    void variableComposition(String namespace, boolean exempt, String image, String message) {
        ObjectNode d = deployment(namespace, 1, image);
        if (exempt) {
            Pods.withLabels(d, "exempt", "true");
        }
        for (ReviewVersion v : ReviewVersion.values()) {
            ReviewResult r = Policies.tester(IMAGE_ENVIRONMENT).version(v).create(d);
            expect(r, message);
        }
    }

    // ----- Message expression: precedence and fallbacks. -----

    static Stream<Arguments> messageExpressions() {
        String longText = "x".repeat(ValidatingPolicies.MAX_MESSAGE_EXPRESSION_LENGTH + 1);
        return Stream.of(
                // message, messageExpression, expected message after "denied request: "
                Arguments.of(null, "'object.spec.replicas must be no greater than ' + string(5)",
                        "object.spec.replicas must be no greater than 5"),
                Arguments.of("too many replicas", "'computed: ' + string(object.spec.replicas)", "computed: 7"),
                Arguments.of("too many replicas", "'x' + object.spec.noSuchField", "too many replicas"),
                Arguments.of("too many replicas", "'first line\\nsecond line'", "too many replicas"),
                Arguments.of("too many replicas", "'   '", "too many replicas"),
                Arguments.of("too many replicas", "'" + longText + "'", "too many replicas"),
                Arguments.of("  too many replicas  ", null, "too many replicas"),
                Arguments.of(null, "'x' + object.spec.noSuchField", "failed expression: object.spec.replicas <= 5"),
                Arguments.of(null, null, "failed expression: object.spec.replicas <= 5"),
                Arguments.of(null, "'  padded  '", "padded"));
    }

    @ParameterizedTest(name = "message={0} messageExpression={1}")
    @MethodSource("messageExpressions")
    void messageExpressionFallbacks(String message, String messageExpression, String expected) throws IOException {
        ObjectNode validation = JSON.createObjectNode().put("expression", "object.spec.replicas <= 5");
        if (message != null) {
            validation.put("message", message);
        }
        if (messageExpression != null) {
            validation.put("messageExpression", messageExpression);
        }
        String yaml = deploymentPolicy("deploy-replica-policy.example.com", "validations: ["
                + JSON.writeValueAsString(validation) + "]", "[Deny]");
        for (ReviewVersion v : ReviewVersion.values()) {
            ReviewResult r = Policies.tester(yaml).version(v).create(deployment("default", 7, "nginx"));
            r.assertDenied().withCode(422).withReason("Invalid");
            assertEquals("ValidatingAdmissionPolicy 'deploy-replica-policy.example.com' with binding "
                    + "'deploy-replica-policy.example.com-binding' denied request: " + expected, r.message());
        }
    }

    // ----- failurePolicy on errors: rejected under Fail (reason Invalid), ignored under Ignore. -----

    static Stream<Arguments> failurePolicies() {
        return Stream.of(
                // case, spec fragment, binding extras, expected message part under Fail (null: allowed under both)
                Arguments.of("runtime error", "validations: [{expression: \"object.spec.noSuchField > 1\", "
                        + "reason: Forbidden}]", "", "expression 'object.spec.noSuchField > 1' resulted in error"),
                Arguments.of("compile error (the docs' own startWith typo)",
                        "validations: [{expression: \"object.metadata.name.startWith('demo')\"}]", "",
                        // admission/plugin/cel/filter.go around compile.go's error
                        "compilation error: compilation failed: ERROR: <input>:1:31: undeclared reference to "
                                + "'startWith' (in container '')"),
                // composition.go: the variable fails the validation that reads it
                Arguments.of("variable compile error", "variables: [{name: v, expression: \"object.spec.(\"}]\n"
                        + "validations: [{expression: \"variables.v == true\"}]", "", "expression 'variables.v == "
                        + "true' resulted in error: composited variable \"v\" fails to compile: compilation failed: "
                        + "ERROR: <input>:1:13: Syntax error: "),
                Arguments.of("a variable that does not compile, read by nothing", "variables: [{name: v, expression: "
                        + "\"object.spec.(\"}]\nvalidations: [{expression: \"true\"}]", "", null),
                Arguments.of("matchCondition error", "matchConditions: [{name: broken, expression: "
                        + "\"object.spec.noSuchField == 1\"}]\nvalidations: [{expression: \"true\"}]", "",
                        "matchCondition 'broken'"),
                Arguments.of("a false matchCondition wins over an erroring one", "matchConditions: [{name: broken, "
                        + "expression: \"object.spec.noSuchField == 1\"}, {name: never, expression: \"false\"}]\n"
                        + "validations: [{expression: \"false\"}]", "", null),
                Arguments.of("params not found, parameterNotFoundAction Deny",
                        "paramKind: {apiVersion: v1, kind: ConfigMap}\nvalidations: [{expression: \"true\"}]",
                        "paramRef: {name: missing, parameterNotFoundAction: Deny}",
                        "failed to configure binding: no params found for policy binding with `Deny` "
                                + "parameterNotFoundAction"),
                Arguments.of("params not found, parameterNotFoundAction Allow",
                        "paramKind: {apiVersion: v1, kind: ConfigMap}\nvalidations: [{expression: \"false\"}]",
                        "paramRef: {name: missing, parameterNotFoundAction: Allow}", null),
                Arguments.of("authorizer check with no authorizer configured",
                        "validations: [{expression: \"authorizer.requestResource.check('create').allowed()\"}]", "",
                        "no authorizer is configured for this function: authorizer checks cannot be answered "
                                + "(set tollgate.cel-policy.authorizer to allow or deny"));
    }

    private static final String SOME_CONFIGMAP = """
            ---
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: present, namespace: default}
            """;

    @ParameterizedTest(name = "{0}")
    @MethodSource("failurePolicies")
    void failurePolicyOnErrors(String description, String spec, String bindingExtra, String failMessage) {
        for (String fp : new String[] { "Fail", "Ignore" }) {
            String yaml = deploymentPolicy("errors.example.com", "failurePolicy: " + fp + "\n" + spec, "[Deny]")
                    + (bindingExtra.isEmpty() ? "" : "  " + bindingExtra + "\n")
                    + (spec.contains("paramKind") ? SOME_CONFIGMAP : "");
            for (ReviewVersion v : ReviewVersion.values()) {
                ReviewResult r = Policies.tester(yaml).version(v).create(deployment("default", 1, "nginx"));
                if (fp.equals("Ignore") || failMessage == null) {
                    r.assertAllowed().assertNoWarnings();
                } else {
                    // An error is a failure without a reason of its own: Invalid, 422, whatever the validation says.
                    r.assertDenied().withCode(422).withReason("Invalid")
                            .withMessageContaining("ValidatingAdmissionPolicy 'errors.example.com' with binding "
                                    + "'errors.example.com-binding' denied request: ")
                            .withMessageContaining(failMessage);
                }
            }
        }
    }

    // ----- Validation actions. -----

    static Stream<Arguments> validationActions() {
        return Stream.of(
                // actions, denied, warned, audited
                Arguments.of("[Deny]", true, false, false),
                Arguments.of("[Warn]", false, true, false),
                Arguments.of("[Audit]", false, false, true),
                Arguments.of("[Deny, Audit]", true, false, true),
                Arguments.of("[Warn, Audit]", false, true, true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validationActions")
    void validationActions(String actions, boolean denied, boolean warned, boolean audited) throws IOException {
        String yaml = deploymentPolicy("demo-policy.example.com", """
                validations:
                - expression: "object.spec.replicas <= 5"
                - expression: "object.spec.replicas <= 2"
                  message: "at most 2 replicas"
                  reason: Forbidden
                """, actions);
        for (ReviewVersion v : ReviewVersion.values()) {
            ReviewResult r = Policies.tester(yaml).version(v).create(deployment("default", 4, "nginx"));
            assertEquals(!denied, r.allowed(), r::message);
            if (denied) {
                r.withCode(403).withReason("Forbidden").withMessageContaining("with binding "
                        + "'demo-policy.example.com-binding' denied request: at most 2 replicas");
            }
            if (warned) {
                assertEquals(java.util.List.of("Validation failed for ValidatingAdmissionPolicy "
                        + "'demo-policy.example.com' with binding 'demo-policy.example.com-binding': at most 2 "
                        + "replicas"), r.warnings());
            } else {
                r.assertNoWarnings();
            }
            JsonNode failure = r.review().path("response").path("auditAnnotations").path("validation_failure");
            assertEquals(audited, !failure.isMissingNode(), () -> "validation_failure annotation: " + r.review());
            if (audited) {
                JsonNode list = JSON.readTree(failure.asText());
                assertEquals(1, list.size());
                JsonNode f = list.get(0);
                assertEquals("at most 2 replicas", f.path("message").asText());
                assertEquals("demo-policy.example.com", f.path("policy").asText());
                assertEquals("demo-policy.example.com-binding", f.path("binding").asText());
                assertEquals(1, f.path("expressionIndex").asInt());
                assertEquals(actions.replace(" ", "").replace("[", "[\"").replace("]", "\"]").replace(",", "\",\""),
                        f.path("validationActions").toString());
            }
            // A request that passes leaves no trace in any mode.
            Policies.tester(yaml).version(v).create(deployment("default", 1, "nginx")).assertAllowed()
                    .assertNoWarnings();
        }
    }

    // ----- matchConditions: demo-policy.example.com from the docs, with its startsWith typo and fixed. -----

    private static final String MATCH_CONDITIONS = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata:
              name: "demo-policy.example.com"
            spec:
              failurePolicy: Fail
              matchConstraints:
                resourceRules:
                  - apiGroups:   ["*"]
                    apiVersions: ["*"]
                    operations:  ["CREATE", "UPDATE"]
                    resources:   ["*"]
              matchConditions:
                - name: 'exclude-leases' # Each match condition must have a unique name
                  expression: '!(request.resource.group == "coordination.k8s.io" && request.resource.resource == "leases")' # Match non-lease resources.
                - name: 'exclude-kubelet-requests'
                  expression: '!("system:nodes" in request.userInfo.groups)' # Match requests made by non-node users.
                - name: 'rbac' # Skip RBAC requests.
                  expression: 'request.resource.group != "rbac.authorization.k8s.io"'
              validations:
                - expression: "object.metadata.name.startWith('demo')"
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicyBinding
            metadata: {name: demo-binding.example.com}
            spec: {policyName: demo-policy.example.com, validationActions: [Deny]}
            """;

    static Stream<Arguments> matchConditions() {
        return Stream.of(
                // request, as written (typo), fixed (startsWith); null: allowed
                Arguments.of("lease", null, null),
                Arguments.of("by a node", null, null),
                Arguments.of("rbac role", null, null),
                Arguments.of("configmap demo-settings", "compilation error", null),
                Arguments.of("configmap settings", "compilation error",
                        "failed expression: object.metadata.name.startsWith('demo')"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("matchConditions")
    void matchConditions(String request, String asWritten, String fixed) {
        for (ReviewVersion v : ReviewVersion.values()) {
            expect(Policies.tester(MATCH_CONDITIONS).version(v).review(matchConditionRequest(request)), asWritten);
            expect(Policies.tester(MATCH_CONDITIONS.replace("startWith", "startsWith")).version(v)
                    .review(matchConditionRequest(request)), fixed);
        }
    }

    private static ReviewBuilder matchConditionRequest(String which) {
        return switch (which) {
            case "lease" -> ReviewBuilder.create(Manifests.parse("""
                    {apiVersion: coordination.k8s.io/v1, kind: Lease, metadata: {name: node-1, namespace: kube-node-lease}}
                    """));
            case "by a node" -> ReviewBuilder.create(configMap("kubelet-made")).user("system:node:n1",
                    "system:nodes", "system:authenticated");
            case "rbac role" -> ReviewBuilder.create(Manifests.parse("""
                    {apiVersion: rbac.authorization.k8s.io/v1, kind: Role, metadata: {name: reader, namespace: default}}
                    """));
            case "configmap demo-settings" -> ReviewBuilder.create(configMap("demo-settings"));
            default -> ReviewBuilder.create(configMap("settings"));
        };
    }

    private static ObjectNode configMap(String name) {
        return Manifests.parse("{apiVersion: v1, kind: ConfigMap, metadata: {name: " + name
                + ", namespace: default}, data: {a: b}}");
    }

    // ----- Audit annotations: demo-policy.example.com/high-replica-count from the docs. -----

    private static final String AUDIT_ANNOTATION = deploymentPolicy("demo-policy.example.com", """
            validations:
            - expression: "object.spec.replicas > 50"
              messageExpression: "'Deployment spec.replicas set to ' + string(object.spec.replicas)"
            auditAnnotations:
            - key: "high-replica-count"
              valueExpression: "'Deployment spec.replicas set to ' + string(object.spec.replicas)"
            """, "[Deny]");

    static Stream<Arguments> auditAnnotations() {
        return Stream.of(Arguments.of(128, null), Arguments.of(3, "Deployment spec.replicas set to 3"));
    }

    @ParameterizedTest(name = "replicas={0}")
    @MethodSource("auditAnnotations")
    void auditAnnotations(int replicas, String denial) {
        for (ReviewVersion v : ReviewVersion.values()) {
            ReviewResult r = Policies.tester(AUDIT_ANNOTATION).version(v).create(deployment("default", replicas,
                    "nginx"));
            expect(r, denial);
            // Recorded by the API server as <webhook name>/demo-policy.example.com.high-replica-count.
            r.assertAuditAnnotation("demo-policy.example.com.high-replica-count",
                    "Deployment spec.replicas set to " + replicas);
        }
    }

    private static void expect(ReviewResult r, String message) {
        if (message == null) {
            r.assertAllowed();
        } else {
            r.assertDenied().withMessageContaining(message);
            assertFalse(r.message().isEmpty());
            assertTrue(r.message().startsWith("ValidatingAdmissionPolicy '"), r::message);
        }
    }
}
