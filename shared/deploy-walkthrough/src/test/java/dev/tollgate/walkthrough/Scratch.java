package dev.tollgate.walkthrough;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

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
            copy(root.resolve(dir), dest.resolve(dir));
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

    private static void copy(Path source, Path dest) throws IOException {
        Files.walkFileTree(source, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                if (dir.getFileName().toString().equals(".terraform")) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                Files.createDirectories(dest.resolve(source.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                String name = file.getFileName().toString();
                boolean local = name.equals(".terraform.lock.hcl") || name.startsWith("terraform.tfstate")
                        || name.endsWith(".tfvars") || name.endsWith(".tfvars.json") || name.endsWith(".tfplan");
                if (!local) {
                    Files.copy(file, dest.resolve(source.relativize(file).toString()));
                }
                return FileVisitResult.CONTINUE;
            }
        });
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
