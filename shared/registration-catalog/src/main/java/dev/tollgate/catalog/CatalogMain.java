package dev.tollgate.catalog;

import java.nio.file.Path;

/**
 * Command line: rewrites the committed catalog. Arguments: the repository root (default: the working directory), then
 * {@code --add-new} to add new functions only ({@link RegistrationCatalog#addNew}), as the build does.
 */
public final class CatalogMain {

    private CatalogMain() {
    }

    public static void main(String[] args) {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        if (args.length > 1 && args[1].equals("--add-new")) {
            // The build's step (pom.xml): new functions only; drift of existing ones is CatalogTest's to report.
            var added = RegistrationCatalog.addNew(root);
            if (!added.isEmpty()) {
                System.out.println("added " + String.join(", ", added) + " to " + RegistrationCatalog.CATALOG_PATH
                        + " (new in functions/; commit it with them)");
            }
            return;
        }
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
