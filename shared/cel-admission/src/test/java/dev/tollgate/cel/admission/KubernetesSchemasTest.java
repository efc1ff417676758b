package dev.tollgate.cel.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.tollgate.admission.GroupVersionKind;
import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.admission.PolicyTypeChecker.Finding;
import dev.tollgate.cel.admission.PolicyTypeChecker.Severity;

/**
 * The built-in kinds' schemas (the build's generated resource) as the API server's type checking sees its own kinds
 * (k8s.io/apiserver/pkg/cel/openapi/resolver; admission/plugin/policy/validating/typechecking.go): a misspelled Pod
 * field and wrong types are caught, IntOrString/Quantity are dyn, Time is a timestamp, and the generated schema agrees
 * with the upstream OpenAPI document of admissionregistration.k8s.io/v1 where the fixtures have it.
 */
class KubernetesSchemasTest {

    static String policy(String group, String version, String resource, String validations) {
        return """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: built-in.example.com}
                spec:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: ["%s"], apiVersions: [%s], operations: [CREATE, UPDATE], resources: [%s]}
                  validations:
                %s""".formatted(group, version, resource, validations);
    }

    static List<Finding> check(String yaml) {
        List<ConfigFiles.Document> docs = ConfigFiles.parse(yaml, "policy.yaml");
        return new PolicyTypeChecker(KubeCel.standard(), KubernetesSchemas.with(docs)).check(docs);
    }

