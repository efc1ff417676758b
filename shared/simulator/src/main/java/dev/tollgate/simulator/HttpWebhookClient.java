package dev.tollgate.simulator;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Calls webhooks over HTTP(S) the way the API server does: POST of the review as JSON to the clientConfig URL with
 * {@code ?timeout=<n>s} appended, a whole-call deadline of the webhook's timeoutSeconds, and trust in the webhook's
 * caBundle when it has one (else in the extra CA given to the simulator, else the system roots). Host names are
 * verified against the certificate, as the API server does. Calls that get no answer fail with Go's words for the
 * cause ({@link ClientErrors}).
 */
public final class HttpWebhookClient implements WebhookClient {

    private final String defaultCaPem;
    private final Map<String, HttpClient> clientsByCa = new ConcurrentHashMap<>();

    /** @param defaultCaPem PEM certificates to trust for webhooks without a caBundle, or empty for system roots */
    public HttpWebhookClient(String defaultCaPem) {
        this.defaultCaPem = defaultCaPem == null ? "" : defaultCaPem;
    }

    @Override
    public Answer post(Webhook webhook, byte[] review) throws CallFailure {
        String url = webhook.url() + "?timeout=" + webhook.timeoutSeconds() + "s";
        // Messages name the URL as the API server does, but never print a path token (SecretUrls).
        String shown = SecretUrls.redact(url);
        HttpRequest request;
        try {
            request = HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofSeconds(webhook.timeoutSeconds()))
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, */*")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(review))
                    .build();
        } catch (IllegalArgumentException e) {
            throw new CallFailure("invalid URL " + shown + ": " + SecretUrls.redactIn(e.getMessage()), e);
        }
        try {
            HttpResponse<byte[]> response = client(webhook).send(request, HttpResponse.BodyHandlers.ofByteArray());
            return new Answer(response.statusCode(), response.body(),
                    response.headers().firstValue("Content-Type").orElse(""));
        } catch (IOException e) {
            throw new CallFailure(ClientErrors.forTransport(shown, request.uri(), e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CallFailure("Post \"" + shown + "\": context canceled", e);
        }
    }

    private HttpClient client(Webhook webhook) throws CallFailure {
        String pem = webhook.caBundle().isEmpty() ? defaultCaPem : decodeBundle(webhook);
        HttpClient existing = clientsByCa.get(pem);
        if (existing != null) {
            return existing;
        }
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10));
        if (!pem.isEmpty()) {
            builder.sslContext(trusting(pem));
        }
        return clientsByCa.computeIfAbsent(pem, k -> builder.build());
    }

    private static String decodeBundle(Webhook webhook) throws CallFailure {
        try {
            return new String(Base64.getDecoder().decode(webhook.caBundle()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new CallFailure("clientConfig.caBundle is not base64", e);
        }
    }

    /** An SSL context trusting exactly the given PEM certificates. */
    static SSLContext trusting(String pem) throws CallFailure {
        try {
            CertificateFactory cf = CertificateFactory.getInstance("X.509");
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int i = 0;
            for (Certificate cert : cf.generateCertificates(new ByteArrayInputStream(
                    pem.getBytes(StandardCharsets.US_ASCII)))) {
                store.setCertificateEntry("ca-" + i++, cert);
            }
            if (i == 0) {
                throw new CallFailure("the CA bundle holds no PEM certificate", null);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            return ctx;
        } catch (GeneralSecurityException | IOException e) {
            throw new CallFailure("cannot use the CA bundle: " + e.getMessage(), e);
        }
    }
}
