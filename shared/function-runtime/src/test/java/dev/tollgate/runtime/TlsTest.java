package dev.tollgate.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.concurrent.atomic.AtomicReference;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/** Direct TLS from PEM files with mTLS: client certificates verified, rotated server certificates picked up live. */
@QuarkusTest
@TestProfile(TlsFiles.Profile.class)
class TlsTest {

    @TestHTTPResource(value = "/probe", tls = true)
    URL https;

    @TestHTTPResource(value = "/probe")
    URL http;

    @Test
    void clientWithTrustedCertificateIsServed() throws Exception {
        Answer a = post(https, TlsFiles.CLIENT_P12);
        assertEquals(200, a.status);
        assertTrue(a.body.contains("\"allowed\":true"), a.body);
    }

    @Test
    void callerWithoutCertificateGets401() throws Exception {
        assertEquals(401, post(https, null).status);
        assertEquals(401, post(http, null).status, "plain HTTP carries no client certificate");
    }

    @Test
    void certificateFromAnotherCaIsRefused() throws Exception {
        try {
            Answer a = post(https, TlsFiles.STRANGER_P12);
            assertEquals(401, a.status, "an unverified certificate never reaches a policy");
        } catch (IOException e) {
            // refused in the TLS handshake (or the connection dropped): also a refusal
        }
    }

    @Test
    void rotatedServerCertificateIsServedWithoutRestart() throws Exception {
        BigInteger before = post(https, TlsFiles.CLIENT_P12).serverSerial;
        TlsFiles.rotateServerCertificate("gen2");
        BigInteger now = before;
        int droppedHandshakes = 0;
        for (int i = 0; i < 100 && now.equals(before); i++) {
            Thread.sleep(100); // the TLS registry re-reads the files every 500 ms
            try {
                now = post(https, TlsFiles.CLIENT_P12).serverSerial;
            } catch (javax.net.ssl.SSLHandshakeException e) {
                // Vert.x can drop a handshake that arrives while it swaps the SSL context (its channel initializer
                // sees no context for that instant); the next connection gets the new one. README: "Direct TLS".
                droppedHandshakes++;
            }
        }
        assertTrue(droppedHandshakes <= 2, "handshakes dropped during the reload: " + droppedHandshakes);
        assertNotEquals(before, now, "the server presents the rotated certificate");
        assertEquals(200, post(https, TlsFiles.CLIENT_P12).status);
    }

    /**
     * The API server calls webhooks over HTTP/2: every answer, refusals and errors included, must be a valid HTTP/2
     * response (no connection-specific header such as Connection: close, which HTTP/2 forbids).
     */
    @Test
    void everyAnswerIsValidOverHttp2WithTls() throws Exception {
        Answer refused = post(https, null, HttpClient.Version.HTTP_2, Probe.body());
        assertEquals(HttpClient.Version.HTTP_2, refused.version);
        assertEquals(401, refused.status);
        assertTrue(refused.body.contains("\"kind\":\"Status\""), refused.body);
        Answer served = post(https, TlsFiles.CLIENT_P12, HttpClient.Version.HTTP_2, Probe.body());
        assertEquals(HttpClient.Version.HTTP_2, served.version);
        assertEquals(200, served.status);
        Answer malformed = post(https, TlsFiles.CLIENT_P12, HttpClient.Version.HTTP_2, "{\"apiVersion\":1}");
        assertEquals(HttpClient.Version.HTTP_2, malformed.version);
        assertEquals(400, malformed.status);
        assertTrue(malformed.body.contains("\"code\":400"), malformed.body);
    }

    record Answer(int status, String body, BigInteger serverSerial, HttpClient.Version version) {
    }

    private static Answer post(URL url, Path clientKeyStore) throws Exception {
        return post(url, clientKeyStore, HttpClient.Version.HTTP_1_1, Probe.body());
    }

    /** A fresh client (fresh handshake) per call; it records the server certificate it was shown. */
    private static Answer post(URL url, Path clientKeyStore, HttpClient.Version version, String body)
            throws Exception {
        SSLContext tls = SSLContext.getInstance("TLS");
        AtomicReference<X509Certificate> seen = new AtomicReference<>();
        KeyManagerFactory kmf = null;
        if (clientKeyStore != null) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(clientKeyStore)) {
                ks.load(in, TlsFiles.PASSWORD.toCharArray());
            }
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, TlsFiles.PASSWORD.toCharArray());
        }
        tls.init(kmf == null ? null : kmf.getKeyManagers(), new X509ExtendedTrustManager[] { recorder(seen) }, null);
        HttpClient client = HttpClient.newBuilder().sslContext(tls).version(version).build();
        // A bounded wait: with TLS 1.3 a refused client certificate can surface as a connection that never answers.
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(url.toString()))
                .timeout(java.time.Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body(), seen.get() == null ? null : seen.get().getSerialNumber(),
                r.version());
    }

    /** Test only: trusts any server and remembers its certificate, so a rotation can be observed. */
    private static X509ExtendedTrustManager recorder(AtomicReference<X509Certificate> seen) {
        return new X509ExtendedTrustManager() {
            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
                seen.set(chain[0]);
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
                seen.set(chain[0]);
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
                seen.set(chain[0]);
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
    }
}
