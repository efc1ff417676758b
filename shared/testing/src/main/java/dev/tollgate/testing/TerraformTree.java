package dev.tollgate.testing;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;

/** Copies a Terraform tree for a test to run in, leaving out what belongs to someone's own working copy. */
public final class TerraformTree {

    private TerraformTree() {
    }

    /**
     * Copies {@code source} to {@code dest} without init output ({@code .terraform/}, the lock file), state, plans or
     * variable files, so a test never picks up a developer's local state or credentials.
     */
    public static void copy(Path source, Path dest) throws IOException {
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
                if (!local(file.getFileName().toString())) {
                    Files.copy(file, dest.resolve(source.relativize(file).toString()),
                            StandardCopyOption.COPY_ATTRIBUTES);
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static boolean local(String name) {
        return name.equals(".terraform.lock.hcl") || name.startsWith("terraform.tfstate")
                || name.endsWith(".tfvars") || name.endsWith(".tfvars.json") || name.endsWith(".tfplan");
    }
}
