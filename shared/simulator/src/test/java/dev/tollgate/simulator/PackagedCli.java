package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The packaged CLI as the README runs it: {@code java -jar shared/simulator/target/quarkus-app/quarkus-run.jar ...}
 * from the repository root (system property {@code tollgate.root.dir}, by default two folders up from the module).
 */
final class PackagedCli {

    /** What one run printed and how it exited. */
    record Result(int exit, String stdout, String stderr) {
    }

    static final Path JAR = Path.of("shared/simulator/target/quarkus-app/quarkus-run.jar");

    private PackagedCli() {
    }

    /** The repository root. */
    static Path root() {
        return Path.of(System.getProperty("tollgate.root.dir", "../..")).toAbsolutePath().normalize();
    }

    /**
     * Runs {@code tollgate args...} from the repository root, its output kept in {@code scratch}; a run longer than
     * {@code limit} is killed and fails the test (a hang, not a measurement).
     */
    static Result run(Path scratch, Duration limit, List<String> args) throws Exception {
        return run(scratch, limit, List.of(), args);
    }

    /** As {@link #run(Path, Duration, List)}, with JVM options before {@code -jar} (e.g. {@code -Dtollgate...}). */
    static Result run(Path scratch, Duration limit, List<String> jvmOptions, List<String> args) throws Exception {
        Path root = root();
        assertTrue(Files.isRegularFile(root.resolve(JAR)), "package the simulator first: " + root.resolve(JAR));
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", JAR.toString()));
        command.addAll(args);
        Path out = Files.createTempFile(scratch, "out", ".txt");
        Path err = Files.createTempFile(scratch, "err", ".txt");
        Process p = new ProcessBuilder(command).directory(root.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        if (!p.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("tollgate " + args + " did not finish in " + limit.toSeconds() + " s:\n"
                    + Files.readString(err));
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
