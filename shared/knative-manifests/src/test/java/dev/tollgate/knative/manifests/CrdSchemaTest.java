package dev.tollgate.knative.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import dev.tollgate.knative.ServiceManifest;

/**
 * The committed manifests against the upstream Knative Serving Service CRD (../shared/fixtures/schemas), with a
 * JSON-schema validator. A CRD's API server prunes fields its schema does not declare; the test turns that
 * silent loss into an error by closing every object that does not preserve unknown fields.
 */
@Order(3)
class CrdSchemaTest {

    static JsonSchema schema;
    /** Why the schema checks cannot run (no fixture), or null. Checked in each test, so each counts as skipped. */
    static String missing;

    @BeforeAll
    static void loadSchema() throws IOException {
        String dir = System.getProperty("tollgate.fixtures.dir");
        if (dir == null) {
            missing = "tollgate.fixtures.dir is not set: run through Maven";
            return;
        }
        Path crd = Path.of(dir, "schemas", "knative-serving-service-crd.yaml");
        if (!Files.exists(crd)) {
            missing = "the Knative Serving CRD fixture is not at " + crd.toAbsolutePath().normalize()
                    + " (../shared/fixtures next to the checkout); skipping the schema checks";
            return;
        }
        JsonNode doc = new ObjectMapper(new YAMLFactory()).readTree(crd.toFile());
        JsonNode v1 = null;
        for (JsonNode version : doc.path("spec").path("versions")) {
            if (version.path("name").asText().equals("v1")) {
                v1 = version.path("schema").path("openAPIV3Schema");
            }
        }
        assertTrue(v1 != null && v1.isObject(), "no v1 openAPIV3Schema in " + crd);
        ObjectNode structural = v1.deepCopy();
        closeUnknownFields(structural);
        // OpenAPI v3 schemas in CRDs are a subset of draft 4 plus Kubernetes' x- extensions (removed above).
        schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4).getSchema(structural);
    }

    /** additionalProperties: false wherever the API server would prune, then drop the x-kubernetes-* keywords. */
    static void closeUnknownFields(ObjectNode s) {
        boolean preserve = s.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
        if (s.has("properties") && !s.has("additionalProperties") && !preserve) {
            s.put("additionalProperties", false);
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = s.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().startsWith("x-kubernetes-")) {
                it.remove();
            }
        }
        s.forEach(child -> {
            if (child instanceof ObjectNode o) {
                closeUnknownFields(o);
            } else if (child.isArray()) {
                child.forEach(x -> {
                    if (x instanceof ObjectNode o) {
                        closeUnknownFields(o);
                    }
                });
            }
        });
    }

    /** Skips the calling test, saying why on the console, when the CRD fixture is absent. */
    static void requireSchema(String test) {
        if (missing != null) {
            System.out.println("SKIPPED CrdSchemaTest." + test + ": " + missing);
        }
        assumeTrue(missing == null, missing);
    }

    static Set<String> validate(JsonNode service) {
        Set<String> out = new TreeSet<>();
        for (ValidationMessage m : schema.validate(service)) {
            out.add(m.getMessage());
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> committedManifestsMatchTheCrd() {
        if (missing != null) {
            // One skipped test in the counts rather than a factory that silently produces none.
            return Stream.of(dynamicTest("Knative Serving CRD fixture",
                    () -> requireSchema("committedManifestsMatchTheCrd")));
        }
        return Project.committedManifests().stream().map(m -> dynamicTest(m.source(), () ->
                assertEquals(Set.of(), validate(m.tree()), m.source() + " does not match the Knative Service CRD")));
    }

    @Test
    void aFieldTheApiServerWouldDropIsAnError() {
        requireSchema("aFieldTheApiServerWouldDropIsAnError");
        ServiceManifest m = ServiceManifest.readAll(Project.knativeDir()).get(0);
        ObjectNode tree = m.tree().deepCopy();
        ((ObjectNode) tree.path("spec").path("template").path("spec")).put("timeoutSecond", 5);
        Set<String> errors = validate(tree);
        assertTrue(errors.stream().anyMatch(e -> e.contains("timeoutSecond")), errors::toString);
    }

    @Test
    void aWrongTypeIsAnError() {
        requireSchema("aWrongTypeIsAnError");
        ServiceManifest m = ServiceManifest.readAll(Project.knativeDir()).get(0);
        ObjectNode tree = m.tree().deepCopy();
        ((ObjectNode) tree.path("spec").path("template").path("spec")).put("containerConcurrency", "many");
        Set<String> errors = validate(tree);
        assertTrue(errors.stream().anyMatch(e -> e.contains("containerConcurrency")), errors::toString);
    }
}
