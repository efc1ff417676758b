package dev.tollgate.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A packaged function or bundle ({@code target/quarkus-app/quarkus-run.jar}) serving HTTPS on 127.0.0.1 with the
 * webhook certificate of a {@link KubeApiServer} instance (SAN 127.0.0.1; its CA is the instance's
 * {@code KAS_WEBHOOK_CA_FILE}, the caBundle a registration renders), so that instance's API server can call it; the
 * management interface (health, metrics) on its own loopback port. Started ready, as the tests against a real API
 * server need it.
 */
public final class HttpsFunction implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final int port;
    private final int managementPort;
    private final Path log;
    private final Path caFile;

    private HttpsFunction(Process process, int port, int managementPort, Path log, Path caFile) {
        this.process = process;
        this.port = port;
        this.managementPort = managementPort;
        this.log = log;
        this.caFile = caFile;
    }

    /**
     * Starts {@code runner} on the JVM running the test, HTTPS on {@code port}, its output in {@code log}, and waits
     * until it is ready (90 s at most).
     *
     * @param options more {@code -D} options (callers, configuration), before {@code -jar}
     */
    public static HttpsFunction start(Path runner, KubeApiServer cluster, int port, int managementPort, Path log,
            List<String> options) {
        return start(runner, cluster, port, managementPort, log, options, java.util.Map.of());
    }

    /**
     * As above, with more environment variables: configuration as a platform without files or flags passes it (AWS
     * Lambda: {@code TOLLGATE_AUTH_CLUSTERS_JSON}).
     */
    public static HttpsFunction start(Path runner, KubeApiServer cluster, int port, int managementPort, Path log,
            List<String> options, java.util.Map<String, String> environment) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.http.port=0",
                "-Dquarkus.http.ssl-port=" + port,
                "-Dquarkus.http.insecure-requests=disabled",
                "-Dquarkus.tls.tollgate.key-store.pem.0.cert=" + cluster.env("KAS_WEBHOOK_CERT_FILE"),
                "-Dquarkus.tls.tollgate.key-store.pem.0.key=" + cluster.env("KAS_WEBHOOK_KEY_FILE"),
                "-Dquarkus.http.tls-configuration-name=tollgate",
                "-Dquarkus.management.host=127.0.0.1",
                "-Dquarkus.management.port=" + managementPort));
        command.addAll(options);
        command.addAll(List.of("-jar", runner.toString()));
        Process process;
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(environment);
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + runner, e);
        }
        Readiness.await(process, URI.create("http://127.0.0.1:" + managementPort + "/q/health/ready"),
                Duration.ofSeconds(90), log);
        return new HttpsFunction(process, port, managementPort, log, Path.of(cluster.env("KAS_WEBHOOK_CA_FILE")));
    }

    /** A port of 127.0.0.1 free when asked. */
    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Process process() {
        return process;
    }

    public int port() {
        return port;
    }

    public int managementPort() {
        return managementPort;
    }

    public Path log() {
        return log;
    }

    /** The function's decision-log lines so far (in production, each its own JSON line on the console). */
    public List<JsonNode> decisions() {
        List<JsonNode> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(log)) {
                if (line.startsWith("{\"uid\"")) {
                    out.add(JSON.readTree(line));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /**
     * POSTs a JSON {@code body} to {@code path} as a caller other than the API server would (trusting the instance's
     * webhook CA) and returns the status: for what a caller without the API server's credentials is answered.
     */
    public int post(String path, String body, Map<String, String> headers) {
        try (InputStream in = Files.newInputStream(caFile)) {
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, tmf.getTrustManagers(), null);
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
            headers.forEach(request::header);
            HttpClient client = HttpClient.newBuilder().sslContext(tls).build();
            return client.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot trust " + caFile, e);
        }
    }

    /** Stops the process (SIGTERM, then SIGKILL after 20 s) and waits for it. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
