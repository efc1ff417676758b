package dev.tollgate.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/** Reads Kubernetes objects from YAML or JSON text, files or classpath resources (JSON is valid YAML). */
public final class Manifests {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private Manifests() {
    }

    /** Parses one object from YAML or JSON text. */
    public static ObjectNode parse(String yamlOrJson) {
        try {
            JsonNode node = YAML.readTree(yamlOrJson);
            if (node == null || !node.isObject()) {
                throw new IllegalArgumentException("expected one Kubernetes object (a mapping)");
            }
            return (ObjectNode) node;
        } catch (IOException e) {
            throw new IllegalArgumentException("not valid YAML/JSON: " + e.getMessage(), e);
        }
    }

    public static ObjectNode read(Path file) {
        try {
            return parse(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** Reads a classpath resource, e.g. {@code "/pods/web.yaml"}. */
    public static ObjectNode resource(String name) {
        try (InputStream in = Manifests.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no classpath resource " + name);
            }
            return parse(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name, e);
        }
    }

    public static String toJson(JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
