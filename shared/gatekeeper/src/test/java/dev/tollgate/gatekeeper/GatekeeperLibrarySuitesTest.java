package dev.tollgate.gatekeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import dev.tollgate.cel.KubeCel;
import dev.tollgate.gatekeeper.gator.GatorRunner;
import dev.tollgate.gatekeeper.gator.GatorSuite;
import dev.tollgate.testing.Skip;

/**
 * Every gator suite of the gatekeeper-library (../shared/fixtures/gatekeeper-library/library, read in place): each
 * template's cases pass, on the template's own CEL source or on Tollgate's library policy for its kind. One dynamic
 * test per suite; {@code -Dtollgate.gatekeeper.suite=<folder name>} runs the suites whose path contains it.
 */
class GatekeeperLibrarySuitesTest {

    static Path library() {
        String dir = System.getProperty("tollgate.fixtures.dir");
        return dir == null ? null : Path.of(dir, "gatekeeper-library", "library");
    }

    static List<Path> suites() throws IOException {
        Path root = library();
        String only = System.getProperty("tollgate.gatekeeper.suite", "");
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.getFileName().toString().equals("suite.yaml"))
                    .filter(p -> p.toString().contains(only)).sorted().toList();
        }
    }

    @TestFactory
    Stream<DynamicTest> everySuiteOfTheLibraryPasses() throws IOException {
        Path root = library();
        Skip.unless(root != null && Files.isDirectory(root), "GatekeeperLibrarySuitesTest",
                () -> "fixture " + (root == null ? "(tollgate.fixtures.dir is not set)"
                        : root.toAbsolutePath().normalize()) + " is absent");
        GatorRunner runner = new GatorRunner(KubeCel.standard());
        return suites().stream().map(suite -> DynamicTest.dynamicTest(root.relativize(suite.getParent()).toString(),
                () -> {
                    List<String> failures = new ArrayList<>();
                    int passed = 0;
                    for (GatorRunner.CaseResult r : runner.run(GatorSuite.read(suite))) {
                        passed += r.passed() ? 1 : 0;
                        if (!r.skipped() && !r.passed()) {
                            failures.add(r.test() + "/" + r.name() + ": " + r.error());
                        }
                    }
                    // The per-template table of the README's closing figures.
                    System.out.println("GATOR " + root.relativize(suite.getParent()) + ": " + passed + " passed, "
                            + failures.size() + " failed");
                    assertEquals(List.of(), failures, suite.toString());
                }));
    }
}
