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

    /** The refusal of a suite's template that neither has CEL nor a library policy, else null. */
    static String refusal(GatorSuite suite) {
        for (GatorSuite.Test t : suite.tests()) {
            var docs = dev.tollgate.cel.admission.ConfigFiles.read(List.of(suite.file().toAbsolutePath().getParent()
                    .resolve(t.template())));
            List<String> errors = new ArrayList<>();
            ConstraintTemplate.parse(docs.get(0), errors);
            if (errors.stream().anyMatch(e -> e.contains("Tollgate's library has no policy"))) {
                return "no CEL source and no library policy yet for " + docs.get(0).name();
            }
        }
        return null;
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
                    GatorSuite read = GatorSuite.read(suite);
                    String refused = refusal(read);
                    // Until each Rego-only template has its library policy: the template is refused at load (the
                    // behaviour a user gets), and the suite says so instead of failing.
                    Skip.unless(refused == null, "GatekeeperLibrarySuitesTest." + suite.getParent().getFileName(),
                            () -> refused);
                    List<String> failures = new ArrayList<>();
                    for (GatorRunner.CaseResult r : runner.run(read)) {
                        if (!r.skipped() && !r.passed()) {
                            failures.add(r.test() + "/" + r.name() + ": " + r.error());
                        }
                    }
                    assertEquals(List.of(), failures, suite.toString());
                }));
    }
}
