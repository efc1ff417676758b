package dev.tollgate.functions.celmutate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.Namespaces;
import dev.tollgate.cel.admission.PolicyConfig;
import dev.tollgate.testing.AdmissionTester;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.ReviewBuilder;

class CelMutateTest {

    private static CelMutate of(String yaml) {
        return new CelMutate(MutatingPolicies.load(ConfigFiles.parse(yaml, "test.yaml"), CelMutate.environment("none"),
                Namespaces.Unknown.ERROR));
    }

    /** A policy on pods with the given mutations (and other spec fields), bound without restrictions. */
    private static String podPolicy(String spec) {
        return """
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingAdmissionPolicy
                metadata: {name: p.example.com}
                spec:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [pods]}
                %s
                ---
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingAdmissionPolicyBinding
                metadata: {name: b.example.com}
                spec: {policyName: p.example.com}
                """.formatted(spec.indent(2).stripTrailing());
    }

    private static ObjectNode pod() {
        return Manifests.parse("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web, namespace: shop, labels: {app: web}}
                spec:
                  containers:
                  - {name: app, image: "nginx:1.27", ports: [{containerPort: 80}]}
                """);
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void jsonPatchAddsAndIsIdempotent(ReviewVersion version) {
        String yaml = podPolicy("""
                mutations:
                - patchType: JSONPatch
                  jsonPatch:
                    expression: >
                      'example.com/managed' in object.metadata.labels ? [] : [
                        JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("example.com/managed"),
                                  value: "true"}]
                """);
        ObjectNode expected = pod();
        expected.with("metadata").with("labels").put("example.com/managed", "true");
        AdmissionTester.of(of(yaml)).version(version).create(pod())
                .assertAllowed().assertPatchedTo(expected).assertIdempotent();
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void applyConfigurationMergesByKeyAndIsIdempotent(ReviewVersion version) {
        String yaml = podPolicy("""
                mutations:
                - patchType: ApplyConfiguration
                  applyConfiguration:
                    expression: >
                      Object{
                        metadata: Object.metadata{labels: {"example.com/mesh": "on"}},
                        spec: Object.spec{
                          containers: [Object.spec.containers{name: "app", imagePullPolicy: "Always",
                                        ports: [Object.spec.containers.ports{containerPort: 80, name: "http"}]}],
                          initContainers: [Object.spec.initContainers{name: "proxy", image: "mesh/proxy:1",
                                           restartPolicy: "Always"}]
                        }
                      }
                """);
        ObjectNode expected = Manifests.parse("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web, namespace: shop, labels: {app: web, example.com/mesh: "on"}}
                spec:
                  containers:
                  - {name: app, image: "nginx:1.27", ports: [{containerPort: 80, name: http}], imagePullPolicy: Always}
                  initContainers:
                  - {name: proxy, image: "mesh/proxy:1", restartPolicy: Always}
                """);
        AdmissionTester.of(of(yaml)).version(version).create(pod())
                .assertAllowed().assertPatchedTo(expected).assertIdempotent();
    }

    @Test
    void laterMutationsSeeEarlierOnesAndVariablesFollow() {
        String yaml = podPolicy("""
                variables:
                - name: count
                  expression: "has(object.metadata.annotations) ? size(object.metadata.annotations) : 0"
                mutations:
                - patchType: JSONPatch
                  jsonPatch:
                    expression: '[JSONPatch{op: "add", path: "/metadata/annotations", value: {"first": "1"}}]'
                - patchType: JSONPatch
                  jsonPatch:
                    expression: >
                      [JSONPatch{op: "add", path: "/metadata/annotations/seen", value: string(variables.count)}]
                """);
        var result = AdmissionTester.of(of(yaml)).create(pod()).assertAllowed();
        assertEquals("1", result.patchedObject().path("metadata").path("annotations").path("seen").asText());
    }

    @Test
    void failurePolicyDecidesWhatAnErrorDoes() {
        String mutation = """
                mutations:
                - patchType: JSONPatch
                  jsonPatch:
                    expression: '[JSONPatch{op: "remove", path: "/spec/notThere"}]'
                """;
        AdmissionTester.of(of(podPolicy(mutation))).create(pod()).assertDenied().withCode(422)
                .withMessageContaining("MutatingAdmissionPolicy 'p.example.com' with binding 'b.example.com' denied "
                        + "request: mutations[0]: JSON patch failed");
        AdmissionTester.of(of(podPolicy("failurePolicy: Ignore\n" + mutation))).create(pod()).assertAllowed()
                .assertNoPatch();
    }

    @Test
    void authorizerChecksNeedTheConfiguredDecision() {
        String yaml = podPolicy("""
                mutations:
                - patchType: JSONPatch
                  jsonPatch:
                    expression: >
                      [JSONPatch{op: "add", path: "/metadata/labels/may-create",
                                 value: string(authorizer.requestResource.check('create').allowed())}]
                """);
        AdmissionTester.of(of(yaml)).create(pod()).assertDenied().withMessageContaining("no authorizer is configured "
                + "for this function: authorizer checks cannot be answered (set tollgate.cel-mutate.authorizer to "
                + "allow or deny");
        var allowed = AdmissionTester.of(new CelMutate(MutatingPolicies.load(ConfigFiles.parse(yaml, "test.yaml"),
                CelMutate.environment("allow"), Namespaces.Unknown.ERROR))).create(pod()).assertAllowed();
        assertEquals("true", allowed.patchedObject().path("metadata").path("labels").path("may-create").asText());
    }

    @Test
    void aBindingsMutationsApplyAllOrNothing() {
        String yaml = podPolicy("""
                failurePolicy: Ignore
                mutations:
                - patchType: JSONPatch
                  jsonPatch:
                    expression: '[JSONPatch{op: "add", path: "/metadata/labels/first", value: "x"}]'
                - patchType: JSONPatch
                  jsonPatch:
                    expression: '[JSONPatch{op: "test", path: "/metadata/name", value: "other"}]'
                """);
        AdmissionTester.of(of(yaml)).create(pod()).assertAllowed().assertNoPatch();
    }

    @Test
    void applyOneLeavesItsInputAsItWas() throws Exception {
        // The dispatcher hands each mutation the previous result without copying it; this is what makes that safe.
        ObjectNode before = pod();
        ObjectNode object = before.deepCopy();
        ObjectNode patched = MutatingPolicies.applyOne(MutatingPolicyDefinition.PatchType.JSONPatch,
                new ObjectMapper().readTree("[{\"op\": \"replace\", \"path\": \"/spec/containers/0/image\", \"value\": \"x\"}]"),
                object, "m");
        ObjectNode merged = MutatingPolicies.applyOne(MutatingPolicyDefinition.PatchType.ApplyConfiguration,
                new ObjectMapper().readTree("{\"metadata\": {\"labels\": {\"app\": \"other\"}}}"), object, "m");
        assertEquals(before, object);
        assertEquals("x", patched.path("spec").path("containers").path(0).path("image").asText());
        assertEquals("other", merged.path("metadata").path("labels").path("app").asText());
        patched.with("metadata").put("name", "changed");
        merged.with("metadata").put("name", "changed");
        assertEquals(before, object); // and shares no nodes with them
    }

    @Test
    void anIgnoredFailureKeepsWhatEarlierBindingsDid() {
        String yaml = podPolicy("""
                mutations:
                - patchType: JSONPatch
                  jsonPatch:
                    expression: '[JSONPatch{op: "add", path: "/metadata/labels/first", value: "x"}]'
                """) + "---\n" + podPolicy("""
                failurePolicy: Ignore
                mutations:
                - patchType: JSONPatch
                  jsonPatch:
                    expression: '[JSONPatch{op: "add", path: "/metadata/labels/second", value: "y"}]'
                - patchType: JSONPatch
                  jsonPatch:
                    expression: '[JSONPatch{op: "test", path: "/metadata/name", value: "other"}]'
                """).replace("p.example.com", "q.example.com").replace("b.example.com", "c.example.com");
        ObjectNode labels = (ObjectNode) AdmissionTester.of(of(yaml)).create(pod()).assertAllowed().patchedObject()
                .path("metadata").path("labels");
        assertEquals("x", labels.path("first").asText());
        assertTrue(labels.path("second").isMissingNode(), labels.toString());
    }

    @Test
    void mutationsCannotChangeTheKind() {
        String yaml = podPolicy("""
                mutations:
                - patchType: ApplyConfiguration
                  applyConfiguration: {expression: 'Object{kind: "Service"}'}
                """);
        AdmissionTester.of(of(yaml)).create(pod()).assertDenied().withMessageContaining("may not change kind");
    }

    @Test
    void nullInAnApplyConfigurationIsRefused() {
        String yaml = podPolicy("""
                mutations:
                - patchType: ApplyConfiguration
                  applyConfiguration: {expression: 'Object{metadata: Object.metadata{labels: null}}'}
                """);
        AdmissionTester.of(of(yaml)).create(pod()).assertDenied().withMessageContaining("null is not allowed");
    }

    @Test
    void unknownTypesAndFieldsAreCompileErrors() {
        String yaml = podPolicy("""
                mutations:
                - patchType: JSONPatch
                  jsonPatch: {expression: '[JSONPatch{op: "add", path: "/x", valu: 1}]'}
                - patchType: ApplyConfiguration
                  applyConfiguration: {expression: 'Thing{a: 1}'}
                """);
        CelMutate m = of(yaml);
        List<String> errors = m.policies().compileErrors();
        assertEquals(2, errors.size(), errors::toString);
        assertTrue(errors.get(0).contains("JSONPatch has no field 'valu'"), errors::toString);
        assertTrue(errors.get(1).contains("unknown type 'Thing'"), errors::toString);
        // patch/json_patch.go: the compile error as it is, no "compilation error: " around it
        AdmissionTester.of(m).create(pod()).assertDenied().withMessageContaining("denied request: compilation failed: "
                + "JSONPatch has no field 'valu'");
    }

    /**
     * Without paramKind a binding's paramRef is ignored (CollectParams, k8s.io/apiserver
     * pkg/admission/plugin/policy/generic/policy_dispatcher.go): the mutations apply once, a missing param under Deny
     * notwithstanding; and {@code params} is not declared (admission/plugin/policy/mutating/compilation.go, HasParams:
     * ParamKind != nil), so a mutation using it is a compile error for the failurePolicy.
     */
    @Test
    void withoutParamKindTheParamRefIsIgnoredAndParamsUndeclared() {
        String label = """
                mutations:
                - patchType: JSONPatch
                  jsonPatch:
                    expression: '[JSONPatch{op: "add", path: "/metadata/labels/team", value: "shop"}]'
                """;
        String yaml = podPolicy(label).replace("spec: {policyName: p.example.com}", "spec: {policyName: p.example.com, "
                + "paramRef: {name: missing, parameterNotFoundAction: Deny}}");
        assertTrue(yaml.contains("paramRef"), yaml);
        ObjectNode expected = pod();
        expected.with("metadata").with("labels").put("team", "shop");
        AdmissionTester.of(of(yaml)).create(pod()).assertAllowed().assertPatchedTo(expected);

        CelMutate m = of(podPolicy(label.replace("value: \"shop\"", "value: params.data.team")));
        List<String> errors = m.policies().compileErrors();
        assertEquals(1, errors.size(), errors::toString);
        assertTrue(errors.get(0).contains("undeclared reference to 'params' (in container '')"), errors::toString);
        // compile.go's error as patch/json_patch.go returns it, at the position in the expression as written
        AdmissionTester.of(m).create(pod()).assertDenied().withMessageContaining("with binding 'b.example.com' denied"
                + " request: compilation failed: ERROR: <input>:1:61: undeclared reference to 'params' (in container"
                + " '')\n | [JSONPatch{op: \"add\", path: \"/metadata/labels/team\", value: params.data.team}]\n | "
                + ".".repeat(60) + "^");
    }

    @Test
    void deleteHasNothingToMutate() {
        String yaml = podPolicy("""
                mutations:
                - patchType: ApplyConfiguration
                  applyConfiguration: {expression: 'Object{metadata: Object.metadata{labels: {"a": "b"}}}'}
                """).replace("[CREATE, UPDATE]", "[CREATE, UPDATE, DELETE]");
        AdmissionTester.of(of(yaml)).delete(pod()).assertAllowed().assertNoPatch();
    }

    @Test
    void invalidDocumentsStopTheFunction() {
        String yaml = podPolicy("""
                mutations:
                - patchType: StrategicMerge
                - patchType: JSONPatch
                  applyConfiguration: {expression: "Object{}"}
                """);
        var e = assertThrows(PolicyConfig.InvalidConfigException.class, () -> of(yaml));
        assertTrue(e.getMessage().contains("must be JSONPatch or ApplyConfiguration"), e::getMessage);
        assertTrue(e.getMessage().contains("applyConfiguration: must not be set when patchType is JSONPatch"),
                e::getMessage);
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void examplesInjectTheSidecarAndTheTeamLabel(ReviewVersion version) {
        CelMutate m = new CelMutate(MutatingPolicies.load(ConfigFiles.read(List.of(Path.of("examples"))),
                CelMutate.environment("none"), Namespaces.Unknown.ERROR));
        assertTrue(m.policies().compileErrors().isEmpty(), () -> m.policies().compileErrors().toString());
        assertTrue(m.policies().warnings().isEmpty(), () -> m.policies().warnings().toString());
        assertEquals(List.of(), m.policies().uncoveredBy(dev.tollgate.admission.registration.Registrations
                .load(Path.of("webhook.yaml")).get(0).rules()));
        AdmissionTester t = AdmissionTester.of(m).version(version);
        var injected = t.create(pod()).assertAllowed().assertIdempotent().patchedObject();
        assertEquals("mesh-proxy", injected.path("spec").path("initContainers").path(0).path("name").asText());
        assertEquals("Always", injected.path("spec").path("initContainers").path(0).path("restartPolicy").asText());
        ObjectNode elsewhere = pod();
        elsewhere.with("metadata").put("namespace", "default");
        t.create(elsewhere).assertAllowed().assertNoPatch();

        ObjectNode deployment = Manifests.parse("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: etl, namespace: batch}
                spec: {replicas: 1}
                """);
        var labelled = t.review(ReviewBuilder.create(deployment)).assertAllowed().assertIdempotent().patchedObject();
        assertEquals("data", labelled.path("metadata").path("labels").path("example.com/team").asText());
    }
}
