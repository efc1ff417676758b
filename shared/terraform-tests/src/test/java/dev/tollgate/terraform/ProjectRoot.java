package dev.tollgate.terraform;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository root and fixtures folder the build passes to tests (surefire properties). */
final class ProjectRoot {

    private ProjectRoot() {
    }

    static Path get() {
        String dir = System.getProperty("tollgate.root.dir");
        if (dir == null || dir.isBlank()) {
            throw new IllegalStateException("system property tollgate.root.dir is not set; run the tests through "
                    + "Maven from the repository (./mvnw -pl shared/terraform-tests verify)");
        }
        Path root = Path.of(dir).toAbsolutePath().normalize();
        if (!Files.isDirectory(root.resolve("terraform"))) {
            throw new IllegalStateException("tollgate.root.dir=" + root + " has no terraform/ folder");
        }
        return root;
    }

    static Path fixtures() {
        String dir = System.getProperty("tollgate.fixtures.dir");
        return Path.of(dir == null ? get().resolve("../shared/fixtures").toString() : dir).toAbsolutePath().normalize();
    }
}