    @Test
    void theResourceIsOnTheClassPathAndResolvesTheBuiltInKinds() throws Exception {
        SchemaResolver builtIn = KubernetesSchemas.builtIn();
        assertEquals(List.of(GroupVersionKind.of("", "v1", "Pod")), builtIn.kindsFor("", "v1", "pods"));
        assertEquals(List.of(GroupVersionKind.of("apps", "v1", "Deployment")),
                builtIn.kindsFor("apps", "v1", "deployments"));
        assertEquals(List.of(GroupVersionKind.of("batch", "v1", "CronJob")), builtIn.kindsFor("batch", "v1",
                "cronjobs"));
        assertTrue(builtIn.schema(GroupVersionKind.of("networking.k8s.io", "v1", "Ingress")).isPresent());
        assertTrue(builtIn.kindsFor("stable.example.com", "v1", "crontabs").isEmpty());
        // Every kind the models know is in the document, none more.
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(KubernetesSchemas.RESOURCE)) {
            JsonNode doc = new ObjectMapper().readTree(new GZIPInputStream(in));
            assertEquals(KubernetesModels.all().size(), doc.path("x-tollgate-resources").size());
        }
    }

    /**
     * Policies without variables share one typed environment per kind within a check: many policies checked together
     * give exactly the findings each gives alone (a misspelling after a clean policy is still caught, and a params
     * type of one policy is not another's).
     */
    @Test
    void policiesCheckedTogetherGiveTheFindingsEachGivesAlone() {
        List<String> policies = List.of(
                policy("", "v1", "pods", "  - expression: \"object.spec.containers.all(c, c.image != '')\"\n"),
                policy("", "v1", "pods", "  - expression: \"object.spec.containres.all(c, c.image != '')\"\n"),
                policy("apps", "v1", "deployments", "  - expression: \"object.spec.replicas <= 5\"\n"),
                policy("apps", "v1", "deployments", "  - expression: \"object.spec.replicas <= 'five'\"\n"),
                policy("", "v1", "pods", "  - expression: \"object.spec.hostNetwork == params.allowed\"\n")
                        .replace("spec:\n", "spec:\n  paramKind: {apiVersion: v1, kind: ConfigMap}\n"),
                policy("", "v1", "pods", "  - expression: \"object.spec.nodeName.size() > 0\"\n"));
        List<String> alone = new ArrayList<>();
        StringBuilder together = new StringBuilder();
        for (int i = 0; i < policies.size(); i++) {
            String named = policies.get(i).replace("built-in.example.com", "p" + i + ".example.com");
            check(named).forEach(f -> alone.add(f.toString().replace("policy.yaml#1", "")));
            together.append(i == 0 ? "" : "---\n").append(named);
        }
        List<String> all = check(together.toString()).stream()
                .map(f -> f.toString().replaceAll("policy\\.yaml#\\d+", "")).toList();
        assertEquals(alone, all);
        // The misspelled field, the string compared with an integer, and params typed as a ConfigMap (no 'allowed').
        assertEquals(List.of("p1", "p3", "p4"), all.stream().filter(f -> f.startsWith("WARNING"))
                .map(f -> f.replaceAll("(?s)^WARNING ValidatingAdmissionPolicy '(p\\d)\\..*", "$1").strip()).toList(),
                all::toString);
    }

    /** cel-go checker/errors.go undefinedField, per kind as typechecking.go reports it ("/v1, Kind=Pod": core). */
    @Test
    void aMisspelledPodFieldIsAWarning() {
        List<Finding> findings = check(policy("", "v1", "pods", """
                  - expression: "object.spec.containres.all(c, c.image != '')"
                """));
        assertEquals(1, findings.size(), findings::toString);
        assertEquals(Severity.WARNING, findings.get(0).severity());
        assertEquals("/v1, Kind=Pod: ERROR: <input>:1:12: undefined field 'containres'\n"
                + " | object.spec.containres.all(c, c.image != '')\n | ...........^\n", findings.get(0).message());
    }

    /** The types come through $refs and lists: a container's image is a string, replicas an int. */
    @Test
    void wrongTypesAreWarnings() {
        List<Finding> findings = check(policy("apps", "v1", "deployments", """
                  - expression: "object.spec.replicas > '3'"
                  - expression: "object.spec.template.spec.containers.all(c, c.image > 1)"
                  - expression: "object.metadata.creationTimestamp == '2024-01-01'"
                """));
        assertEquals(List.of("spec.validations[0].expression", "spec.validations[1].expression",
                "spec.validations[2].expression"), findings.stream().map(Finding::fieldRef).toList());
        assertTrue(findings.get(0).message().startsWith("apps/v1, Kind=Deployment: ERROR: <input>:1:22: found no "
                + "matching overload for '_>_' applied to '(int, string)'"), findings.get(0).message());
        assertTrue(findings.get(1).message().contains("found no matching overload for '_>_' applied to "
                + "'(string, int)'"), findings.get(1).message());
        // metav1.Time is format date-time upstream: a timestamp (SchemaDeclType)
        assertTrue(findings.get(2).message().contains("found no matching overload for '_==_' applied to "
                + "'(google.protobuf.Timestamp, string)'"), findings.get(2).message());
    }

    /** IntOrString and Quantity are dyn, maps and ObjectMeta typed, RawExtension-like values present: no findings. */
    @Test
    void aCorrectPolicyOnBuiltInKindsHasNoFindings() {
        assertEquals(List.of(), check(policy("apps", "v1", "deployments", """
                  - expression: "!has(object.spec.strategy.rollingUpdate) || object.spec.strategy.rollingUpdate.maxSurge == 1 || object.spec.strategy.rollingUpdate.maxSurge == '25%'"
                  - expression: "object.spec.template.spec.containers.all(c, !has(c.resources.limits) || !('memory' in c.resources.limits) || quantity(string(c.resources.limits['memory'])).isLessThan(quantity('1Gi')))"
                  - expression: "object.metadata.labels['team'] == 'shop' && object.metadata.namespace.startsWith('a')"
                  - expression: "!has(object.metadata.creationTimestamp) || object.metadata.creationTimestamp < timestamp('2100-01-01T00:00:00Z')"
                  - expression: "object.spec.template.spec.containers.exists(c, c.ports.exists(p, p.containerPort == 8080))"
                """)));
    }

    /** A CRD given for a kind wins over the built-in schema (the simulator's schemas, a function's files). */
    @Test
    void aGivenCrdWinsForItsKind() {
        String crd = """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: deployments.apps}
                spec:
                  group: apps
                  scope: Namespaced
                  names: {plural: deployments, singular: deployment, kind: Deployment}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    schema:
                      openAPIV3Schema:
                        type: object
                        properties:
                          spec: {type: object, properties: {size: {type: integer}}}
                ---
                """;
        List<Finding> findings = check(crd + policy("apps", "v1", "deployments", """
                  - expression: "object.spec.size < 3"
                  - expression: "object.spec.replicas < 3"
                """));
        assertEquals(List.of("spec.validations[1].expression"), findings.stream().map(Finding::fieldRef).toList(),
                findings::toString);
    }

    /** At a function's startup: warnings come back one per line; an error throws, one line naming file and field. */
    @Test
    void checkAtStartup() {
        List<ConfigFiles.Document> docs = ConfigFiles.parse(policy("", "v1", "pods", """
                  - expression: "object.spec.containres.size() > 0"
                """), "examples/pods.yaml");
        assertEquals(List.of("ValidatingAdmissionPolicy 'built-in.example.com' (examples/pods.yaml#1): "
                + "spec.validations[0].expression: /v1, Kind=Pod: ERROR: <input>:1:12: undefined field 'containres'"),
                PolicyTypeChecker.checkAtStartup(KubeCel.standard(), docs));
        List<ConfigFiles.Document> refused = ConfigFiles.parse(policy("", "v1", "pods", """
                  - expression: "object.metadata.name.startsWth('x')"
                  - expression: "'not a bool'"
                """), "examples/pods.yaml");
        var e = assertThrows(PolicyTypeChecker.RefusedPolicyException.class,
                () -> PolicyTypeChecker.checkAtStartup(KubeCel.standard(), refused));
        assertEquals("ValidatingAdmissionPolicy 'built-in.example.com' (examples/pods.yaml#1): "
                + "spec.validations[0].expression: Invalid value: \"object.metadata.name.startsWth('x')\": "
                + "compilation failed: ERROR: <input>:1:31: undeclared reference to 'startsWth' (in container ''); "
                + "ValidatingAdmissionPolicy 'built-in.example.com' (examples/pods.yaml#1): "
                + "spec.validations[1].expression: Invalid value: \"'not a bool'\": must evaluate to bool but got "
                + "string", e.getMessage());
        assertEquals(2, e.errors().size());
    }

    /**
     * The generated schemas against the upstream OpenAPI v3 document of admissionregistration.k8s.io/v1
     * (kubernetes/kubernetes api/openapi-spec/v3, in ../shared/fixtures): every field upstream has, with its type and
     * format, for every kind of the document the models know.
     */
    @Test
    void agreesWithTheUpstreamOpenApiDocument() throws Exception {
        String dir = System.getProperty("tollgate.fixtures.dir");
        Path doc = dir == null ? null : Path.of(dir, "schemas", "k8s-admissionregistration-v1-openapi.json");
        String missing = doc == null ? "tollgate.fixtures.dir is not set"
                : Files.isRegularFile(doc) ? null : "fixture " + doc.toAbsolutePath().normalize() + " is absent";
        if (missing != null) {
            System.out.println("SKIPPED KubernetesSchemasTest.agreesWithTheUpstreamOpenApiDocument: " + missing);
        }
        assumeTrue(missing == null, missing);
        JsonNode upstream = new ObjectMapper().readTree(doc.toFile());
        JsonNode upstreamSchemas = upstream.path("components").path("schemas");
        Function<String, JsonNode> upstreamRefs = r -> upstreamSchemas.get(r.substring(r.lastIndexOf('/') + 1));
        List<String> differences = new ArrayList<>();
        int kinds = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = upstreamSchemas.fields(); it.hasNext();) {
            JsonNode s = it.next().getValue();
            for (JsonNode g : s.path("x-kubernetes-group-version-kind")) {
                GroupVersionKind gvk = GroupVersionKind.of(g.path("group").asText(), g.path("version").asText(),
                        g.path("kind").asText());
                var ours = KubernetesSchemas.builtIn().schema(gvk);
                if (ours.isEmpty() || gvk.kind().endsWith("List")) {
                    continue;
                }
                kinds++;
                compare(s, upstreamRefs, ours.get().node(), ours.get().refs(), gvk.kind(), 0, differences);
            }
        }
        assertTrue(kinds >= 4, "kinds compared: " + kinds);
        assertEquals(List.of(), differences);
    }

    private static JsonNode resolve(JsonNode s, Function<String, JsonNode> refs) {
        JsonNode current = s;
        while (current != null && (current.has("$ref") || (!current.has("type") && current.path("allOf").size() == 1))) {
            current = current.has("$ref") ? refs.apply(current.get("$ref").asText()) : current.get("allOf").get(0);
        }
        return current;
    }

    private static void compare(JsonNode theirs, Function<String, JsonNode> theirRefs, JsonNode ours,
            Function<String, JsonNode> ourRefs, String path, int depth, List<String> differences) {
        JsonNode t = resolve(theirs, theirRefs);
        JsonNode o = resolve(ours, ourRefs);
        if (depth > 12 || t == null) {
            return;
        }
        if (o == null) {
            differences.add(path + ": missing");
            return;
        }
        if (t.path("x-kubernetes-int-or-string").asBoolean() || o.path("x-kubernetes-int-or-string").asBoolean()) {
            if (t.path("x-kubernetes-int-or-string").asBoolean() != o.path("x-kubernetes-int-or-string")
                    .asBoolean()) {
                differences.add(path + ": int-or-string " + t.path("x-kubernetes-int-or-string").asBoolean()
                        + " upstream");
            }
            return;
        }
        String type = t.path("type").asText();
        if (!type.equals(o.path("type").asText())) {
            differences.add(path + ": " + o.path("type").asText() + ", upstream " + type);
            return;
        }
        Set<String> celFormats = Set.of("date-time", "byte", "duration", "date");   // those SchemaDeclType types
        if (!t.path("format").asText().equals(o.path("format").asText())
                && (celFormats.contains(t.path("format").asText()) || celFormats.contains(o.path("format").asText()))) {
            differences.add(path + ": format '" + o.path("format").asText() + "', upstream '"
                    + t.path("format").asText() + "'");
        }
        switch (type) {
            case "array" -> compare(t.get("items"), theirRefs, o.get("items"), ourRefs, path + "[]", depth + 1,
                    differences);
            case "object" -> {
                if (t.has("additionalProperties")) {
                    compare(t.get("additionalProperties"), theirRefs, o.get("additionalProperties"), ourRefs,
                            path + "{}", depth + 1, differences);
                }
                for (Iterator<Map.Entry<String, JsonNode>> it = t.path("properties").fields(); it.hasNext();) {
                    Map.Entry<String, JsonNode> p = it.next();
                    compare(p.getValue(), theirRefs, o.path("properties").get(p.getKey()), ourRefs,
                            path + "." + p.getKey(), depth + 1, differences);
                }
            }
            default -> {
            }
        }
    }
}
