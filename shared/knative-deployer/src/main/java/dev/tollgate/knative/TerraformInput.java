package dev.tollgate.knative;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The deployer's output for Terraform: a {@code *.tfvars.json} file setting {@value #VARIABLE}, a map from function
 * name to the HTTPS base URL of its Knative Service. The webhook-configurations module appends each webhook's
 * path. Entries of functions not deployed this time are kept, so deploying one function updates one entry.
 */
public final class TerraformInput {

    public static final String VARIABLE = "function_urls";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    private TerraformInput() {
    }

    public static Map<String, String> read(Path file) {
        Map<String, String> urls = new TreeMap<>();
        if (!Files.exists(file)) {
            return urls;
        }
        try {
            JsonNode root = JSON.readTree(file.toFile());
            JsonNode map = root == null ? null : root.get(VARIABLE);
            if (map == null || !map.isObject()) {
                throw new DeployException(file + " exists but has no '" + VARIABLE + "' object; refusing to "
                        + "overwrite it");
            }
            map.fields().forEachRemaining(e -> urls.put(e.getKey(), e.getValue().asText()));
            return urls;
        } catch (IOException e) {
            throw new DeployException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** Merges {@code urls} into the file (creating it and its folder when needed) and returns the full map. */
    public static Map<String, String> write(Path file, Map<String, String> urls) {
        Map<String, String> all = read(file);
        all.putAll(urls);
        ObjectNode root = JSON.createObjectNode();
        ObjectNode map = root.putObject(VARIABLE);
        all.forEach(map::put);
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, JSON.writeValueAsString(root) + "\n");
        } catch (IOException e) {
            throw new DeployException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return all;
    }
}
