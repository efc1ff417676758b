package dev.tollgate.walkthrough;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.FileVisitResult;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * Every README example that starts a function without a caller check ({@code -Dtollgate.auth.required=false})
 * binds its port and its management interface to loopback, so nothing else on the network can call it (the root
 * README's "run one function as a server" once listened on all interfaces with the check off).
 */
class ReadmeServerCommandsTest {

    private static final Set<String> SKIPPED_DIRS = Set.of("target", ".git", ".terraform", "node_modules");

    @Test
    void functionsStartedWithoutACallerCheckListenOnLoopbackOnly() throws IOException {
        List<String> unchecked = new ArrayList<>();
        List<String> open = new ArrayList<>();
        for (Path readme : readmes(DeployWalkthroughTest.root())) {
            for (String command : ReadmeBlocks.allCommands(Files.readAllLines(readme))) {
                if (!command.contains("-Dtollgate.auth.required=false")) {
                    continue;
                }
                unchecked.add(readme + ": " + command);
                if (!command.contains("-Dquarkus.http.host=127.0.0.1")
                        || !command.contains("-Dquarkus.management.host=127.0.0.1")) {
                    open.add(readme + ": " + command);
                }
            }
        }
        assertTrue(unchecked.size() >= 4, "the READMEs' servers without a caller check (functions/README.md, "
                + "crd-conversion, all-in-one, the simulator): " + unchecked);
        assertEquals(List.of(), open, "commands without a caller check that listen beyond loopback");
    }

    static List<Path> readmes(Path root) throws IOException {
        List<Path> out = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                return SKIPPED_DIRS.contains(dir.getFileName().toString()) ? FileVisitResult.SKIP_SUBTREE
                        : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (file.getFileName().toString().endsWith(".md")) {
                    out.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        out.sort(null);
        return out;
    }
}
