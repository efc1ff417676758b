package dev.tollgate.walkthrough;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tollgate.testing.Readiness;

/**
 * A Knative Service's revision, as the kubelet would run it, started as a local process: the function's packaged
 * fast-jar, with the container's arguments (the heap bound) and environment as applied to the cluster, its secret
 * and config map volumes written to a folder of the test ({@code <pod>/<mountPath>}, the environment's paths
 * pointed there), serving HTTPS on 127.0.0.1 with the governed cluster's webhook certificate (the stand-in for the
 * Knative domain's) and its management interface on a free loopback port.
 */
final class RevisionProcess implements AutoCloseable {

    final String name;
    final Process process;
    final Path log;
    final int managementPort;
    final JsonNode container;

    private RevisionProcess(String name, Process process, Path log, int managementPort, JsonNode container) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.managementPort = managementPort;
        this.container = container;
    }

    /**
     * Starts the revision of Service {@code name} in {@code namespace} as the cluster holds it now.
     *
     * @param jar  the function's {@code target/quarkus-app/quarkus-run.jar}
     * @param pod  a folder of the test for the volumes and the log
     * @param port the HTTPS port of the Service's URL
     */
    static RevisionProcess start(KubeApi api, String namespace, String name, Path jar, Path pod, int port,
            String certFile, String keyFile) throws IOException {
        JsonNode svc = api.get("/apis/serving.knative.dev/v1/namespaces/" + namespace + "/services/" + name);
        JsonNode spec = svc.path("spec").path("template").path("spec");
        JsonNode container = spec.path("containers").path(0);
        Map<String, JsonNode> volumes = new HashMap<>();
        spec.path("volumes").forEach(v -> volumes.put(v.path("name").asText(), v));

        // Volumes: mount path -> local folder, filled from the Secret or ConfigMap as the kubelet would.
        Map<String, Path> mounts = new HashMap<>();
        for (JsonNode mount : container.path("volumeMounts")) {
            String mountPath = mount.path("mountPath").asText().replaceAll("/+$", "");
            Path local = pod.resolve(mountPath.substring(1));
            Files.createDirectories(local);
            JsonNode volume = volumes.get(mount.path("name").asText());
            if (volume == null) {
                throw new IllegalStateException(name + ": volumeMount " + mount + " names no volume");
            }
            if (volume.has("secret")) {
                String secret = volume.path("secret").path("secretName").asText();
                JsonNode data = api.get("/api/v1/namespaces/" + namespace + "/secrets/" + secret).path("data");
                for (Iterator<Map.Entry<String, JsonNode>> it = data.fields(); it.hasNext();) {
                    Map.Entry<String, JsonNode> e = it.next();
                    Files.write(local.resolve(e.getKey()), Base64.getDecoder().decode(e.getValue().asText()));
                }
            } else if (volume.has("configMap")) {
                String cm = volume.path("configMap").path("name").asText();
                JsonNode data = api.get("/api/v1/namespaces/" + namespace + "/configmaps/" + cm).path("data");
                for (Iterator<Map.Entry<String, JsonNode>> it = data.fields(); it.hasNext();) {
                    Map.Entry<String, JsonNode> e = it.next();
                    Files.writeString(local.resolve(e.getKey()), e.getValue().asText());
                }
            } else {
                throw new IllegalStateException(name + ": the stand-in mounts secrets and config maps only: " + volume);
            }
            mounts.put(mountPath, local);
        }

        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        container.path("args").forEach(a -> command.add(a.asText())); // the heap bound, as the executable reads it
        int managementPort = freePort();
        command.addAll(List.of("-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=0",
                "-Dquarkus.http.ssl-port=" + port, "-Dquarkus.http.insecure-requests=disabled",
                "-Dquarkus.tls.tollgate.key-store.pem.0.cert=" + certFile,
                "-Dquarkus.tls.tollgate.key-store.pem.0.key=" + keyFile,
                "-Dquarkus.http.tls-configuration-name=tollgate", "-Dquarkus.management.host=127.0.0.1",
                "-Dquarkus.management.port=" + managementPort, "-jar", jar.toString()));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().keySet().removeIf(k -> k.startsWith("TOLLGATE_") || k.startsWith("QUARKUS_"));
        for (JsonNode env : container.path("env")) {
            if (!env.has("value")) {
                throw new IllegalStateException(name + ": the stand-in sets plain env values only: " + env);
            }
            pb.environment().put(env.path("name").asText(), local(env.path("value").asText(), mounts));
        }
        Path log = pod.resolve(name + ".log");
        Process p = pb.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        RevisionProcess revision = new RevisionProcess(name, p, log, managementPort, container);
        revision.awaitReady();
        return revision;
    }

    /** A path under a mount, pointed at its local folder (the longest mount path first); other values as they are. */
    private static String local(String value, Map<String, Path> mounts) {
        return mounts.keySet().stream().sorted(Comparator.comparingInt(String::length).reversed())
                .filter(m -> value.equals(m) || value.startsWith(m + "/")).findFirst()
                .map(m -> mounts.get(m) + value.substring(m.length())).orElse(value);
    }

    private void awaitReady() {
        Readiness.await(process, URI.create(management("/q/health/ready")), Duration.ofMinutes(3), log);
    }

    String management(String path) {
        return "http://127.0.0.1:" + managementPort + path;
    }

    /** GET on the management interface (health, metrics). */
    String get(String path) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(management(path))).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** Everything the process printed so far (its decision log included). */
    String output() {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }
}
