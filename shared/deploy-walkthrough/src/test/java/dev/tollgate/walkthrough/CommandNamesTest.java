package dev.tollgate.walkthrough;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the README checker reads in a block and finds missing, on a small repository of its own. */
class CommandNamesTest {

    @TempDir
    Path root;

    @BeforeEach
    void repository() throws IOException {
        write("pom.xml", "<project><profiles><profile>\n  <id>lambda</id></profile></profiles></project>");
        write("shared/simulator/pom.xml", "<project/>");
        write("shared/simulator/tollgate", "#!/bin/sh");
        write("shared/simulator/examples/pod.yaml", "kind: Pod");
        write("shared/simulator/src/test/java/dev/x/ReviewCommandTest.java", "class ReviewCommandTest {}");
        write("functions/pom.xml", "<project/>");
        write("mvnw", "#!/bin/sh");
    }

    @Test
    void namesThatExistPass() {
        assertEquals(List.of(), problems("""
                ./mvnw -B -q package -DskipTests -pl shared/simulator -am -Plambda
                ./mvnw -B verify -pl shared/simulator -Dtest='Review*Test' -Dsurefire.failIfNoSpecifiedTests=false
                shared/simulator/tollgate review shared/simulator/examples/ -o out/report.json
                (cd functions && ../mvnw -B verify -pl ../shared/simulator < /dev/null) &
                shared/simulator/tollgate review shared/simulator/examples/pod.yaml
                cd functions && ../mvnw -B verify -pl ../shared/simulator
                kubectl apply -f rbac/<name>.yaml   # placeholders and non-repository words are not checked
                docker push ghcr.io/acme/tollgate/require-labels:1.0
                cat shared/simulator/target/report.txt
                """));
    }

    @Test
    void goneNamesAreEachReported() {
        assertEquals(List.of(
                "README.md:3: -pl shared/simulatr: no module there (no shared/simulatr/pom.xml)",
                "README.md:3: -Pnative-lambda: no pom declares that profile",
                "README.md:3: -Dtest=ReviewTest: no test class matches it in [shared/simulator]",
                "README.md:3: shared/simulator/examples/deployment.yaml: no such file or folder (from the repository root)",
                "README.md:3: ./run.sh: no such file or folder (from functions)"),
                problems("""
                        ./mvnw -B verify -pl shared/simulatr -Pnative-lambda
                        ./mvnw -B verify -pl shared/simulator -Dtest=ReviewTest
                        shared/simulator/tollgate review shared/simulator/examples/deployment.yaml
                        cd functions
                        ./run.sh
                        """));
    }

    @Test
    void blocksAreTheCommandFencesWithTheirMarks() {
        CommandBlocks blocks = CommandBlocks.parse("""
                <!-- not run: needs a cluster -->
                ```bash
                kubectl get pods
                ```

                ```yaml
                kind: Pod
                ```

                ```
                ./mvnw -B verify
                ```

                ```
                DENIED (403): output, not a command
                ```
                """.lines().toList(), "README.md");
        assertEquals(2, blocks.blocks().size());
        assertEquals(new CommandBlocks.Mark("not run", "needs a cluster"), blocks.blocks().get(0).mark());
        assertEquals(null, blocks.blocks().get(1).mark());
        assertEquals(10, blocks.blocks().get(1).line());
    }

    private List<String> problems(String body) {
        return new CommandNames(root).check(new CommandBlocks.Block("README.md", 3, null, body.lines().toList()));
    }

    private void write(String path, String content) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }
}
