package dev.tollgate.walkthrough;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Every command block of every README says who runs it (a mark on the line before its fence, see {@link
 * CommandBlocks}), and the names it uses exist ({@link CommandNames}): a block a newcomer copies either runs in a
 * test or says what it needs that a test machine lacks, and none names a module, test, profile or file that is gone.
 * The archetype's README template ({@code archetype-resources}) and the READMEs it generates (a new function's,
 * such as the README's {@code functions/deny-latest-tag}) are left out: their commands run in the generated project,
 * where the archetype's own integration tests run them.
 */
class ReadmeCommandBlocksTest {

    /** The line every README generated from the archetype has (its template's first paragraph). */
    static final String GENERATED = "generated from the Tollgate archetype";

    @Test
    void everyCommandBlockIsMarkedAndNamesWhatExists() throws IOException {
        Path root = DeployWalkthroughTest.root();
        CommandNames names = new CommandNames(root);
        List<String> problems = new ArrayList<>();
        int blocks = 0;
        for (Path readme : ReadmeServerCommandsTest.readmes(root)) {
            String relative = root.relativize(readme).toString();
            if (relative.contains("archetype-resources/") || Files.readString(readme).contains(GENERATED)) {
                continue;
            }
            for (CommandBlocks.Block block : CommandBlocks.parse(Files.readAllLines(readme), relative).blocks()) {
                blocks++;
                problems.addAll(markProblems(root, relative, block));
                problems.addAll(names.check(block));
            }
        }
        System.out.println("ReadmeCommandBlocksTest: " + blocks + " command blocks in the READMEs checked");
        assertTrue(blocks > 50, "the READMEs' command blocks were not found: " + blocks);
        assertEquals("", String.join("\n", problems), "README command blocks to fix");
    }

    static List<String> markProblems(Path root, String readme, CommandBlocks.Block block) {
        String at = block.where() + ":" + block.line() + ": ";
        CommandBlocks.Mark mark = block.mark();
        if (mark == null || !CommandBlocks.KINDS.contains(mark.kind())) {
            return List.of(at + "a command block without a mark on the line before its fence: <!-- walkthrough: STEP -->,"
                    + " <!-- run by: TestClass --> (or a script: .ci/run: STEP) or <!-- not run: needs WHAT -->");
        }
        switch (mark.kind()) {
            case "walkthrough":
                return readme.equals("README.md") ? List.of()
                        : List.of(at + "walkthrough marks are read from README.md only (DeployWalkthroughTest)");
            case "not run":
                return mark.value().split("\\s+").length >= 3 ? List.of()
                        : List.of(at + "say why the block is not run (what it needs that a test machine lacks): "
                                + "<!-- not run: needs ... -->");
            default:
                String runner = mark.value().replaceFirst(":.*$", "");
                if (runner.contains("/")) { // a script of the repository (.ci/run: STEP), which reads the block itself
                    return Files.isRegularFile(root.resolve(runner)) ? List.of()
                            : List.of(at + "run by " + runner + ": no such script");
                }
                Optional<Path> test = testSource(root, runner);
                if (test.isEmpty()) {
                    return List.of(at + "run by " + runner + ": no such test class");
                }
                try {
                    return Files.readString(test.get()).contains('"' + readme + '"') ? List.of()
                            : List.of(at + "run by " + runner + ": that test does not read " + readme);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
        }
    }

    private static Optional<Path> testSource(Path root, String simpleName) {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.getFileName().toString().equals(simpleName + ".java"))
                    .filter(p -> p.toString().contains("/src/test/") || p.toString().contains("/src/it/"))
                    .filter(p -> !p.toString().contains("/target/")).findFirst();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
