package dev.tollgate.gatekeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.gatekeeper.gator.GatorRunner;
import dev.tollgate.gatekeeper.gator.GatorSuite;

/**
 * Tollgate's library policies for the gatekeeper-library's general/ templates (allowedrepos to disallowanonymous) on
 * the edges their upstream suites leave out: absent and empty parameters, DELETE reviews, exempt images, duplicate
 * findings counted once (the Rego reports a set of messages), quantities the Rego cannot read. Each folder of
 * src/test/resources/library-general is a gator suite whose template is Rego-only, as a user brings it, so the
 * library policy for its kind is what runs; the expected counts and messages follow the template's Rego.
 */
class GeneralLibraryEdgeCasesTest {

    static Path root() throws URISyntaxException {
        return Path.of(GeneralLibraryEdgeCasesTest.class.getResource("/library-general").toURI());
    }

    @TestFactory
    Stream<DynamicTest> everyEdgeCasePasses() throws IOException, URISyntaxException {
        GatorRunner runner = new GatorRunner(KubeCel.standard());
        List<Path> suites;
        try (Stream<Path> files = Files.walk(root())) {
            suites = files.filter(p -> p.getFileName().toString().equals("suite.yaml")).sorted().toList();
        }
        assertEquals(12, suites.size(), "one suite per general/ template of this library part");
        return suites.stream().map(file -> DynamicTest.dynamicTest(file.getParent().getFileName().toString(), () -> {
            GatorSuite suite = GatorSuite.read(file);
            for (GatorSuite.Test t : suite.tests()) {
                var doc = ConfigFiles.read(List.of(file.getParent().resolve(t.template()))).get(0);
                List<String> errors = new ArrayList<>();
                ConstraintTemplate template = ConstraintTemplate.parse(doc, errors);
                assertEquals(List.of(), errors);
                assertTrue(template.origin().startsWith("Tollgate's library"), template.origin());
            }
            List<GatorRunner.CaseResult> results = runner.run(suite);
            assertFalse(results.isEmpty());
            List<String> failures = new ArrayList<>();
            for (GatorRunner.CaseResult r : results) {
                if (r.skipped() || !r.passed()) {
                    failures.add(r.test() + "/" + r.name() + ": " + (r.skipped() ? "skipped" : r.error()));
                }
            }
            assertEquals(List.of(), failures, file.toString());
        }));
    }
}
