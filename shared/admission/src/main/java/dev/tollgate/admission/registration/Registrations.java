package dev.tollgate.admission.registration;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/**
 * Reads {@code webhook.yaml} files: one YAML document per webhook entry ({@code ---} between entries), so one
 * function can declare several entries (for example one per mode and level).
 */
public final class Registrations {

    public static final String FILE_NAME = "webhook.yaml";
    /** Where a function's webhook.yaml is packaged, so the running function can read its own registration. */
    public static final String CLASSPATH_LOCATION = "META-INF/tollgate/webhook.yaml";

    private static final ObjectMapper YAML = new ObjectMapper(
            YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());

    private Registrations() {
    }

    /** Reads {@code functions/<name>/webhook.yaml}; the function name is the folder's name. */
    public static List<WebhookRegistration> load(Path webhookYaml) {
        String function = webhookYaml.toAbsolutePath().getParent().getFileName().toString();
        try (InputStream in = Files.newInputStream(webhookYaml)) {
            return read(function, in, webhookYaml.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + webhookYaml + ": " + e.getMessage(), e);
        }
    }

    /** Reads entries from a stream; {@code source} names it in error messages. */
    public static List<WebhookRegistration> read(String function, InputStream in, String source) {
        List<WebhookRegistration> out = new ArrayList<>();
        try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(in)) {
            while (docs.hasNext()) {
                JsonNode doc = docs.next();
                if (doc == null || doc.isNull() || doc.isMissingNode()) {
                    continue; // an empty document, e.g. after a trailing ---
                }
                if (!doc.isObject()) {
                    throw new IllegalArgumentException(source + ": each document must be a webhook entry (a mapping)");
                }
                out.add(new WebhookRegistration(function, (ObjectNode) doc));
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(source + ": not valid YAML: " + e.getMessage(), e);
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(source + ": declares no webhook entry");
        }
        return out;
    }

    /** Every {@code functions/<name>/webhook.yaml} under the project root, sorted by function name. */
    public static List<Path> findAll(Path functionsDir) {
        try (var dirs = Files.list(functionsDir)) {
            return dirs.map(d -> d.resolve(FILE_NAME)).filter(Files::isRegularFile).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + functionsDir, e);
        }
    }
}
