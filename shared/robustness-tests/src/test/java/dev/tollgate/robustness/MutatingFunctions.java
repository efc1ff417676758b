package dev.tollgate.robustness;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.tollgate.admission.MutatingPolicy;
import dev.tollgate.functions.alwayspullimages.AlwaysPullImages;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.Namespaces;
import dev.tollgate.functions.celmutate.CelMutate;
import dev.tollgate.functions.celmutate.MutatingPolicies;

/**
 * Every mutating function in functions/, by name, built as the function builds it (default configuration).
 * {@link MutatingFunctionsCoverageTest} fails when a function's webhook.yaml declares a mutating entry that is
 * missing here, so a new mutating function cannot skip the properties.
 */
final class MutatingFunctions {

    static final Map<String, Supplier<MutatingPolicy>> ALL = Map.of(
            "always-pull-images", () -> new AlwaysPullImages(true),
            // The function's shipped examples (sidecar, owner label); namespaces not listed there have only their
            // name label (the function's default, unknown-namespace=empty).
            "cel-mutate", () -> new CelMutate(MutatingPolicies.load(ConfigFiles.read(List.of(
                    root().resolve("functions/cel-mutate/examples"))), CelMutate.environment("none"),
                    Namespaces.Unknown.EMPTY)));

    private static Path root() {
        return Path.of(System.getProperty("tollgate.root.dir", "../.."));
    }

    private MutatingFunctions() {
    }
}
