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
 * verified against the certificate, as the API server does. Redirects are followed as Go's HTTP client follows them
 * ({@link #MAX_REQUESTS}). Calls that get no answer fail with Go's words for the cause ({@link ClientErrors}).
 */
public final class HttpWebhookClient implements WebhookClient {

    /**
     * The API server's webhook client is client-go's, on a plain Go http.Client (client-go rest/transport.go
     * HTTPClientFor sets no CheckRedirect), so it follows redirects as net/http does by default: up to 10 requests,
     * 301/302/303 as a GET without body, 307/308 with the method and body again, whatever the scheme or host of
     * the Location; all under the one deadline of timeoutSeconds.
     */
    private static final int MAX_REQUESTS = 10;

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
        URI target;
        try {
            target = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new CallFailure("invalid URL " + SecretUrls.redact(url) + ": " + SecretUrls.redactIn(e.getMessage()),
                    e);
        }
        HttpClient client = client(webhook);
        long deadline = System.nanoTime() + Duration.ofSeconds(webhook.timeoutSeconds()).toNanos();
        String method = "POST";
        byte[] body = review;
        for (int requests = 1;; requests++) {
            String shown = SecretUrls.redact(target.toString());
            HttpResponse<byte[]> response = send(client, target, method, body, deadline, shown);
            int status = response.statusCode();
            String location = response.headers().firstValue("Location").orElse("");
            if (!isRedirect(status) || location.isEmpty()) {
                // Go hands a 3xx without a Location to client-go as the answer (net/http client.go).
                return new Answer(status, response.body(), response.headers().firstValue("Content-Type").orElse(""));
            }
            URI next;
            try {
                next = target.resolve(location);
            } catch (IllegalArgumentException e) {
                throw new CallFailure("Post \"" + shown + "\": failed to parse Location header "
                        + ClientErrors.goQuote(SecretUrls.redact(location)) + ": " + e.getMessage(), e);
            }
            if (requests >= MAX_REQUESTS) {
                // Go's url.Error names the Location it refused to follow, as written.
                throw new CallFailure("Post \"" + SecretUrls.redact(location) + "\": stopped after " + MAX_REQUESTS
                        + " redirects", null);
            }
            if (status == 301 || status == 302 || status == 303) {
                method = "GET"; // net/http redirectBehavior: a POST becomes a GET without its body
                body = null;
            } else {
                body = review; // 307 and 308 send the original body again, with the method of the last request
            }
            target = next;
        }
    }

    private static boolean isRedirect(int status) {
        return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
    }

    private static HttpResponse<byte[]> send(HttpClient client, URI target, String method, byte[] body,
            long deadline, String shown) throws CallFailure {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
            throw new CallFailure("Post \"" + shown + "\": context deadline exceeded", null);
        }
        HttpRequest request;
        try {
            request = HttpRequest.newBuilder(target)
                    .timeout(Duration.ofNanos(remaining))
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, */*")
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body))
                    .build();
        } catch (IllegalArgumentException e) {
            throw new CallFailure("Post \"" + shown + "\": unsupported protocol scheme "
                    + ClientErrors.goQuote(String.valueOf(target.getScheme())), e);
        }
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            // Go's url.Error keeps the first request's method (Post) and names the URL that failed.
            throw new CallFailure(ClientErrors.forTransport(shown, target, e), e);
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
