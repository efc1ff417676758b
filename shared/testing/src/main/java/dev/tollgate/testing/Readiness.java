package dev.tollgate.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** Waits for a function a test started as a process to answer its readiness check. */
public final class Readiness {

    private Readiness() {
    }

    /**
     * Returns once {@code ready} (a management-port {@code /q/health/ready} URL, plain HTTP) answers 200. Fails with
     * the process's output ({@code log}) when the process exits first or is not ready within {@code within}.
     */
    public static void await(Process process, URI ready, Duration within, Path log) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest request = HttpRequest.newBuilder(ready).timeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError("the process exited with status " + process.exitValue()
                        + " before it was ready (" + ready + "):\n" + output(log));
            }
            try {
                if (client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + ready, e);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + ready, e);
            }
        }
        throw new AssertionError("not ready within " + within.toSeconds() + " s (" + ready + "):\n" + output(log));
    }

    private static String output(Path log) {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "(no output: " + log + ")";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
