package dev.tollgate.loadtest;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A packaged function started as its own process (a JVM, or a native executable) on free ports of 127.0.0.1 (the function's, and the management
 * interface's for health and metrics), and what /proc says about it.
 */
final class FunctionProcess implements AutoCloseable {

    final Process process;
    final int port;
    final String base;
    /** Health and metrics: the management interface, on its own port. */
    final String management;
    final Path log;

    private FunctionProcess(Process process, int port, int managementPort, Path log) {
        this.process = process;
        this.port = port;
        this.base = "http://127.0.0.1:" + port;
        this.management = "http://127.0.0.1:" + managementPort;
        this.log = log;
    }

    /**
     * Starts {@code artifact} with the given options and system properties: a jar with this JVM ({@code java OPTIONS
     * -jar JAR}), or a native executable (a file not ending in .jar: {@code EXECUTABLE OPTIONS}, which reads -Xmx, -XX:
     * and -D options as the JVM does).
     */
    static FunctionProcess start(Path artifact, Path log, List<String> options) throws IOException {
        int port = freePort();
        int managementPort = freePort();
        boolean jar = artifact.getFileName().toString().endsWith(".jar");
        List<String> command = new ArrayList<>(List.of(jar ? javaBin() : artifact.toString()));
        command.addAll(options);
        command.addAll(List.of("-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=" + port,
                "-Dquarkus.management.host=127.0.0.1", "-Dquarkus.management.port=" + managementPort));
        if (jar) {
            command.addAll(List.of("-jar", artifact.toString()));
        }
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new FunctionProcess(p, port, managementPort, log);
    }

    long pid() {
        return process.pid();
    }

    /** Resident memory now (VmRSS), or -1. */
    long rss() throws IOException {
        return status("VmRSS:");
    }

    /** The highest resident memory so far (VmHWM), or -1. */
    long peakRss() throws IOException {
        return status("VmHWM:");
    }

    private long status(String field) throws IOException {
        Path status = Path.of("/proc", Long.toString(pid()), "status");
        if (!Files.exists(status)) {
            return -1;
        }
        return Files.readAllLines(status).stream().filter(l -> l.startsWith(field))
                .map(l -> Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024).findFirst().orElse(-1L);
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    static String mib(long bytes) {
        return bytes < 0 ? "n/a" : String.format("%.1f MiB", bytes / 1048576.0);
    }

    static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }
}
