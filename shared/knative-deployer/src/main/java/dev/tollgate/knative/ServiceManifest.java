package dev.tollgate.knative;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/**
 * One Knative Service manifest ({@code knative/<name>.yaml}) as a raw JSON tree. Fields whose value is {@code null}
 * are dropped on reading, as the API server prunes them for a CRD (quarkus-kubernetes writes {@code port: null} in
 * Knative probes), so every consumer sees what the cluster would store.
 *
 * @param source where it was read from, for messages
 * @param tree   the Service object
 */
public record ServiceManifest(String source, ObjectNode tree) {

    public static final String API_VERSION = "serving.knative.dev/v1";
    public static final String KIND = "Service";

    private static final ObjectMapper YAML = new ObjectMapper(
            YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());

    /** Reads a file holding exactly one Knative Service (a leading {@code ---} is fine). */
    public static ServiceManifest read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        return parse(text, file.toString());
    }

    public static ServiceManifest parse(String yaml, String source) {
        List<JsonNode> docs = new ArrayList<>();
        try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(yaml)) {
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc != null && !doc.isNull() && !doc.isMissingNode()) {
                    docs.add(doc);
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(source + ": not valid YAML: " + e.getMessage(), e);
        }
        if (docs.size() != 1) {
            throw new IllegalArgumentException(source + ": expected exactly one Knative Service, found " + docs.size()
                    + " documents");
        }
        if (!(docs.get(0) instanceof ObjectNode service)) {
            throw new IllegalArgumentException(source + ": the document is not a mapping");
        }
        if (!API_VERSION.equals(service.path("apiVersion").asText()) || !KIND.equals(service.path("kind").asText())) {
            throw new IllegalArgumentException(source + ": expected apiVersion " + API_VERSION + " and kind " + KIND
                    + ", got " + service.path("apiVersion").asText("(none)") + " " + service.path("kind").asText("(none)"));
        }
        if (service.path("metadata").path("name").asText("").isEmpty()) {
            throw new IllegalArgumentException(source + ": metadata.name is missing");
        }
        pruneNulls(service);
        return new ServiceManifest(source, service);
    }

    /** Every {@code knative/*.yaml} in a folder, sorted by file name. */
    public static List<ServiceManifest> readAll(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("no manifest folder at " + dir.toAbsolutePath());
        }
        try (var files = Files.list(dir)) {
            List<ServiceManifest> out = files.filter(f -> f.getFileName().toString().endsWith(".yaml"))
                    .sorted().map(ServiceManifest::read).toList();
            if (out.isEmpty()) {
                throw new IllegalArgumentException("no *.yaml manifests in " + dir.toAbsolutePath());
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir + ": " + e.getMessage(), e);
        }
    }

    public String name() {
        return tree.path("metadata").path("name").asText();
    }

    public ObjectNode template() {
        return object(tree, "spec", "template");
    }

    public Map<String, String> templateAnnotations() {
        return strings(tree.path("spec").path("template").path("metadata").path("annotations"));
    }

    /** The serving container (Knative allows one container with a port; the first one here). */
    public ObjectNode container() {
        JsonNode containers = tree.path("spec").path("template").path("spec").path("containers");
        if (!(containers instanceof ArrayNode list) || list.isEmpty() || !(list.get(0) instanceof ObjectNode c)) {
            throw new IllegalArgumentException(source + ": spec.template.spec.containers is empty");
        }
        return c;
    }

    public String image() {
        return container().path("image").asText("");
    }

    /** {@code spec.template.spec.timeoutSeconds}, or -1 when not set (Knative then uses its cluster default). */
    public int timeoutSeconds() {
        return tree.path("spec").path("template").path("spec").path("timeoutSeconds").asInt(-1);
    }

    public ServiceManifest copy() {
        return new ServiceManifest(source, tree.deepCopy());
    }

    static Map<String, String> strings(JsonNode node) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        node.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    private static ObjectNode object(JsonNode root, String... path) {
        JsonNode n = root;
        for (String p : path) {
            n = n.path(p);
        }
        if (!(n instanceof ObjectNode o)) {
            throw new IllegalArgumentException("missing " + String.join(".", path));
        }
        return o;
    }

    static void pruneNulls(JsonNode node) {
        if (node instanceof ObjectNode o) {
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getValue().isNull()) {
                    it.remove();
                } else {
                    pruneNulls(e.getValue());
                }
            }
        } else if (node instanceof ArrayNode a) {
            a.forEach(ServiceManifest::pruneNulls);
        }
    }
}
