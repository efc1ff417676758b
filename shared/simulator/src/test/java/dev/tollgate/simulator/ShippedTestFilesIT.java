package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged CLI runs every shipped test file from the repository root, as the README says: the functions' own
 * (their CEL policies in-process, the conversion) and the main job's, which plays the whole bundle served in-process
 * with the shipped policies. A wrong expectation against the bundle fails with its diff.
 */
class ShippedTestFilesIT {

    static final List<String> SHIPPED = List.of("functions/cel-policy/tollgate-test.yaml",
            "functions/cel-mutate/tollgate-test.yaml", "functions/crd-conversion/tollgate-test.yaml",
            "shared/simulator/tollgate-test.yaml");

    @TempDir
    Path dir;

    private PackagedCli.Result tollgate(List<String> args) throws Exception {
        return PackagedCli.run(dir, Duration.ofSeconds(180), args);
    }

    @Test
    void everyShippedTestFilePasses() throws Exception {
        Path junit = dir.resolve("junit.xml");
        List<String> args = new ArrayList<>(List.of("test"));
        args.addAll(SHIPPED);
        args.addAll(List.of("--junit", junit.toString()));
        PackagedCli.Result r = tollgate(args);
        assertEquals(0, r.exit(), r.stdout() + r.stderr());
        assertTrue(r.stdout().startsWith("FILE "), "the shipped policies type check clean:\n" + r.stdout());
        assertTrue(r.stdout().endsWith("\n24 cases: 24 passed, 0 failed\n"), r.stdout());
        for (String file : SHIPPED) {
            assertTrue(Files.readString(junit).contains("<testsuite name=\"" + file + "\""), file);
        }
    }

    @Test
    void aWrongExpectationAgainstTheBundleFails() throws Exception {
        Path file = Files.writeString(dir.resolve("wrong.yaml"), """
                namespaces: [%1$s/examples/00-namespace-shop.yaml]
                cases:
                - name: the compliant pod, pulled if not present
                  manifest: %1$s/examples/compliant-pod.yaml
                  expect:
                    allowed: true
                    object:
                      spec:
                        containers: [{name: app, imagePullPolicy: IfNotPresent}]
                """.formatted(Path.of(System.getProperty("tollgate.root.dir", "../..")).toAbsolutePath().normalize()
                .resolve("shared/simulator")));
        PackagedCli.Result r = tollgate(List.of("test", file.toString()));
        assertEquals(1, r.exit(), r.stdout() + r.stderr());
        assertTrue(r.stdout().contains("FAIL " + file + ": case 'the compliant pod, pulled if not present'\n"
                + "  expect.object: expected vs actual\n"), r.stdout());
        assertTrue(r.stdout().contains("\n    -      imagePullPolicy: IfNotPresent\n"), r.stdout());
        assertTrue(r.stdout().contains("\n    +      imagePullPolicy: Always\n"), r.stdout());
        assertTrue(r.stdout().endsWith("\n1 case: 0 passed, 1 failed\n"), r.stdout());
    }
}
