package dev.tollgate.walkthrough;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import dev.tollgate.testing.TerraformTree;

/**
 * A scratch "clone" of the repository for the walk-through, so that its commands write nothing into the checkout:
 * knative/ and terraform/ copied (without local Terraform state, variables or init output), and the deployer's
 * built jar linked where the README runs it from.
 */
final class Scratch {

    static final String DEPLOYER = "shared/knative-deployer/target/tollgate-knative.jar";

    private Scratch() {
    }

    static Path clone(Path root, Path dest) throws IOException {
        for (String dir : List.of("knative", "terraform")) {
            TerraformTree.copy(root.resolve(dir), dest.resolve(dir));
        }
        Path deployer = root.resolve(DEPLOYER);
        if (!Files.isRegularFile(deployer)) {
            throw new IllegalStateException(deployer + " is missing: build it first (./mvnw -B -q package -DskipTests "
                    + "-pl shared/knative-deployer -am)");
        }
        Files.createDirectories(dest.resolve(DEPLOYER).getParent());
        Files.createSymbolicLink(dest.resolve(DEPLOYER), deployer);
        return dest;
    }

    static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
