package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged CLI started the way a newcomer would, from a folder of their own: its version, the shipped policies
 * found from the installation, and a failure to start told in one line with exit status 2.
 */
class LaunchIT {

    @TempDir
    Path elsewhere;

    private record Result(int exit, String stdout, String stderr) {
    }

    private Result tollgate(List<String> jvmOptions, String... args) throws Exception {
        Path root = Path.of(System.getProperty("tollgate.root.dir", "../..")).toAbsolutePath().normalize();
        Path jar = root.resolve("shared/simulator/target/quarkus-app/quarkus-run.jar");
        assertTrue(Files.isRegularFile(jar), "package the simulator first: " + jar);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar.toString()));
        command.addAll(List.of(args));
        Path out = elsewhere.resolve("out.txt");
        Path err = elsewhere.resolve("err.txt");
        ProcessBuilder pb = new ProcessBuilder(command).directory(elsewhere.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile());
        pb.environment().remove("TOLLGATE_CEL_POLICY_CONFIG");
        pb.environment().remove("TOLLGATE_CEL_MUTATE_CONFIG");
        Process p = pb.start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("tollgate did not finish in 180 s:\n" + Files.readString(err));
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    @Test
    void printsItsVersion() throws Exception {
        Result r = tollgate(List.of(), "-V");
        assertEquals(0, r.exit(), r.stderr());
        assertTrue(r.stdout().startsWith("tollgate 0."), r.stdout());
    }

    @Test
    void findsTheShippedPoliciesFromAnotherFolder() throws Exception {
        Path pod = Files.writeString(elsewhere.resolve("pod.yaml"), """
                apiVersion: v1
                kind: Pod
                metadata: {name: web, namespace: shop}
                spec: {containers: [{name: app, image: docker.io/nginx:1.27}]}
                """);
        Result r = tollgate(List.of(), "review", pod.getFileName().toString());
        // The shipped trusted-registry policy (shared/simulator/policies/cel-policy) denies the image.
        assertEquals(1, r.exit(), r.stdout() + r.stderr());
        assertTrue(r.stdout().contains("trusted-registry"), r.stdout());
    }

    @Test
    void aFailureToStartIsOneLineWithExitStatusTwo() throws Exception {
        Result r = tollgate(List.of("-Dtollgate.cel-policy.config=" + elsewhere.resolve("no-such-folder")), "review",
                "whatever.yaml");
        assertEquals(2, r.exit(), r.stderr());
        assertEquals(List.of("tollgate: cannot start: configuration path " + elsewhere.resolve("no-such-folder")
                + " does not exist"), r.stderr().lines().toList());
    }
}
