package dev.tollgate.walkthrough;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import dev.tollgate.testing.Skip;

/**
 * The root README's native builds (the images block and the Lambda block), run as written on a machine without
 * GraalVM/Mandrel and with a container runtime that does not answer: each stops before building anything with the
 * root pom's one-line message naming what is missing and what to do, not Quarkus's stack trace from packaging
 * ("Cannot get an executable name when no container runtime is available").
 */
class NativeBuildPreflightTest {

    @TempDir
    static Path work;

    @TestFactory
    Stream<DynamicTest> readmeNativeBuildsNameWhatIsMissing() throws IOException {
        Path root = DeployWalkthroughTest.root();
        List<String> commands = ReadmeBlocks.allCommands(Files.readAllLines(root.resolve("README.md")));
        // The variables the README sets before its builds (F=functions/...), set before each.
        String variables = commands.stream().filter(c -> c.matches("[A-Z][A-Z_]*=\\S+"))
                .map(c -> c + "; ").collect(java.util.stream.Collectors.joining());
        List<String> builds = commands.stream().filter(c -> c.startsWith("./mvnw ") && c.contains(" -Dnative"))
                .toList();
        assertEquals(2, builds.size(), "README.md's native builds (images, Lambda): " + builds);
        Path bin = Files.createDirectories(work.resolve("bin"));
        // A docker and a podman whose daemon does not answer, ahead of any real one on the PATH.
        for (String runtime : List.of("docker", "podman")) {
            Path stub = bin.resolve(runtime);
            Files.writeString(stub, "#!/bin/sh\necho 'Cannot connect to the " + runtime + " daemon' >&2\nexit 1\n");
            Files.setPosixFilePermissions(stub, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        String path = bin + File.pathSeparator + Path.of(System.getProperty("java.home"), "bin") + File.pathSeparator
                + "/usr/bin:/bin";
        boolean hasNativeImage = Stream.of(path.split(File.pathSeparator))
                .anyMatch(d -> Files.isExecutable(Path.of(d, "native-image")));
        return builds.stream().map(build -> DynamicTest.dynamicTest(build, () -> {
            Skip.unless(!hasNativeImage, "NativeBuildPreflightTest", () -> "native-image is on " + path);
            boolean containerBuild = build.contains("-Dquarkus.native.container-build=true");
            String out = mvnw(root, variables + build, Map.of("PATH", path, "JAVA_HOME", System.getProperty("java.home"),
                    "HOME", System.getProperty("user.home")));
            assertNotEquals("exit 0", out.substring(0, out.indexOf('\n')), out);
            assertTrue(out.contains(containerBuild
                    ? "[ERROR] Native build with -Dquarkus.native.container-build=true: no docker or podman that "
                            + "answers `docker info` / `podman info`. Install one and start it, or drop the flag"
                    : "[ERROR] Native build (-Dnative): no GraalVM/Mandrel native-image (looked in "
                            + "-Dquarkus.native.graalvm-home or GRAALVM_HOME, JAVA_HOME/bin, PATH) and no docker or "
                            + "podman that answers"), out);
            assertTrue(out.contains("native-build-tools) on project tollgate-parent"), "checked before any module "
                    + "builds: " + out);
            assertFalse(out.contains("Cannot get an executable name"), out);
            assertFalse(out.contains("\tat "), "no stack trace: " + out);
        }));
    }

    /** The README's command in the checkout, offline (the check needs nothing from the network), its output. */
    private static String mvnw(Path root, String command, Map<String, String> env)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", command + " -o").directory(root.toFile())
                .redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("GRAALVM") || k.startsWith("QUARKUS_")
                || k.equals("MAVEN_OPTS"));
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), command);
        return "exit " + p.exitValue() + "\n" + out;
    }
}
