package dev.tollgate.catalog;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository root the build passes to tests (surefire property {@code tollgate.root.dir}). */
final class ProjectRoot {

    private ProjectRoot() {
    }

    static Path get() {
        String dir = System.getProperty("tollgate.root.dir");
        if (dir == null || dir.isBlank()) {
            throw new IllegalStateException("system property tollgate.root.dir is not set; run the tests through "
                    + "Maven from the repository (./mvnw -pl shared/registration-catalog verify)");
        }
        Path root = Path.of(dir).toAbsolutePath().normalize();
        if (!Files.isDirectory(root.resolve("functions"))) {
            throw new IllegalStateException("tollgate.root.dir=" + root + " has no functions/ folder");
        }
        return root;
    }
}
