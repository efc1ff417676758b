package dev.tollgate.walkthrough;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs, as written, every README block marked {@code <!-- run by: SimulatorCommandsTest -->}: the simulator's
 * offline commands ({@code tollgate review}, {@code convert}, {@code test}) from the repository root, on the
 * repository's own files. The block's build line is the one this module's reactor has just run (it depends on the
 * simulator), so it is checked to be that build and not run again. Exit codes are the ones the simulator's README
 * documents: {@code review} 0, or 1 when it denied something; {@code convert} and {@code test} 0 (the shipped test
 * files pass); never 2 (bad input), which is what a renamed file or flag in a README gives.
 */
class SimulatorCommandsTest {

    static final String BUILD = "./mvnw -B -q package -DskipTests -pl shared/simulator -am";
    /** The READMEs with blocks for this test (each must have at least one, so a dropped mark is noticed). */
    static final List<String> READMES = List.of("shared/simulator/README.md",
            "functions/crd-conversion/README.md");

    @TempDir
    Path work;

    @Test
    void theReadmesSimulatorBlocksRunAsWritten() throws IOException {
        Path root = DeployWalkthroughTest.root();
        List<String> failures = new ArrayList<>();
        int ran = 0;
        for (String readme : READMES) {
            List<CommandBlocks.Block> blocks = CommandBlocks.parse(Files.readAllLines(root.resolve(readme)), readme)
                    .blocks().stream().filter(b -> b.mark() != null && b.mark().kind().equals("run by")
                            && b.mark().value().equals(getClass().getSimpleName())).toList();
            assertFalse(blocks.isEmpty(), readme + " has no block marked <!-- run by: SimulatorCommandsTest -->");
            for (CommandBlocks.Block block : blocks) {
                List<String> commands = new ArrayList<>();
                for (String c : block.commands()) {
                    if (c.startsWith("./mvnw")) {
                        assertEquals(BUILD, c.replaceFirst("\\s+#.*$", ""), block.where() + ":" + block.line()
                                + ": the only build a simulator block may run is the one this module's reactor ran");
                    } else {
                        commands.add(c);
                    }
                }
                ShellSession shell = new ShellSession(work.resolve("session-" + ran), root,
                        Map.of("PATH", System.getenv("PATH"), "HOME", work.toString(),
                                "JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString()));
                for (ShellSession.Step step : shell.run("block-" + ran, commands)) {
                    ran++;
                    if (!expected(step)) {
                        failures.add(block.where() + ":" + block.line() + ":\n" + step.describe());
                    }
                }
            }
        }
        System.out.println("SimulatorCommandsTest: " + ran + " README commands run");
        assertTrue(ran >= 5, "too few simulator commands found in " + READMES + ": " + ran);
        assertEquals("", String.join("\n\n", failures), "README simulator commands that did not run as documented");
    }

    private static boolean expected(ShellSession.Step step) {
        if (step.command().contains("tollgate review")) {
            return step.exit() == 0 || step.exit() == 1;
        }
        return step.exit() == 0;
    }
}
