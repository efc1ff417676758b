package ${package};

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.tollgate.simulator.policytest.TestOutput;
import dev.tollgate.simulator.policytest.TestRunner;

/**
 * Policy CI in this build: runs {@code src/test/resources/tollgate-test.yaml} (the format of {@code tollgate test})
 * against this function's policy in process, with no server: webhook.yaml rendered as Terraform renders it and each
 * case played as the API server plays it (shared/simulator-core). Add cases to the file, not here; a case whose
 * expectation does not hold fails the build, with expected vs actual.
 */
class ${className}TestFileTest {

    private static final Path WEBHOOK = Path.of("webhook.yaml");
    private static final Path TEST_FILE = Path.of("src/test/resources/tollgate-test.yaml");

    @Test
    void everyExpectationOfTheTestFileHolds() {
#if ($type == 'conversion')
        ${className} policy = new ${className}();
#elseif ($type == 'mutating')
        // The setting application.properties gives (tollgate.${artifactId}.default-labels).
        ${className} policy = new ${className}(List.of("team=unassigned"));
#else
        // The setting application.properties gives (tollgate.${artifactId}.denied-tags).
        ${className} policy = new ${className}(List.of("latest"));
#end
        TestRunner.Run run = new TestRunner(TestRunner.Target.function(policy, WEBHOOK)).run(List.of(TEST_FILE));
        String report = TestOutput.text(run);
        System.out.print(report);
        assertTrue(run.passed(), () -> TEST_FILE + ": " + run.failed() + " of " + run.cases()
                + " cases failed\n" + report);
    }
}
