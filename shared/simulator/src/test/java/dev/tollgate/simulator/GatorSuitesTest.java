package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

import dev.tollgate.testing.Skip;

/**
 * {@code tollgate test} runs gator suites unchanged: every suite of the gatekeeper-library in ../shared/fixtures (read
 * in place, from its own folder) passes with Tollgate's summary line, exit status and JUnit report; a suite whose
 * assertion does not hold fails with exit 1 and gator's words; a broken suite is bad input (exit 2).
 */
class GatorSuitesTest {

    @TempDir
    Path dir;

    private static CapturedCommand.Output run(String... args) {
        return TestCommandTest.run(args);
    }

    static Path library() {
        String dir = System.getProperty("tollgate.fixtures.dir");
        return dir == null ? null : Path.of(dir, "gatekeeper-library", "library").toAbsolutePath().normalize();
    }

    @Test
    void everySuiteOfTheGatekeeperLibraryPasses() throws Exception {
        Path library = library();
        Skip.unless(library != null && Files.isDirectory(library), "GatorSuitesTest.everySuiteOfTheGatekeeperLibrary"
                + "Passes", () -> "fixture " + library + " is absent");
        List<String> args = new ArrayList<>();
        try (Stream<Path> files = Files.walk(library)) {
            files.filter(p -> p.getFileName().toString().equals("suite.yaml")).sorted()
                    .forEach(p -> args.add(p.toString()));
        }
        assertEquals(49, args.size());
        Path junit = dir.resolve("junit.xml");
        args.addAll(List.of("--junit", junit.toString()));
        CapturedCommand.Output out = run(args.toArray(String[]::new));
        assertEquals(0, out.exit(), out.stdout() + out.stderr());
        assertTrue(out.stdout().matches("(?s).*\n(\\d+) cases: \\1 passed, 0 failed\n"), out.stdout());
        Document xml = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(junit.toFile());
        assertEquals(49, xml.getElementsByTagName("testsuite").getLength());
        assertEquals(0, xml.getElementsByTagName("failure").getLength());
    }

    @Test
    void aFailedAssertionFailsInGatorsWords() throws Exception {
        write("template.yaml", """
                apiVersion: templates.gatekeeper.sh/v1beta1
                kind: ConstraintTemplate
                metadata: {name: k8sneedsowner}
                spec:
                  crd: {spec: {names: {kind: K8sNeedsOwner}}}
                  targets:
                  - target: admission.k8s.gatekeeper.sh
                    code:
                    - engine: K8sNativeValidation
                      source:
                        validations:
                        - expression: has(variables.anyObject.metadata.labels) && "owner" in variables.anyObject.metadata.labels
                          message: an owner label is required
                """);
        write("constraint.yaml", """
                apiVersion: constraints.gatekeeper.sh/v1beta1
                kind: K8sNeedsOwner
                metadata: {name: needs-owner}
                """);
        write("pod.yaml", "{apiVersion: v1, kind: Pod, metadata: {name: p, namespace: s}, spec: {containers: []}}");
        Path suite = write("suite.yaml", """
                kind: Suite
                apiVersion: test.gatekeeper.sh/v1alpha1
                metadata: {name: owners}
                tests:
                - name: owner
                  template: template.yaml
                  constraint: constraint.yaml
                  cases:
                  - name: unlabelled-is-denied
                    object: pod.yaml
                    assertions: [{violations: 1, message: owner}]
                  - name: wrongly-expected-clean
                    object: pod.yaml
                    assertions: [{violations: no}]
                """);
        Path junit = dir.resolve("junit.xml");
        CapturedCommand.Output out = run(suite.toString(), "--junit", junit.toString());
        assertEquals(1, out.exit(), out.stdout() + out.stderr());
        assertTrue(out.stdout().contains("got 1 violations but want none: got messages [an owner label is required]"),
                out.stdout());
        assertTrue(out.stdout().endsWith("\n2 cases: 1 passed, 1 failed\n"), out.stdout());
        Document xml = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(junit.toFile());
        assertEquals(1, xml.getElementsByTagName("failure").getLength());

        Path broken = write("broken.yaml", """
                kind: Suite
                apiVersion: test.gatekeeper.sh/v1alpha1
                tests:
                - name: t
                  template: template.yaml
                  constraint: constraint.yaml
                  cases: [{name: c, object: pod.yaml, assertions: [{violations: maybe}]}]
                """);
        CapturedCommand.Output bad = run(broken.toString());
        assertEquals(2, bad.exit(), bad.stdout() + bad.stderr());
        assertTrue(bad.stderr().contains(broken + ": tests[0].cases[0].assertions: violations must be a nonnegative"
                + " integer, \"yes\", or \"no\", got 'maybe'"), bad.stderr());
    }

    private Path write(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }
}
