package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

import dev.tollgate.cel.KubeCel;
import dev.tollgate.simulator.CallRecord.Result;

/**
 * The API server's message for a webhook call that failed, over real HTTP: {@code failed calling webhook "<name>":
 * failed to call webhook: <client error>} (apiserver admission/plugin/webhook/mutating/dispatcher.go and
 * validating/dispatcher.go, util/webhook/error.go), wrapped as {@code Internal error occurred: ...} (500) under
 * failurePolicy Fail (apimachinery pkg/api/errors/errors.go NewInternalError), with client-go's error for the HTTP
 * answer (client-go rest/request.go transformResponse and Result.Error, errors.go NewGenericServerResponse) or Go's
 * url.Error when there is none.
 */
class CallErrorsTest {

    private HttpServer server;
    private String base;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/slow", ex -> {
            try {
                Thread.sleep(2500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            reply(ex, 200, "application/json", "{}");
        });
        server.createContext("/bare-401", ex -> reply(ex, 401, null, ""));
        server.createContext("/status-401", ex -> reply(ex, 401, "application/json",
                "{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"status\":\"Failure\",\"code\":401,"
                        + "\"reason\":\"Unauthorized\",\"message\":\"no valid caller credentials\"}"));
        server.createContext("/status-400", ex -> reply(ex, 400, "application/json",
                "{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"status\":\"Failure\",\"code\":400,"
                        + "\"reason\":\"BadRequest\",\"message\":\"request.uid is required\"}"));
        server.createContext("/text-500", ex -> reply(ex, 500, "text/plain; charset=utf-8", "boom \"here\"\n"));
        server.createContext("/json-500", ex -> reply(ex, 500, "application/json",
                "{\"status\":500,\"error\":\"Internal Server Error\",\"message\":\"boom\"}"));
        server.createContext("/413", ex -> reply(ex, 413, null, ""));
        server.createContext("/text-503", ex -> reply(ex, 503, "text/plain", "no healthy upstream"));
        server.createContext("/created", ex -> reply(ex, 201, "application/json", null));
        server.createContext("/text-200", ex -> reply(ex, 200, "text/plain", "OK"));
        server.createContext("/cut-200", ex -> reply(ex, 200, "application/json", "{\"apiVersion\":"));
        server.createContext("/empty-200", ex -> reply(ex, 200, null, ""));
        server.createContext("/number-kind-200", ex -> reply(ex, 200, "application/json", "{\"apiVersion\":1}"));
        server.createContext("/allow", ex -> {
            if (!ex.getRequestMethod().equals("POST")) {
                reply(ex, 405, null, "");
                return;
            }
            byte[] review = ex.getRequestBody().readAllBytes();
            String uid = FakeWebhooks.JSON.readTree(review).path("request").path("uid").asText();
            reply(ex, 200, "application/json", "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\","
                    + "\"response\":{\"uid\":\"" + uid + "\",\"allowed\":true}}");
        });
        server.createContext("/307", ex -> redirect(ex, 307, "/allow"));
        server.createContext("/302", ex -> redirect(ex, 302, "/allow"));
        server.createContext("/no-location", ex -> redirect(ex, 302, null));
        server.createContext("/loop", ex -> {
            loopRequests.incrementAndGet();
            redirect(ex, 307, "/loop");
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private final java.util.concurrent.atomic.AtomicInteger loopRequests = new java.util.concurrent.atomic.AtomicInteger();

    private static void redirect(com.sun.net.httpserver.HttpExchange ex, int status, String location)
            throws IOException {
        if (location != null) {
            ex.getResponseHeaders().set("Location", location);
        }
        reply(ex, status, null, "");
    }

    private static void reply(com.sun.net.httpserver.HttpExchange ex, int status, String type, String body)
            throws IOException {
        String request = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        if (body == null) {
            body = request; // the review sent, echoed: not an answer the API server accepts
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        if (type != null) {
            ex.getResponseHeaders().set("Content-Type", type);
        }
        ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            ex.getResponseBody().write(bytes);
        }
        ex.close();
    }

    private ManifestReport review(String url, int timeoutSeconds, String failurePolicy) {
        String hook = "- name: hook.example.com\n"
                + "  clientConfig: {url: \"" + url + "\"}\n"
                + "  rules: [{operations: [\"*\"], apiGroups: [\"*\"], apiVersions: [\"*\"], resources: [\"*\"]}]\n"
                + "  sideEffects: None\n  admissionReviewVersions: [v1]\n"
                + "  timeoutSeconds: " + timeoutSeconds + "\n  failurePolicy: " + failurePolicy + "\n";
        try (Simulator s = new Simulator(new Configurations(List.of(SimulatorTest.config(false, "v", hook))),
                new HttpWebhookClient(""), new MatchConditionsSupport(KubeCel.standard()))) {
            return s.review(SimulatorTest.pod("web", ""), ReviewSettings.defaults());
        }
    }

    private static final String PREFIX = "Internal error occurred: failed calling webhook \"hook.example.com\": "
            + "failed to call webhook: ";

    @Test
    void noAnswerWithinTimeoutSecondsIsContextDeadlineExceeded() {
        ManifestReport r = review(base + "/slow", 1, "Fail");
        assertFalse(r.allowed());
        assertEquals(500, r.code());
        assertEquals(PREFIX + "Post \"" + base + "/slow?timeout=1s\": context deadline exceeded", r.message());
    }

    @Test
    void aRefusedConnectionNamesTheDialedAddress() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port + "/hook";
        ManifestReport r = review(url, 10, "Fail");
        assertEquals(PREFIX + "Post \"" + url + "?timeout=10s\": dial tcp 127.0.0.1:" + port
                + ": connect: connection refused", r.message());
    }

    @Test
    void a401WithoutStatusBodyAsksForCredentials() {
        assertEquals(PREFIX + "the server has asked for the client to provide credentials",
                review(base + "/bare-401", 10, "Fail").message());
    }

    @Test
    void aStatusBodyIsRelayed() {
        assertEquals(PREFIX + "no valid caller credentials", review(base + "/status-401", 10, "Fail").message());
        assertEquals(PREFIX + "request.uid is required", review(base + "/status-400", 10, "Fail").message());
    }

    @Test
    void aServerErrorQuotesTextBodiesAndSaysUnknownForOtherBodies() {
        assertEquals(PREFIX + "an error on the server (\"boom \\\"here\\\"\") has prevented the request from "
                + "succeeding", review(base + "/text-500", 10, "Fail").message());
        assertEquals(PREFIX + "an error on the server (\"unknown\") has prevented the request from succeeding",
                review(base + "/json-500", 10, "Fail").message(), "a JSON body that is not a Status is not shown");
        assertEquals(PREFIX + "the server is currently unable to handle the request",
                review(base + "/text-503", 10, "Fail").message());
    }

    @Test
    void a413WithoutBodyHasNoMoreInformation() {
        assertEquals(PREFIX + "the server responded with the status code 413 but did not return more information",
                review(base + "/413", 10, "Fail").message());
    }

    @Test
    void underIgnoreTheSameMessageIsRecordedAndTheRequestGoesOn() {
        ManifestReport r = review(base + "/bare-401", 10, "Ignore");
        assertTrue(r.allowed());
        CallRecord c = r.calls().get(0);
        assertEquals(Result.FAILED_OPEN, c.result());
        assertTrue(c.detail().startsWith("failed calling webhook \"hook.example.com\": failed to call webhook: "
                + "the server has asked for the client to provide credentials"), c.detail());
    }

    @Test
    void statusesUpTo206AreAnswers() {
        // client-go decodes any 200-206 answer; the echoed request is then not a valid response (no response).
        ManifestReport r = review(base + "/created", 10, "Fail");
        assertTrue(r.message().contains("received invalid webhook response"), r.message());
    }

    @Test
    void anUntrustedCertificateIsAnX509Error(@TempDir Path dir) throws Exception {
        TestCertificates certs = TestCertificates.create(dir);
        HttpsServer tls = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        tls.setHttpsConfigurator(new HttpsConfigurator(certs.serverContext()));
        tls.createContext("/hook", ex -> reply(ex, 200, "application/json", "{}"));
        tls.start();
        try {
            String url = "https://127.0.0.1:" + tls.getAddress().getPort() + "/hook";
            assertEquals(PREFIX + "Post \"" + url + "?timeout=10s\": tls: failed to verify certificate: x509: "
                    + "certificate signed by unknown authority", review(url, 10, "Fail").message());
        } finally {
            tls.stop(0);
        }
    }

    // ---- a 200 answer the client cannot decode (client-go rest/request.go Result.Into; AnswerDecoding) ----

    @Test
    void aTextAnswerCannotGiveAKind() {
        assertEquals(PREFIX + "couldn't get version/kind; json parse error: json: cannot unmarshal string into Go "
                + "value of type struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string "
                + "\"json:\\\"kind,omitempty\\\"\" }", review(base + "/text-200", 10, "Fail").message());
    }

    @Test
    void aCutJsonAnswerIsAnUnexpectedEnd() {
        assertEquals(PREFIX + "couldn't get version/kind; json parse error: unexpected end of JSON input",
                review(base + "/cut-200", 10, "Fail").message());
    }

    @Test
    void anEmptyAnswerNamesTheClientsContentType() {
        assertEquals(PREFIX + "0-length response with status code: 200 and content type: application/json",
                review(base + "/empty-200", 10, "Fail").message());
    }

    @Test
    void aKindThatIsNotAStringIsAParseError() {
        assertEquals(PREFIX + "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go "
                + "struct field .apiVersion of type string", review(base + "/number-kind-200", 10, "Fail").message());
    }

    // ---- redirects: Go's http.Client, which client-go does not restrict (rest/transport.go HTTPClientFor) ----

    @Test
    void a307IsFollowedWithTheReview() {
        ManifestReport r = review(base + "/307", 10, "Fail");
        assertTrue(r.allowed(), r.message());
    }

    @Test
    void a302IsFollowedAsAGetWithoutTheReview() {
        // net/http turns a POST into a GET for 301, 302 and 303; the webhook then refuses the method.
        assertEquals(PREFIX + "the server does not allow this method on the requested resource",
                review(base + "/302", 10, "Fail").message());
    }

    @Test
    void aRedirectWithoutLocationIsTheAnswer() {
        assertEquals(PREFIX + "the server responded with the status code 302 but did not return more information",
                review(base + "/no-location", 10, "Fail").message());
    }

    @Test
    void theTenthRedirectIsNotFollowed() {
        assertEquals(PREFIX + "Post \"/loop\": stopped after 10 redirects", review(base + "/loop", 10, "Fail")
                .message(), "Go's url.Error names the Location it refused, as written");
        assertEquals(10, loopRequests.get());
    }

    // ---- IPv6 hosts: Go writes the dialed address in RFC 5952 form, in brackets ----

    @Test
    void aRefusedIpv6ConnectionNamesTheAddressAsGoWritesIt() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("::1"))) {
            port = s.getLocalPort();
        } catch (IOException e) {
            System.out.println("SKIPPED CallErrorsTest.aRefusedIpv6ConnectionNamesTheAddressAsGoWritesIt: no IPv6 "
                    + "loopback here (" + e.getMessage() + ")");
            org.junit.jupiter.api.Assumptions.abort("no IPv6 loopback");
            return;
        }
        String url = "http://[::1]:" + port + "/hook";
        assertEquals(PREFIX + "Post \"" + url + "?timeout=10s\": dial tcp [::1]:" + port
                + ": connect: connection refused", review(url, 10, "Fail").message());
    }

    @Test
    void ipv6AddressesAreWrittenAsGoWritesThem() throws IOException {
        assertEquals("::1", ClientErrors.goIpv6(java.net.InetAddress.getByName("::1").getAddress()));
        assertEquals("2001:db8::1", ClientErrors.goIpv6(java.net.InetAddress.getByName("2001:db8:0:0:0:0:0:1")
                .getAddress()));
        assertEquals("fe80::1:0:0:1", ClientErrors.goIpv6(java.net.InetAddress.getByName("fe80:0:0:0:1:0:0:1")
                .getAddress()), "the longest run of zeros");
        assertEquals("2001:db8::1:0:0:1", ClientErrors.goIpv6(java.net.InetAddress.getByName("2001:db8:0:0:1:0:0:1")
                .getAddress()), "the first of equal runs");
        assertEquals("1:0:1:1:1:1:1:1", ClientErrors.goIpv6(java.net.InetAddress.getByName("1:0:1:1:1:1:1:1")
                .getAddress()), "a single zero group stays");
        assertEquals("1::", ClientErrors.goIpv6(java.net.InetAddress.getByName("1::").getAddress()));
    }
}
