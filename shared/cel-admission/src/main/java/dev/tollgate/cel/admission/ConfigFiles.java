package dev.tollgate.cel.admission;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/**
 * Reads the Kubernetes objects a policy function is configured with: YAML or JSON files (several documents per
 * file, separated by {@code ---}), or every such file in a directory, the way a ConfigMap or Secret is mounted.
 * {@code kind: List} (and any {@code *List} with {@code items}) is expanded into its items.
 */
public final class ConfigFiles {

    /** One object and where it came from, for error messages ({@code file#document}). */
    public record Document(ObjectNode object, String source) {

        public String apiVersion() {
            return object.path("apiVersion").asText("");
        }

        public String kind() {
            return object.path("kind").asText("");
        }

        public String name() {
            return object.path("metadata").path("name").asText("");
        }

        public String namespace() {
            return object.path("metadata").path("namespace").asText("");
        }

        /** {@code kind/name} (with the namespace when there is one) and the source, for messages. */
        public String describe() {
            return kind() + " '" + (namespace().isEmpty() ? "" : namespace() + "/") + name() + "' (" + source + ")";
        }
    }

    private static final ObjectMapper YAML = new ObjectMapper(
            YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());

    private ConfigFiles() {
    }

    /**
     * Reads every document from the given files and directories, in order (directory entries sorted by name).
     * Directory entries whose name starts with '.' are skipped: a mounted ConfigMap keeps its real files there
     * behind symbolic links.
     *
     * @throws IllegalArgumentException when a path does not exist, a file is not valid YAML, or a document is not an
     *                                  object
     */
    public static List<Document> read(List<Path> paths) {
        List<Document> out = new ArrayList<>();
        for (Path file : files(paths)) {
            out.addAll(readFile(file));
        }
        return out;
    }

    /**
     * The files {@link #read} reads, in its order: the given files, and the entries of the given directories (what dev
     * mode must watch to reload on a change).
     *
     * @throws IllegalArgumentException when a path does not exist
     */
    public static List<Path> files(List<Path> paths) {
        List<Path> out = new ArrayList<>();
        for (Path path : paths) {
            if (Files.isDirectory(path)) {
                out.addAll(list(path));
            } else if (Files.isRegularFile(path)) {
                out.add(path);
            } else {
                throw new IllegalArgumentException("configuration path " + path + " does not exist");
            }
        }
        return out;
    }

    /** Reads documents from YAML or JSON text; {@code source} names it in messages. */
    public static List<Document> parse(String text, String source) {
        return parse(new java.io.ByteArrayInputStream(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                source);
    }

    private static List<Document> readFile(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return parse(in, file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static List<Document> parse(InputStream in, String source) {
        List<Document> out = new ArrayList<>();
        int index = 0;
        try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(in)) {
            while (docs.hasNext()) {
                JsonNode doc = docs.next();
                index++;
                if (doc == null || doc.isNull() || doc.isMissingNode()
                        || doc.isTextual() && doc.asText().isEmpty()) {
                    continue; // an empty document, e.g. after a trailing --- (Jackson reads some as "")
                }
                String at = source + "#" + index;
                if (!doc.isObject()) {
                    throw new IllegalArgumentException(at + ": each document must be a Kubernetes object (a mapping)");
                }
                expand((ObjectNode) doc, at, out);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(source + ": not valid YAML: " + firstLine(e.getMessage()), e);
        } catch (RuntimeException e) {
            // MappingIterator.hasNext() reports a syntax error of a later document wrapped in a RuntimeException
            if (e.getCause() instanceof IOException io) {
                throw new IllegalArgumentException(source + ": not valid YAML: " + firstLine(io.getMessage()), e);
            }
            throw e;
        }
        return out;
    }

    private static void expand(ObjectNode doc, String at, List<Document> out) {
        String kind = doc.path("kind").asText("");
        if (kind.endsWith("List") && doc.has("items")) {
            JsonNode items = doc.get("items");
            if (!items.isArray()) {
                throw new IllegalArgumentException(at + ": items of a " + kind + " must be an array");
            }
            for (int i = 0; i < items.size(); i++) {
                if (!items.get(i).isObject()) {
                    throw new IllegalArgumentException(at + ".items[" + i + "]: expected an object");
                }
                out.add(new Document((ObjectNode) items.get(i), at + ".items[" + i + "]"));
            }
        } else {
            out.add(new Document(doc, at));
        }
    }

    private static List<Path> list(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.filter(p -> !p.getFileName().toString().startsWith("."))
                    .filter(p -> {
                        String n = p.getFileName().toString();
                        return n.endsWith(".yaml") || n.endsWith(".yml") || n.endsWith(".json");
                    })
                    .filter(Files::isRegularFile)
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir + ": " + e.getMessage(), e);
        }
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
