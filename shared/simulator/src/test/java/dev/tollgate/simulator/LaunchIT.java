package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
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

    /** What the CLI printed, its exit status, and every TCP port it was seen listening on (host:port). */
    private record Result(int exit, String stdout, String stderr, Set<String> listened) {
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
        Set<String> listened = new TreeSet<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (!p.waitFor(50, TimeUnit.MILLISECONDS)) {
            listened.addAll(ListeningSockets.of(p.pid()));
            if (System.nanoTime() > end) {
                p.destroyForcibly();
                throw new AssertionError("tollgate did not finish in 180 s:\n" + Files.readString(err));
            }
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err), listened);
    }

    /**
     * On a busy machine the ports a Quarkus application takes by default are held by other programs (a function
     * started as the root README says holds 8080 and 9000): the CLI still works, listens only where it serves the
     * bundled functions in-process (a free port of 127.0.0.1), and on nothing for help, --url or convert.
     */
    @Test
    void worksWhenTheUsualPortsAreTakenAndListensOnlyWhereItMust() throws Exception {
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int port : new int[] { 8080, 8443, 9000 }) {
                try {
                    held.add(new ServerSocket(port)); // all interfaces, as a function started by hand would
                } catch (java.net.BindException e) {
                    // already held by another program on this machine: taken all the same
                }
            }
            Result help = tollgate(List.of(), "--help");
            assertEquals(0, help.exit(), help.stderr());
            assertTrue(help.stdout().startsWith("Usage: tollgate"), help.stdout());
            assertEquals(Set.of(), help.listened(), "--help listens on nothing");

            Result reviewHelp = tollgate(List.of(), "review", "--help");
            assertEquals(0, reviewHelp.exit(), reviewHelp.stderr());
            assertTrue(reviewHelp.stdout().startsWith("Usage: tollgate review"), reviewHelp.stdout());

            Result version = tollgate(List.of(), "-V");
            assertEquals(0, version.exit(), version.stderr());
            assertEquals(Set.of(), version.listened(), "-V listens on nothing");

            Path pod = Files.writeString(elsewhere.resolve("pod.yaml"), """
                    apiVersion: v1
                    kind: Pod
                    metadata: {name: web, namespace: shop}
                    spec: {containers: [{name: app, image: docker.io/nginx:1.27}]}
                    """);
            Result local = tollgate(List.of(), "review", pod.toString());
            assertEquals(1, local.exit(), local.stdout() + local.stderr());
            assertTrue(local.stdout().contains("trusted-registry"), local.stdout());
            assertFalse(local.listened().isEmpty(), "the in-process bundle was served");
            assertTrue(local.listened().stream().allMatch(a -> a.startsWith("127.0.0.1:")
                    && !Set.of("8080", "8443", "9000").contains(a.substring(a.indexOf(':') + 1))),
                    "only free ports of 127.0.0.1: " + local.listened());

            Result remote = tollgate(List.of(), "review", "--url", "http://127.0.0.1:9/", pod.toString());
            assertTrue(remote.stdout().contains("connection refused"), remote.stdout() + remote.stderr());
            assertEquals(Set.of(), remote.listened(), "a review against --url listens on nothing");
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
    }

    /** An unknown command is a usage error, told in one line that names it, even with --help after it. */
    @Test
    void anUnknownCommandIsAUsageError() throws Exception {
        for (List<String> args : List.of(List.of("nosuch"), List.of("tset", "--help"), List.of("-V", "reveiw"))) {
            Result r = tollgate(List.of(), args.toArray(String[]::new));
            assertEquals(2, r.exit(), args + ": " + r.stdout() + r.stderr());
            assertEquals("", r.stdout(), args + ": no help on stdout");
            assertEquals(List.of("tollgate: unknown command '" + args.get(args.size() == 2 && args.get(0)
                    .startsWith("-") ? 1 : 0) + "'; the commands are review, audit, replay, convert, test, "
                    + "registration (tollgate --help)"),
                    r.stderr().lines().toList(), args.toString());
        }
        Result none = tollgate(List.of());
        assertEquals(2, none.exit(), none.stdout() + none.stderr());
        assertEquals(List.of("tollgate: a command is needed: review, audit, replay, convert, test, registration "
                + "(tollgate --help)"),
                none.stderr().lines().toList());
    }

    /** A port that the user asks for and that is taken is named, in one line. */
    @Test
    void aTakenPortIsNamed() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Result r = tollgate(List.of("-Dquarkus.http.port=" + taken.getLocalPort()), "review",
                    Path.of(System.getProperty("tollgate.root.dir", "../..")).toAbsolutePath()
                            .resolve("shared/simulator/examples").toString());
            assertEquals(2, r.exit(), r.stdout() + r.stderr());
            assertEquals(List.of("tollgate: cannot start: port " + taken.getLocalPort() + " of 127.0.0.1 is in use"),
                    r.stderr().lines().toList());
        }
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
