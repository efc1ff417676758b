package dev.tollgate.walkthrough;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/**
 * Knative Serving's Service CRD as published, made acceptable to kube-apiserver v1.20: that version refuses the
 * empty-string defaults of its optional name fields ({@code default: Invalid value: "null": in body must be of type
 * string}), so they are dropped; where such a field is a key of an {@code x-kubernetes-list-type: map} list, v1.20
 * then requires it to be required (or defaulted), so it is made required. Nothing else changes: the Services the
 * walk-through applies are validated against the rest of Knative's schema.
 */
final class KnativeCrd {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private KnativeCrd() {
    }

    /** Writes the adapted CRD to {@code out}; returns the schema paths whose default was dropped. */
    static List<String> forV120(Path crd, Path out) throws IOException {
        JsonNode root = YAML.readTree(crd.toFile());
        List<String> dropped = new ArrayList<>();
        for (JsonNode version : root.path("spec").path("versions")) {
            adapt(version.path("schema").path("openAPIV3Schema"), "", dropped);
        }
        Files.writeString(out, YAML.writeValueAsString(root));
        return dropped;
    }

    private static void adapt(JsonNode schema, String path, List<String> dropped) {
        if (!(schema instanceof ObjectNode node)) {
            return;
        }
        JsonNode properties = node.path("properties");
        for (Iterator<Map.Entry<String, JsonNode>> it = properties.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> p = it.next();
            if (p.getValue() instanceof ObjectNode child && child.path("default").isTextual()
                    && child.path("default").asText().isEmpty()) {
                child.remove("default");
                dropped.add(path + "." + p.getKey());
            }
            adapt(p.getValue(), path + "." + p.getKey(), dropped);
        }
        JsonNode items = node.path("items");
        adapt(items, path + "[]", dropped);
        if (items instanceof ObjectNode itemNode) {
            for (JsonNode key : node.path("x-kubernetes-list-map-keys")) {
                if (!itemNode.path("properties").path(key.asText()).has("default")) {
                    ArrayNode required = itemNode.has("required") ? (ArrayNode) itemNode.get("required")
                            : itemNode.putArray("required");
                    boolean listed = false;
                    for (JsonNode r : required) {
                        listed |= r.asText().equals(key.asText());
                    }
                    if (!listed) {
                        required.add(key.asText());
                    }
                }
            }
        }
        JsonNode additional = node.path("additionalProperties");
        adapt(additional, path + "{}", dropped);
    }
}
