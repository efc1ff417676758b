package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The {@code terraform} on PATH, run in a root module of a test's own: with a CLI configuration of its own (the
 * modules it renders are pure, no provider is installed), its output kept beside the module, and a failure that
 * shows what Terraform printed.
 */
final class TerraformCli {

    private TerraformCli() {
    }

    /** {@code terraform args...} in {@code work} with these extra environment variables; its stdout. */
    static String run(Path work, Map<String, String> env, String... args) throws IOException, InterruptedException {
        Path cliConfig = work.resolve("terraformrc");
        if (!Files.exists(cliConfig)) {
            Files.writeString(cliConfig, "# tollgate simulator test: no providers\n");
        }
        List<String> command = new ArrayList<>();
        command.add("terraform");
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(work.toFile());
        pb.environment().put("TF_CLI_CONFIG_FILE", cliConfig.toString());
        pb.environment().put("TF_IN_AUTOMATION", "1");
        pb.environment().put("CHECKPOINT_DISABLE", "1");
        pb.environment().putAll(env);
        Path out = work.resolve("terraform-" + args[0] + ".out");
        Path err = work.resolve("terraform-" + args[0] + ".err");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new AssertionError("terraform is not on PATH (" + e.getMessage() + "): this test renders the "
                    + "configurations with the Terraform modules in terraform/modules; install Terraform 1.11", e);
        }
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("terraform " + String.join(" ", args) + " did not finish in 180 s");
        }
        if (p.exitValue() != 0) {
            fail("terraform " + String.join(" ", args) + " failed (" + p.exitValue() + "):\n" + Files.readString(out)
                    + Files.readString(err));
        }
        return Files.readString(out);
    }
}
