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
 * name to the HTTPS base URL of its Knative Service, {@value #DEFAULT_URL} when the all-in-one bundle (which
 * serves every function's path) was deployed, and {@value #IMAGES}, the image each Service was deployed with (so
 * the Services Terraform applies keep it). The webhook-configurations module appends each webhook's path.
 * Entries of functions not deployed this time are kept, so deploying one function updates one entry.
 */
public final class TerraformInput {

    public static final String VARIABLE = "function_urls";
    public static final String DEFAULT_URL = "default_url";
    public static final String IMAGES = "images";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    private TerraformInput() {
    }

    /** What a file holds: the function URLs, the default URL (null when unset) and the image per Service. */
    public record Content(Map<String, String> functionUrls, String defaultUrl, Map<String, String> images) {
    }

    public static Content read(Path file) {
        Map<String, String> urls = new TreeMap<>();
        Map<String, String> images = new TreeMap<>();
        if (!Files.exists(file)) {
            return new Content(urls, null, images);
        }
        try {
            JsonNode root = JSON.readTree(file.toFile());
            JsonNode map = root == null ? null : root.get(VARIABLE);
            if (map == null || !map.isObject()) {
                throw new DeployException(file + " exists but has no '" + VARIABLE + "' object; refusing to "
                        + "overwrite it");
            }
            map.fields().forEachRemaining(e -> urls.put(e.getKey(), e.getValue().asText()));
            JsonNode def = root.get(DEFAULT_URL);
            root.path(IMAGES).fields().forEachRemaining(e -> images.put(e.getKey(), e.getValue().asText()));
            return new Content(urls, def == null || def.isNull() ? null : def.asText(), images);
        } catch (IOException e) {
            throw new DeployException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Merges {@code urls} (and {@code defaultUrl}, when not null) and {@code images} (Service name to image) into the
     * file, creating it and its folder when needed, and returns what the file now holds.
     */
    public static Content write(Path file, Map<String, String> urls, String defaultUrl, Map<String, String> images) {
        Content old = read(file);
        Map<String, String> all = new TreeMap<>(old.functionUrls());
        all.putAll(urls);
        Map<String, String> allImages = new TreeMap<>(old.images());
        allImages.putAll(images);
        String def = defaultUrl != null ? defaultUrl : old.defaultUrl();
        ObjectNode root = JSON.createObjectNode();
        ObjectNode map = root.putObject(VARIABLE);
        all.forEach(map::put);
        if (def != null) {
            root.put(DEFAULT_URL, def);
        }
        if (!allImages.isEmpty()) {
            allImages.forEach(root.putObject(IMAGES)::put);
        }
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, JSON.writeValueAsString(root) + "\n");
        } catch (IOException e) {
            throw new DeployException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return new Content(all, def, allImages);
    }
}
