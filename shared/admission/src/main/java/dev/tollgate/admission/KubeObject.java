package dev.tollgate.admission;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A thin view over a Kubernetes object kept as a raw JSON tree. Accessors read the tree on demand, so fields the
 * code does not know are never lost. Read-only by contract: a mutating policy edits the copy it is handed instead.
 */
public final class KubeObject {

    private final ObjectNode json;

    private KubeObject(ObjectNode json) {
        this.json = Objects.requireNonNull(json, "json");
    }

    public static KubeObject of(ObjectNode json) {
        return new KubeObject(json);
    }

    /** The raw tree. Do not modify it: policies that change objects get a deep copy to edit. */
    public ObjectNode json() {
        return json;
    }

    public String apiVersion() {
        return json.path("apiVersion").asText("");
    }

    public String kind() {
        return json.path("kind").asText("");
    }

    public String name() {
        return metadata().path("name").asText("");
    }

    public String generateName() {
        return metadata().path("generateName").asText("");
    }

    public String namespace() {
        return metadata().path("namespace").asText("");
    }

    /** metadata.labels as an unmodifiable map (empty when absent). */
    public Map<String, String> labels() {
        return stringMap(metadata().path("labels"));
    }

    /** metadata.annotations as an unmodifiable map (empty when absent). */
    public Map<String, String> annotations() {
        return stringMap(metadata().path("annotations"));
    }

    /** The node at the given field path, or a missing node; never null. */
    public JsonNode at(String... fields) {
        JsonNode node = json;
        for (String field : fields) {
            node = node.path(field);
        }
        return node;
    }

    private JsonNode metadata() {
        return json.path("metadata");
    }

    /** Reads a JSON object of strings; non-string values are rendered as text so nothing is silently dropped. */
    public static Map<String, String> stringMap(JsonNode node) {
        if (!node.isObject() || node.isEmpty()) {
            return Map.of();
        }
        Map<String, String> out = new LinkedHashMap<>();
        node.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().isTextual() ? e.getValue().textValue()
                : e.getValue().toString()));
        return Collections.unmodifiableMap(out);
    }

    @Override
    public String toString() {
        return kind() + " " + (namespace().isEmpty() ? "" : namespace() + "/") + name();
    }
}
