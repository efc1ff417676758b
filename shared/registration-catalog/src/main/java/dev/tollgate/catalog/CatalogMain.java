package dev.tollgate.catalog;

import java.nio.file.Path;

/** Command line: rewrites the committed catalog. Argument: the repository root (default: the working directory). */
public final class CatalogMain {

    private CatalogMain() {
    }

    public static void main(String[] args) {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        // An invalid registration throws, naming every problem, and nothing is written.
        Path written = RegistrationCatalog.write(root);
        var catalog = RegistrationCatalog.build(root);
        var functions = catalog.path("functions");
        var conversions = catalog.path("conversions");
        System.out.println("wrote " + written + " (" + functions.size() + " functions: "
                + String.join(", ", (Iterable<String>) functions::fieldNames)
                + (conversions.isEmpty() ? "" : "; conversion webhooks for " + conversions.size() + " CRDs: "
                        + String.join(", ", (Iterable<String>) conversions::fieldNames)) + ")");
    }
}
