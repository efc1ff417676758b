package dev.tollgate.knative.manifests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

import dev.tollgate.knative.ImageRef;
import dev.tollgate.knative.ServiceManifest;

/**
 * The JVM variant of a function's Knative Service ({@code knative/jvm/<name>.yaml}): the manifest the build renders
 * for the native executable (the default, {@code knative/<name>.yaml}), with what a JVM needs instead of the native
 * settings. Everything else (probes, scaling, volumes, timeouts) is the rendered manifest's, so the two cannot drift.
 */
final class JvmVariant {

    /**
     * Exit on OutOfMemoryError, so Knative restarts a poisoned instance instead of keeping a half-dead one (an OOM in
     * Vert.x's acceptor thread stops all accepting); half of the container's memory limit as heap, the other half for
     * metaspace, code, threads and Netty's buffers; C1 only, so a function scaled from zero starts sooner and serves
     * more in its first 10 s (knative/cold-start/README.md). Any JVM launcher reads JAVA_TOOL_OPTIONS.
     */
    static final String JAVA_TOOL_OPTIONS = "-XX:+ExitOnOutOfMemoryError -XX:MaxRAMPercentage=50 "
            + "-XX:TieredStopAtLevel=1";
    /** A started JVM-mode function holds about 100 MiB (knative/cold-start/README.md, "JVM fast-jar alone"). */
    static final String MEMORY_REQUEST = "192Mi";
    /** Twice the request: 192 MiB of heap at 50 %, from which the in-flight body budget is 9 MiB. */
    static final String MEMORY_LIMIT = "384Mi";
    /** The JVM image's tag: the project version plus this (-Dquarkus.container-image.tag=<version>-jvm). */
    static final String TAG_SUFFIX = "-jvm";

    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .build());

    private JvmVariant() {
    }

    static Path dir() {
        return Project.knativeDir().resolve("jvm");
    }

    static Path manifest(String function) {
        return dir().resolve(function + ".yaml");
    }

    /** The JVM variant of a native manifest, as YAML. */
    static String of(ServiceManifest nativeManifest) {
        ObjectNode tree = nativeManifest.tree().deepCopy();
        ObjectNode c = (ObjectNode) tree.path("spec").path("template").path("spec").path("containers").get(0);
        c.remove("args"); // the native executable's heap bound: the JVM takes its heap from JAVA_TOOL_OPTIONS
        ImageRef image = ImageRef.parse(c.path("image").asText());
        c.put("image", image.withTag(image.tag() + TAG_SUFFIX).toString());
        ArrayNode env = c.withArray("env");
        env.insertObject(0).put("name", "JAVA_TOOL_OPTIONS").put("value", JAVA_TOOL_OPTIONS);
        ObjectNode resources = c.withObject("resources");
        resources.withObject("requests").put("memory", MEMORY_REQUEST);
        resources.withObject("limits").put("memory", MEMORY_LIMIT);
        try {
            return YAML.writeValueAsString(tree);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
