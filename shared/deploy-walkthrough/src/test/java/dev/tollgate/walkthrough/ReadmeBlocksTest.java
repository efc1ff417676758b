package dev.tollgate.walkthrough;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** What the walk-through takes from a README: the marked blocks' commands, continuations joined. */
class ReadmeBlocksTest {

    @Test
    void markedBlocksGiveTheirCommandsInOrder() {
        ReadmeBlocks blocks = ReadmeBlocks.parse("""
                Some prose.

                ```bash
                echo unmarked: not a walk-through block
                ```

                <!-- walkthrough: setup -->
                ```bash
                # a comment line
                kubectl create namespace tollgate

                java -jar deployer.jar deploy \\
                  --tag 1.0.0   # trailing comment stays for bash
                ```

                <!-- walkthrough: not run -->
                ```bash
                ./mvnw -Dnative package
                ```
                """.lines().toList(), "README.md");

        assertEquals(List.of("setup"), blocks.names());
        assertEquals(List.of("kubectl create namespace tollgate",
                "java -jar deployer.jar deploy    --tag 1.0.0   # trailing comment stays for bash"),
                blocks.block("setup"));
        assertEquals(1, blocks.notRun());
        assertTrue(assertThrows(IllegalStateException.class, () -> blocks.block("check")).getMessage()
                .contains("no block marked '<!-- walkthrough: check -->'; marked: [setup]"));
    }

    @Test
    void aMarkWithoutItsBlockOrAnUnclosedBlockIsAnError() {
        assertEquals("README.md:1: the walkthrough mark 'setup' is not directly followed by a fenced block",
                assertThrows(IllegalArgumentException.class, () -> ReadmeBlocks.parse(List.of(
                        "<!-- walkthrough: setup -->", "", "```bash", "ls", "```"), "README.md")).getMessage());
        assertEquals("README.md:2: the block 'setup' is not closed",
                assertThrows(IllegalArgumentException.class, () -> ReadmeBlocks.parse(List.of(
                        "<!-- walkthrough: setup -->", "```bash", "ls"), "README.md")).getMessage());
        assertEquals("README.md:4: a second block named 'setup'",
                assertThrows(IllegalArgumentException.class, () -> ReadmeBlocks.parse(List.of(
                        "<!-- walkthrough: setup -->", "```bash", "```", "<!-- walkthrough: setup -->", "```bash",
                        "```"), "README.md")).getMessage());
    }
}
