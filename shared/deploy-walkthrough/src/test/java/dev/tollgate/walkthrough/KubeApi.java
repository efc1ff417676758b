package dev.tollgate.walkthrough;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.tollgate.testing.KubeApiServer;

/**
 * Plain REST calls to a kit kube-apiserver as its admin (the kubeconfig's static token, its CA): what the test does
 * in Knative's place (status updates, which kubectl v1.20 cannot send to a subresource) and reads back.
 */
final class KubeApi {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern TOKEN = Pattern.compile("(?m)^\\s*token:\\s*(\\S+)\\s*$");

    private final URI base;
    private final String token;
    private final HttpClient http;

    KubeApi(KubeApiServer server) {
        this.base = server.url();
        try {
            Matcher m = TOKEN.matcher(Files.readString(server.kubeconfig()));
            if (!m.find()) {
                throw new IllegalStateException(server.kubeconfig() + " has no token");
            }
            this.token = m.group(1);
            this.http = HttpClient.newBuilder().sslContext(trusting(server)).connectTimeout(Duration.ofSeconds(10))
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static SSLContext trusting(KubeApiServer server) {
        try (InputStream in = Files.newInputStream(server.caFile())) {
            Certificate ca = CertificateFactory.getInstance("X.509").generateCertificate(in);
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            store.setCertificateEntry("ca", ca);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            return ctx;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot trust " + server.caFile(), e);
        }
    }

    JsonNode get(String path) {
        return send(HttpRequest.newBuilder(base.resolve(path)).GET(), path);
    }

    /** GET, or null when the object does not exist (404). */
    JsonNode find(String path) {
        try {
            return get(path);
        } catch (NotFound e) {
            return null;
        }
    }

    JsonNode post(String path, JsonNode body) {
        return send(HttpRequest.newBuilder(base.resolve(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())), path);
    }

    /** A JSON merge patch (RFC 7386) of {@code path}, e.g. a Knative Service's status subresource. */
    JsonNode mergePatch(String path, JsonNode patch) {
        return send(HttpRequest.newBuilder(base.resolve(path)).header("Content-Type", "application/merge-patch+json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString(patch.toString())), path);
    }

    private JsonNode send(HttpRequest.Builder request, String path) {
        try {
            HttpResponse<String> r = http.send(request.header("Authorization", "Bearer " + token)
                    .header("Accept", "application/json").timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 404) {
                throw new NotFound(request.build().method() + " " + path + ": HTTP 404: " + r.body());
            }
            if (r.statusCode() / 100 != 2) {
                throw new IllegalStateException(request.build().method() + " " + path + ": HTTP " + r.statusCode()
                        + ": " + r.body());
            }
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static final class NotFound extends IllegalStateException {
        NotFound(String message) {
            super(message);
        }
    }
}
