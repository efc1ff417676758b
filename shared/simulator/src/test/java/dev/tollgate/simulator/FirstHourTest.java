package dev.tollgate.simulator;

import static dev.tollgate.simulator.FakeWebhooks.allow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.GroupVersionKind;
import dev.tollgate.cel.KubeCel;

/**
 * What a newcomer meets first: bad manifests reported with their place (every one of them), unknown kinds refused,
 * misspelt fields of built-in kinds warned about and dropped as the API server does, a compact report.
 */
class FirstHourTest {

    @TempDir
    Path dir;

    private final FakeWebhooks fake = new FakeWebhooks();

    private static List<String> problems(List<Path> paths) {
        List<String> problems = new ArrayList<>();
        InputManifest.read(paths, problems);
        return problems;
    }

    @Test
    void invalidYamlIsReportedWithFileLineAndColumn() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.yaml"), "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a: b\n");
        InputException e = assertThrows(InputException.class, () -> InputManifest.read(List.of(bad)));
        assertTrue(e.getMessage().contains(bad + ":4:10: not valid YAML or JSON: mapping values are not allowed here"),
                e.getMessage());
        assertFalse(e.getMessage().contains("in 'reader'"), "the parser's own excerpt is left out: " + e.getMessage());
    }

    @Test
    void everyProblemOfEveryFileInAFolderIsListed() throws Exception {
        Files.writeString(dir.resolve("a-bad-yaml.yaml"), "kind: [\n");
        Files.writeString(dir.resolve("b-no-name.yaml"), "apiVersion: v1\nkind: Pod\nmetadata: {}\n");
        Files.writeString(dir.resolve("c-scalar.json"), "42\n");
        Files.writeString(dir.resolve("d-good.yaml"), "apiVersion: v1\nkind: Pod\nmetadata: {name: ok}\n");
        List<String> problems = problems(List.of(dir, dir.resolve("missing.yaml")));
        assertEquals(4, problems.size(), problems.toString());
        assertEquals(dir.resolve("a-bad-yaml.yaml") + ":2:1: not valid YAML or JSON: expected the node content, but found '<stream end>'",
                problems.get(0));
        assertEquals(dir.resolve("b-no-name.yaml") + ": metadata.name or metadata.generateName: required",
                problems.get(1));
        assertEquals(dir.resolve("c-scalar.json") + ": expected a Kubernetes object (a mapping)", problems.get(2));
        assertEquals(dir.resolve("missing.yaml") + ": no such file or folder", problems.get(3));
        InputException all = assertThrows(InputException.class, () -> InputManifest.read(List.of(dir)));
        assertEquals(4, all.getMessage().lines().count(), all.getMessage());
    }

    @Test
    void unknownKindsAreBadInputUnlessDeclared() {
        InputManifest typo = SimulatorTest.manifest("{apiVersion: apps/v1, kind: Deploymnet, metadata: {name: d}}");
        InputManifest widget = SimulatorTest.manifest("{apiVersion: example.com/v1, kind: Widget, metadata: {name: w}}");
        InputManifest role = SimulatorTest.manifest(
                "{apiVersion: rbac.authorization.k8s.io/v1, kind: Role, metadata: {name: r}}");
        List<String> problems = new KindCheck(List.of(), List.of()).problems(List.of(typo, widget, role));
        assertEquals(List.of(
                "test: kind Deploymnet is not served by apps/v1 (did you mean Deployment?); for a custom resource, "
                        + "declare it with --custom-kind Deploymnet.apps",
                "test: kind Widget is not served by example.com/v1; for a custom resource, declare it with "
                        + "--custom-kind Widget.example.com"), problems);
        assertTrue(new KindCheck(List.of("Widget.example.com"), List.of()).problems(List.of(widget)).isEmpty());
        ObjectNode config = SimulatorTest.config(false, "widgets", SimulatorTest.hook("w.example.com", "/w",
                "rules: [{operations: [CREATE], apiGroups: [example.com], apiVersions: [v1], resources: [widgets]}]"));
        assertTrue(new KindCheck(List.of(), List.of(config)).problems(List.of(widget)).isEmpty());
        ObjectNode other = SimulatorTest.config(false, "gadgets", SimulatorTest.hook("g.example.com", "/g",
                "rules: [{operations: [CREATE], apiGroups: [example.com], apiVersions: [v1], resources: [gadgets]}]"));
        assertEquals(1, new KindCheck(List.of(), List.of(other)).problems(List.of(widget)).size());
    }

    @Test
    void unknownFieldsOfBuiltInKindsAreWarnedAboutAndNotSentToWebhooks() {
        fake.on("/v", allow());
        InputManifest m = SimulatorTest.manifest("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: shop, lables: {team: a}, labels: {team: a}}
                spec:
                  replicas: 1
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec:
                      contianers: [{name: x, image: nginx}]
                      containers:
                      - name: app
                        image: nginx
                        imagePullPolicy: Always
                        ports: [{containerPort: 80, protocl: TCP}]
                        resources: {limits: {cpu: 500m, memory: 1Gi}}
                        livenessProbe: {httpGet: {port: http, path: /}}
                """);
        ManifestReport r;
        try (Simulator s = new Simulator(new Configurations(List.of(SimulatorTest.config(false, "v",
                SimulatorTest.hook("v.example.com", "/v", "")))), fake,
                new MatchConditionsSupport(KubeCel.standard()))) {
            r = s.review(m, ReviewSettings.defaults());
        }
        assertEquals(List.of("unknown field \"metadata.lables\"", "unknown field \"spec.template.spec.contianers\"",
                "unknown field \"spec.template.spec.containers[0].ports[0].protocl\""), r.warnings());
        JsonNode sent = fake.received.get("/v").get(0).path("request").path("object");
        assertTrue(sent.path("metadata").has("labels"));
        assertFalse(sent.path("metadata").has("lables"), sent.toString());
        assertFalse(sent.path("spec").path("template").path("spec").has("contianers"), sent.toString());
        assertEquals("nginx", sent.at("/spec/template/spec/containers/0/image").asText());
        assertEquals(80, sent.at("/spec/template/spec/containers/0/ports/0/containerPort").asInt());
    }

    @Test
    void theShippedExamplesHaveNoUnknownFields() throws Exception {
        Path examples = Path.of("examples");
        for (InputManifest m : InputManifest.read(List.of(examples))) {
            ObjectNode copy = m.object().deepCopy();
            assertEquals(List.of(), BuiltInSchemas.dropUnknownFields(KindCheck.gvk(m), copy), m.source());
            assertEquals(m.object(), copy);
        }
    }

    /**
     * An object as the API server returns it (kubectl get -o yaml, or what audit lists) carries managedFields, whose
     * fieldsV1 is a set of field paths ({@code f:metadata}, {@code k:{"name":"app"}}, {@code .}), not fields of the
     * kind: no warning for them. The entries' own fields are still checked.
     */
    @Test
    void objectsAsTheApiServerReturnsThemHaveNoUnknownFields() {
        ObjectNode stored = SimulatorTest.manifest("""
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: web
                  namespace: shop
                  uid: 5c1f0c4e-3f0d-4c5e-9a57-0d5f6f0c9b11
                  resourceVersion: "4711"
                  generation: 1
                  creationTimestamp: "2024-05-01T10:00:00Z"
                  labels: {app: web}
                  managedFields:
                  - manager: kubectl-client-side-apply
                    operation: Update
                    apiVersion: apps/v1
                    time: "2024-05-01T10:00:00Z"
                    fieldsType: FieldsV1
                    fieldsV1:
                      f:metadata:
                        f:labels: {.: {}, f:app: {}}
                      f:spec:
                        f:template:
                          f:spec:
                            f:containers:
                              k:{"name":"app"}: {.: {}, f:image: {}, f:name: {}}
                  - manager: kube-controller-manager
                    operation: Update
                    apiVersion: apps/v1
                    subresource: status
                    fieldsType: FieldsV1
                    fieldsV1: {f:status: {f:replicas: {}}}
                spec:
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec:
                      containers: [{name: app, image: nginx:1.27}]
                status: {replicas: 1}
                """).object();
        ObjectNode copy = stored.deepCopy();
        assertEquals(List.of(), BuiltInSchemas.dropUnknownFields(GroupVersionKind.of("apps", "v1", "Deployment"),
                copy));
        assertEquals(stored, copy, "fieldsV1 reaches the webhooks as stored");
        ((ObjectNode) stored.at("/metadata/managedFields/0")).put("manger", "typo");
        assertEquals(List.of("unknown field \"metadata.managedFields[0].manger\""),
                BuiltInSchemas.dropUnknownFields(GroupVersionKind.of("apps", "v1", "Deployment"), stored));
    }

    @Test
    void customKindsAreNotCheckedFieldByField() {
        ObjectNode widget = SimulatorTest.manifest(
                "{apiVersion: example.com/v1, kind: Widget, metadata: {name: w}, spec: {anything: 1}}").object();
        assertEquals(List.of(), BuiltInSchemas.dropUnknownFields(GroupVersionKind.of("example.com", "v1", "Widget"),
                widget));
    }

    /**
     * The field lists are upstream's: for every admissionregistration.k8s.io/v1 schema of the Kubernetes OpenAPI
     * document (shared fixtures), the model the check uses has exactly the same property names.
     */
    @Test
    void fieldListsMatchTheUpstreamOpenApiDocument() throws Exception {
        Path doc = Path.of(System.getProperty("tollgate.fixtures.dir", "../../../shared/fixtures"),
                "schemas", "k8s-admissionregistration-v1-openapi.json");
        if (!Files.isRegularFile(doc)) {
            System.out.println("SKIPPED FirstHourTest.fieldListsMatchTheUpstreamOpenApiDocument: no upstream OpenAPI "
                    + "document at " + doc.toAbsolutePath().normalize() + " (the shared fixtures beside the checkout)");
            Assumptions.abort("no " + doc);
        }
        JsonNode schemas = new ObjectMapper().readTree(doc.toFile()).path("components").path("schemas");
        ObjectMapper mapper = new ObjectMapper();
        int compared = 0;
        for (var it = schemas.fields(); it.hasNext();) {
            var e = it.next();
            String prefix = "io.k8s.api.admissionregistration.v1.";
            if (!e.getKey().startsWith(prefix) || !e.getValue().has("properties")) {
                continue;
            }
            String simple = e.getKey().substring(prefix.length());
            Class<?> model = Class.forName("io.fabric8.kubernetes.api.model.admissionregistration.v1." + simple);
            Set<String> upstream = new TreeSet<>();
            e.getValue().path("properties").fieldNames().forEachRemaining(upstream::add);
            JavaType type = mapper.constructType(model);
            assertEquals(upstream, new TreeSet<>(BuiltInSchemas.properties(type).keySet()), e.getKey());
            compared++;
        }
        System.out.println("FirstHourTest: " + compared + " admissionregistration.k8s.io/v1 schemas have the upstream "
                + "property names");
        assertTrue(compared >= 20, "only " + compared + " schemas compared");
    }

    @Test
    void theTextReportCountsSkippedWebhooksUnlessVerbose() {
        fake.on("/a", allow());
        ManifestReport r = reviewPod(SimulatorTest.hook("a.example.com", "/a", ""), DELETE_ONLY);
        String compact = Reports.text(List.of(r), false);
        assertTrue(compact.contains("webhooks: (1 skipped, not shown; -v lists them)"), compact);
        assertTrue(compact.contains("a.example.com"), compact);
        assertFalse(compact.contains("b.example.com"), compact);
        String full = Reports.text(List.of(r), true);
        assertTrue(full.contains("b.example.com") && full.contains("skipped"), full);
        assertFalse(full.contains("not shown"), full);
        assertFalse(compact.contains("sent to no webhook"), "a webhook was called: " + compact);
    }

    /** A manifest no webhook rule matches says so in one line, also without -v (it would pass unseen otherwise). */
    @Test
    void aManifestSentToNoWebhookSaysWhy() {
        String compact = Reports.text(List.of(reviewPod(DELETE_ONLY)), false);
        assertTrue(compact.contains("\n  sent to no webhook: no rule matches CREATE v1 pods\n"), compact);
        assertEquals(1, compact.lines().filter(l -> l.contains("sent to no webhook")).count(), compact);
    }

    private static final String DELETE_ONLY = SimulatorTest.hook("b.example.com", "/b",
            "rules: [{operations: [DELETE], apiGroups: [\"\"], apiVersions: [v1], resources: [pods]}]");

    private ManifestReport reviewPod(String... hooks) {
        try (Simulator s = new Simulator(new Configurations(List.of(SimulatorTest.config(false, "v", hooks))), fake,
                new MatchConditionsSupport(KubeCel.standard()))) {
            return s.review(SimulatorTest.pod("web", ""), ReviewSettings.defaults());
        }
    }
}
