package dev.tollgate.terraform;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** terraform test for every module that has a tests/ folder (webhook-configurations, aws-lambda-functions, ...). */
class TerraformTestSuitesTest {

    private static final Pattern SUMMARY = Pattern.compile("(Success!|Failure!) (\\d+) passed, (\\d+) failed");

    @TestFactory
    Stream<DynamicTest> everyModuleTestSuitePasses() {
        List<Path> modules = Terraform.folders("modules").stream().filter(TerraformTestSuitesTest::hasTests).toList();
        assertFalse(modules.isEmpty(), "no terraform test suites under terraform/modules/*/tests");
        return modules.stream().map(dir -> DynamicTest.dynamicTest("terraform test modules/" + dir.getFileName(), () -> {
            Set<String> required = Terraform.requiredProviders(dir);
            required.removeIf(Terraform::providerAvailable);
            if (!required.isEmpty()) {
                // A module with tests must be testable wherever the build runs: a missing provider is a failure.
                fail("modules/" + dir.getFileName() + " has terraform tests but provider(s) " + required
                        + " cannot be installed (mirror " + Terraform.MIRROR + ")");
            }
            Terraform.runOk(dir, "init", "-backend=false", "-input=false", "-no-color");
            Terraform.Result r = Terraform.run(dir, "test", "-no-color");
            Matcher m = SUMMARY.matcher(r.stdout());
            assertTrue(r.ok() && m.find() && m.group(1).equals("Success!") && Integer.parseInt(m.group(3)) == 0,
                    "terraform test failed in modules/" + dir.getFileName() + ":\n" + r.output());
            assertTrue(Integer.parseInt(m.group(2)) > 0, "no terraform test ran in modules/" + dir.getFileName());
            System.out.println("modules/" + dir.getFileName() + ": terraform test " + m.group(2) + " passed");
        }));
    }

    private static boolean hasTests(Path module) {
        Path tests = module.resolve("tests");
        if (!Files.isDirectory(tests)) {
            return false;
        }
        try (Stream<Path> files = Files.list(tests)) {
            return files.anyMatch(f -> f.toString().endsWith(".tftest.hcl"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
