package dev.tollgate.cel.admission;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.cel.PrecompiledExpressions;

/**
 * Policies baked into a function when it is built ({@code tollgate.<function>.baked-config}, read by
 * shared/policy-bake's build step): read, compiled and type checked at build time by the function's own start
 * ({@link Loader}), so a policy the API server would refuse fails the build in the API server's words. The build
 * keeps the documents, the type check's warnings and every compiled expression's checked AST
 * ({@link PrecompiledExpressions}) in a class path resource; at startup the function serves those documents before
 * its configuration files ({@link PolicyHost#readConfiguration(String, List)}), plans their expressions without
 * parsing or checking them again, and does not type check them again ({@link PolicyTypeChecker}).
 */
public final class BakedPolicies {

    /** A function's start, run by the build on the baked configuration. Found with {@link java.util.ServiceLoader}. */
    public interface Loader {

        /** The function, e.g. {@code cel-policy}; its build-time setting: {@code tollgate.<function>.baked-config}. */
        String function();

        /**
         * Reads, compiles and type checks the configuration as the function's start does, with the build's settings
         * (its {@code tollgate.<function>.*} keys: authorizer, namespaces, params).
         *
         * @return the type check's warnings, each on one line
         * @throws IllegalArgumentException (one line) for a configuration the function refuses to start with
         */
        List<String> load(List<String> config, Function<String, Optional<String>> settings);
    }

    /** A CEL function's load at startup: its configuration, authorizer setting and settings; warnings reported. */
    @FunctionalInterface
    public interface Start {
        void load(List<String> config, String authorizer, Function<String, Optional<String>> settings,
                Consumer<String> warnings);
    }

    /**
     * The {@link Loader} of a CEL function whose start is {@code start}: a function's service class extends it with a
     * no-argument constructor.
     */
    public abstract static class FunctionStart implements Loader {
        private final String function;
        private final Start start;

        protected FunctionStart(String function, Start start) {
            this.function = function;
            this.start = start;
        }

        @Override
        public String function() {
            return function;
        }

        @Override
        public List<String> load(List<String> config, Function<String, Optional<String>> settings) {
            String authorizer = settings.apply("tollgate." + function + ".authorizer").orElse("none");
            List<String> warnings = new ArrayList<>();
            start.load(config, authorizer, settings, warnings::add);
            return warnings;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private record Baked(List<ConfigFiles.Document> documents, List<String> warnings) {
    }

    /** Ends the source of every baked document: messages say where it came from, and {@link #isBaked} reads it. */
    private static final String BAKED_IN = " (baked in)";

    private static volatile Map<String, Baked> installed = Map.of();

    private BakedPolicies() {
    }

    /** Where a function's build keeps what it baked. */
    public static String resource(String function) {
        return "META-INF/tollgate/baked/" + function + ".json";
    }

    /**
     * Runs {@code loader} on {@code config} with {@code settings} and returns what the function's start will read
     * ({@link #install}).
     *
     * @param relativeTo sources in messages are named relative to it (the project folder)
     * @throws IllegalArgumentException what the loader throws for a configuration the function refuses
     */
    public static byte[] bake(Loader loader, List<Path> config, Path relativeTo,
            Function<String, Optional<String>> settings) {
        List<String> paths = config.stream().map(Path::toString).toList();
        PrecompiledExpressions.Recorded<List<String>> recorded =
                PrecompiledExpressions.record(() -> loader.load(paths, settings));
        ObjectNode out = JSON.createObjectNode();
        out.put("function", loader.function());
        var documents = out.putArray("documents");
        for (ConfigFiles.Document d : ConfigFiles.read(config)) {
            ObjectNode doc = documents.addObject();
            doc.put("source", relative(d.source(), relativeTo));
            doc.set("object", d.object());
        }
        var warnings = out.putArray("warnings");
        recorded.result().forEach(warnings::add);
        ObjectNode checked = out.putObject("checked");
        new java.util.TreeMap<>(recorded.checked()).forEach((k, v) -> checked.put(k,
                Base64.getEncoder().encodeToString(v)));
        try {
            return JSON.writeValueAsBytes(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String relative(String source, Path base) {
        String prefix = base.toAbsolutePath().normalize() + java.io.File.separator;
        return source.startsWith(prefix) ? source.substring(prefix.length()) : source;
    }

    /**
     * Makes what the functions' builds baked (their {@link #resource}s on {@code loader}'s class path) what their
     * starts read: the documents, the warnings and the checked expressions. A function without a resource has none.
     */
    public static void install(List<String> functions, ClassLoader loader) {
        Map<String, Baked> baked = new HashMap<>();
        Map<String, byte[]> checked = new HashMap<>();
        for (String function : functions) {
            try (InputStream in = loader.getResourceAsStream(resource(function))) {
                if (in == null) {
                    continue;
                }
                JsonNode root = JSON.readTree(in);
                List<ConfigFiles.Document> documents = new ArrayList<>();
                for (JsonNode d : root.path("documents")) {
                    documents.add(new ConfigFiles.Document((ObjectNode) d.get("object"),
                            d.path("source").asText() + BAKED_IN));
                }
                List<String> warnings = new ArrayList<>();
                root.path("warnings").forEach(w -> warnings.add(w.asText()));
                root.path("checked").fields().forEachRemaining(e -> checked.put(e.getKey(),
                        Base64.getDecoder().decode(e.getValue().asText())));
                baked.put(function, new Baked(List.copyOf(documents), List.copyOf(warnings)));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + resource(function) + ": " + e.getMessage(), e);
            }
        }
        PrecompiledExpressions.install(checked);
        installed = Map.copyOf(baked);
    }

    /** The documents baked into {@code function}, in their order; empty when none were. */
    public static List<ConfigFiles.Document> documents(String function) {
        Baked b = installed.get(function);
        return b == null ? List.of() : b.documents();
    }

    /** The type check's warnings on {@code function}'s baked documents, found when it was built. */
    public static List<String> warnings(String function) {
        Baked b = installed.get(function);
        return b == null ? List.of() : b.warnings();
    }

    /** Whether the document was baked in (and so checked when the function was built). */
    public static boolean isBaked(ConfigFiles.Document document) {
        return document.source().endsWith(BAKED_IN);
    }
}
