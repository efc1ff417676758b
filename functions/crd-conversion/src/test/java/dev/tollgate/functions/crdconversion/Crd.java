package dev.tollgate.functions.crdconversion;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/**
 * The module's crd.yaml, and a check of objects against a version's structural schema (the subset this CRD uses:
 * type, properties, required, enum, minimum, x-kubernetes-preserve-unknown-fields), so tests can tell that a
 * converted object loses nothing to pruning and would pass validation.
 */
final class Crd {

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    static final Path FILE = Path.of("crd.yaml");
    static final JsonNode CRD = read(FILE);

    private Crd() {
    }

    static JsonNode read(Path file) {
        try {
            return YAML.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file.toAbsolutePath(), e);
        }
    }

    static JsonNode version(String name) {
        for (JsonNode v : CRD.path("spec").path("versions")) {
            if (v.path("name").asText().equals(name)) {
                return v;
            }
        }
        throw new IllegalArgumentException("crd.yaml has no version " + name);
    }

    static JsonNode schema(String version) {
        return version(version).path("schema").path("openAPIV3Schema");
    }

    /** Problems of {@code object}'s spec and status against {@code version}'s schema; empty when valid. */
    static List<String> problems(String version, JsonNode object) {
        List<String> out = new ArrayList<>();
        JsonNode schema = schema(version);
        for (String field : List.of("spec", "status")) {
            if (object.has(field)) {
                check(schema.path("properties").path(field), object.get(field), field, out);
            }
        }
        return out;
    }

    private static void check(JsonNode schema, JsonNode value, String path, List<String> out) {
        if (schema.isMissingNode()) {
            out.add(path + ": not in the schema (the API server would prune it)");
            return;
        }
        String type = schema.path("type").asText();
        boolean ok = switch (type) {
            case "object" -> value.isObject();
            case "string" -> value.isTextual();
            case "integer" -> value.isIntegralNumber();
            default -> true;
        };
        if (!ok) {
            out.add(path + ": expected " + type + ", got " + value.getNodeType());
            return;
        }
        if (schema.has("enum")) {
            boolean listed = false;
            for (JsonNode e : schema.get("enum")) {
                listed |= e.equals(value);
            }
            if (!listed) {
                out.add(path + ": " + value + " is not one of " + schema.get("enum"));
            }
        }
        if (schema.has("minimum") && value.isNumber() && value.asLong() < schema.get("minimum").asLong()) {
            out.add(path + ": below the minimum");
        }
        if (!value.isObject()) {
            return;
        }
        for (JsonNode required : schema.path("required")) {
            if (!value.has(required.asText())) {
                out.add(path + "." + required.asText() + ": required");
            }
        }
        if (schema.path("x-kubernetes-preserve-unknown-fields").asBoolean()) {
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext();) {
            var e = it.next();
            check(schema.path("properties").path(e.getKey()), e.getValue(), path + "." + e.getKey(), out);
        }
    }
}
