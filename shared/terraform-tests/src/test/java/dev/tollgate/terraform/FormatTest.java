package dev.tollgate.terraform;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** terraform fmt -check over everything under terraform/, including each terraform.tfvars.example. */
class FormatTest {

    @Test
    void everyTerraformFileIsFormatted() {
        Terraform.Result r = Terraform.run(Terraform.workTree(), "fmt", "-check", "-recursive", "-diff", "-no-color");
        assertTrue(r.ok(), "terraform fmt -check -recursive found unformatted files; run `terraform fmt -recursive "
                + "terraform` from the repository root:\n" + r.output());
    }

    @TestFactory
    Stream<DynamicTest> everyTfvarsExampleIsFormattedHcl() throws IOException {
        List<Path> examples;
        try (Stream<Path> files = Files.walk(Terraform.workTree())) {
            examples = files.filter(f -> f.getFileName().toString().endsWith(".tfvars.example")).sorted().toList();
        }
        assertFalse(examples.isEmpty(), "no terraform.tfvars.example found under terraform/");
        return examples.stream().map(f -> DynamicTest.dynamicTest(Terraform.workTree().relativize(f).toString(), () -> {
            Terraform.Result r = Terraform.run(f.getParent(), f, "fmt", "-check", "-no-color", "-");
            assertTrue(r.ok(), f + " is not formatted (or not valid HCL); check it with "
                    + "`terraform fmt - < " + f.getFileName() + "`:\n" + r.output());
        }));
    }
}
