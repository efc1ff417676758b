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
        List<String> problems = new ArrayList<>();
        List<InputManifest> out = read(paths, problems);
        if (!problems.isEmpty()) {
            throw InputException.of("bad input", problems);
        }
        return out;
    }

    /** As {@link #read(List)}, but every problem of every file is added to {@code problems}, none thrown. */
    public static List<InputManifest> read(List<Path> paths, List<String> problems) {
        List<InputManifest> out = new ArrayList<>();
        for (Path path : paths) {
            if (Files.isDirectory(path)) {
                for (Path file : filesUnder(path)) {
                    readFile(file, out, problems);
                }
            } else if (Files.isRegularFile(path)) {
                readFile(path, out, problems);
            } else {
                problems.add(path + ": no such file or folder");
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

    private static void readFile(Path file, List<InputManifest> out, List<String> problems) {
        List<JsonNode> docs;
        try {
            docs = Yaml.readDocuments(file);
        } catch (InputException e) {
            problems.add(e.getMessage());
            return;
        }
        for (int i = 0; i < docs.size(); i++) {
            String source = docs.size() == 1 ? file.toString() : file + "#" + i;
            add(docs.get(i), source, out, problems);
        }
    }

    private static void add(JsonNode doc, String source, List<InputManifest> out, List<String> problems) {
        if (!doc.isObject()) {
            problems.add(source + ": expected a Kubernetes object (a mapping)");
            return;
        }
        String kind = doc.path("kind").asText("");
        if (kind.endsWith("List") && doc.path("items").isArray()) {
            int i = 0;
            for (JsonNode item : doc.path("items")) {
                add(item, source + "[" + i++ + "]", out, problems);
            }
            return;
        }
        List<String> missing = new ArrayList<>();
        if (doc.path("apiVersion").asText("").isEmpty()) {
            missing.add("apiVersion: required");
        }
        if (kind.isEmpty()) {
            missing.add("kind: required");
        }
        JsonNode md = doc.path("metadata");
        if (md.path("name").asText("").isEmpty() && md.path("generateName").asText("").isEmpty()) {
            missing.add("metadata.name or metadata.generateName: required");
        }
        if (!missing.isEmpty()) {
            missing.forEach(m -> problems.add(source + ": " + m));
            return;
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
