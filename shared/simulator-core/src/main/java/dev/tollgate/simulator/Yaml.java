package dev.tollgate.simulator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/** YAML (and JSON, which is YAML) in and out: multi-document files, and a stable rendering for diffs. */
public final class Yaml {

    private static final ObjectMapper READER = new ObjectMapper(
            YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());
    private static final ObjectMapper WRITER = new ObjectMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            .build());

    private Yaml() {
    }

    /** Every non-empty document of a file. */
    public static List<JsonNode> readDocuments(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new InputException("cannot read " + file + ": " + e.getMessage(), e);
        }
        List<JsonNode> docs = new ArrayList<>();
        try (MappingIterator<JsonNode> it = READER.readerFor(JsonNode.class).readValues(text)) {
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc != null && !doc.isNull() && !doc.isMissingNode()) {
                    docs.add(doc);
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new InputException(where(file, e) + ": not valid YAML or JSON: " + problem(e), e);
        }
        return docs;
    }

    public static String write(JsonNode node) {
        try {
            return WRITER.writeValueAsString(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code file:line:column} of a parse error (as compilers print it), or the file alone when unknown. */
    private static String where(Path file, Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof MarkedYAMLException y && y.getProblemMark() != null) {
                // SnakeYAML counts from 0; the problem mark is where it gave up (the context mark is where it began)
                return file + ":" + (y.getProblemMark().getLine() + 1) + ":" + (y.getProblemMark().getColumn() + 1);
            }
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof JsonProcessingException p && p.getLocation() != null && p.getLocation().getLineNr() > 0) {
                return file + ":" + p.getLocation().getLineNr() + ":" + p.getLocation().getColumnNr();
            }
        }
        return file.toString();
    }

    /** What is wrong, without the location and source excerpt the parsers append. */
    private static String problem(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof MarkedYAMLException y && y.getProblem() != null) {
                return y.getProblem();
            }
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof JsonProcessingException p) {
                return firstLine(p.getOriginalMessage());
            }
        }
        return firstLine(e.getMessage());
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
