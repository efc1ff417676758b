package dev.tollgate.simulator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One Kubernetes object to review, and where it came from ({@code file} or {@code file#2} for the third document).
 */
public record InputManifest(String source, ObjectNode object) {

    /**
     * Reads manifests from files and folders (folders: every *.yaml, *.yml and *.json below, sorted by path). Each
     * YAML document is one object; a {@code kind: List} (or any {@code *List}) contributes its items.
     */
    public static List<InputManifest> read(List<Path> paths) {
        List<InputManifest> out = new ArrayList<>();
        for (Path path : paths) {
            if (Files.isDirectory(path)) {
                for (Path file : filesUnder(path)) {
                    readFile(file, out);
                }
            } else if (Files.isRegularFile(path)) {
                readFile(path, out);
            } else {
                throw new InputException(path + ": no such file or folder");
            }
        }
        return out;
    }

    private static List<Path> filesUnder(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).filter(p -> {
                String n = p.getFileName().toString();
                return n.endsWith(".yaml") || n.endsWith(".yml") || n.endsWith(".json");
            }).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    private static void readFile(Path file, List<InputManifest> out) {
        List<JsonNode> docs = Yaml.readDocuments(file);
        for (int i = 0; i < docs.size(); i++) {
            String source = docs.size() == 1 ? file.toString() : file + "#" + i;
            add(docs.get(i), source, out);
        }
    }

    private static void add(JsonNode doc, String source, List<InputManifest> out) {
        if (!doc.isObject()) {
            throw new InputException(source + ": expected a Kubernetes object (a mapping)");
        }
        String kind = doc.path("kind").asText("");
        if (kind.endsWith("List") && doc.path("items").isArray()) {
            int i = 0;
            for (JsonNode item : doc.path("items")) {
                add(item, source + "[" + i++ + "]", out);
            }
            return;
        }
        List<String> problems = new ArrayList<>();
        if (doc.path("apiVersion").asText("").isEmpty()) {
            problems.add("apiVersion: required");
        }
        if (kind.isEmpty()) {
            problems.add("kind: required");
        }
        JsonNode md = doc.path("metadata");
        if (md.path("name").asText("").isEmpty() && md.path("generateName").asText("").isEmpty()) {
            problems.add("metadata.name or metadata.generateName: required");
        }
        if (!problems.isEmpty()) {
            throw InputException.of(source + ": not a usable Kubernetes object", problems);
        }
        out.add(new InputManifest(source, (ObjectNode) doc));
    }

    public String apiVersion() {
        return object.path("apiVersion").asText();
    }

    public String kind() {
        return object.path("kind").asText();
    }

    public String name() {
        return object.path("metadata").path("name").asText("");
    }

    public String namespace() {
        return object.path("metadata").path("namespace").asText("");
    }
}
