package dev.tollgate.gatekeeper;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.tollgate.cel.admission.ConfigFiles;

/**
 * Tollgate's CEL policies for the gatekeeper-library's Rego-only templates, one resource per constraint kind:
 * {@code dev/tollgate/gatekeeper/library/<kind in lower case>.yaml}, a ConstraintTemplate whose only code is a
 * {@code K8sNativeValidation} source (which may use {@code violationsExpression}). Looked up by kind when a user's
 * template has no CEL source of its own, read once per kind. A native executable needs the folder among its resources
 * ({@code quarkus.native.resources.includes}).
 */
public final class TollgateLibrary {

    public static final String FOLDER = "dev/tollgate/gatekeeper/library/";

    /** One library policy: its CEL and the resource it came from. */
    public record Entry(CelSource source, String file) {
    }

    private static final TollgateLibrary BUILT_IN = new TollgateLibrary(TollgateLibrary.class.getClassLoader());

    private final ClassLoader loader;
    private final Map<String, java.util.Optional<Entry>> byKind = new ConcurrentHashMap<>();

    TollgateLibrary(ClassLoader loader) {
        this.loader = loader;
    }

    /** The library shipped in this jar. */
    public static TollgateLibrary builtIn() {
        return BUILT_IN;
    }

    /**
     * The library policy for {@code kind}, or null when there is none.
     *
     * @throws IllegalStateException when the library's own file is broken (a build that ships it fails its tests)
     */
    public Entry find(String kind) {
        return byKind.computeIfAbsent(kind.toLowerCase(Locale.ROOT), this::load).orElse(null);
    }

    private java.util.Optional<Entry> load(String lowerKind) {
        String file = FOLDER + lowerKind + ".yaml";
        String text;
        try (InputStream in = loader.getResourceAsStream(file)) {
            if (in == null) {
                return java.util.Optional.empty();
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file + ": " + e.getMessage(), e);
        }
        List<ConfigFiles.Document> docs = ConfigFiles.parse(text, file);
        List<String> errors = new ArrayList<>();
        if (docs.size() != 1 || !ConstraintTemplate.isTemplate(docs.get(0))) {
            throw new IllegalStateException(file + ": expected one ConstraintTemplate");
        }
        ConfigFiles.Document doc = docs.get(0);
        String kind = doc.object().path("spec").path("crd").path("spec").path("names").path("kind").asText("");
        if (!kind.toLowerCase(Locale.ROOT).equals(lowerKind)) {
            throw new IllegalStateException(file + ": defines kind '" + kind + "', not the kind its name says");
        }
        var code = doc.object().path("spec").path("targets").path(0).path("code");
        if (code.size() != 1 || !ConstraintTemplate.CEL_ENGINE.equals(code.get(0).path("engine").asText())) {
            throw new IllegalStateException(file + ": expected exactly one code entry, engine "
                    + ConstraintTemplate.CEL_ENGINE);
        }
        CelSource source = CelSource.parse(code.get(0).path("source"), file + ": source", true, errors);
        if (source == null) {
            throw new IllegalStateException(String.join("; ", errors));
        }
        return java.util.Optional.of(new Entry(source, file));
    }
}
