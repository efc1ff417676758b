package dev.tollgate.runtime;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import org.junit.jupiter.api.Test;

import dev.tollgate.testing.CapturedLog;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;

/** The gate around Funqy's route: how a request reaches the @Funq method, and what never reaches it. */
@QuarkusTest
class GateTest {

    @TestHTTPResource("/")
    URL root;

    @Test
    void nodeDenseReviewUnderTheByteLimitIsRefusedNamingTheTokenLimit() {
        // Tiny arrays: the shape that costs ten times the heap per byte of an ordinary review. The test limit is
        // 100,000 tokens (application.properties); this body has 120,000 in 180 kB.
        String dense = Probe.body().replaceFirst("\\{", "{\"padding\":[" + "[],".repeat(60_000) + "[]],");
        given().contentType("application/json").body(dense).post("/probe")
                .then().statusCode(400)
                .body("kind", equalTo("Status"))
                .body("message", containsString("Token count"));
    }

    @Test
    void transferEncodingOtherThanChunkedIsRefusedAndTheConnectionClosed() throws Exception {
        String body = Probe.body();
        try (RawHttp http = new RawHttp(root)) {
            String answer = http.send(RawHttp.post("/probe", "Transfer-Encoding: xchunked\r\nContent-Length: "
                    + body.getBytes(StandardCharsets.UTF_8).length + "\r\n", body)).readUntilClosed();
            assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
            assertTrue(answer.contains("Transfer-Encoding other than chunked is not supported"), answer);
            assertTrue(answer.toLowerCase().contains("connection: close"), answer);
        }
    }

    /**
     * RFC 9112 6.3: Transfer-Encoding frames the body and a Content-Length beside it is ignored. Only virtual
     * connections get here with both (Netty drops the Content-Length of a network request): AWS Lambda's HTTP handler
     * marks every request chunked and keeps the event's Content-Length; CI runs the HTTP tests under -Plambda.
     */
    @Test
    void chunkedIsTheOnlyFramingProblemCheckedAndContentLengthBesideItIsNoProblem() {
        assertEquals(null, ReviewEdge.framingProblem(null));
        assertEquals(null, ReviewEdge.framingProblem("chunked"));
        assertEquals(null, ReviewEdge.framingProblem("gzip, Chunked"));
        assertEquals("Transfer-Encoding other than chunked is not supported: send the body with Content-Length or "
                + "Transfer-Encoding: chunked", ReviewEdge.framingProblem("chunked, gzip"));
    }

    @Test
    void clientThatGoesAwayMidBodyIsNeitherAnsweredNorLoggedAsAnError() throws Exception {
        try (CapturedLog log = CapturedLog.of("", DecisionLog.CATEGORY)) {
            try (RawHttp http = new RawHttp(root)) {
                http.send(RawHttp.post("/probe", "Content-Length: 5000\r\n", "{\"apiVersion\":"));
                Thread.sleep(200);
            }
            Thread.sleep(500);
            given().contentType("application/json").body(Probe.body()).post("/probe").then().statusCode(200);
            List<LogRecord> records = log.records();
            assertTrue(records.stream().noneMatch(r -> r.getLevel().intValue() >= Level.SEVERE.intValue()),
                    () -> "no ERROR for a client that went away: " + log.lines());
            assertEquals(1, records.stream().filter(r -> DecisionLog.CATEGORY.equals(r.getLoggerName())).count(),
                    "only the answered review is in the decision log");
        }
    }

    /** h2c with prior knowledge, as an HTTP/2 client that knows the server speaks it. */
    @Test
    void contractHoldsOverCleartextHttp2() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            HttpClient client = vertx.createHttpClient(new HttpClientOptions().setProtocolVersion(HttpVersion.HTTP_2)
                    .setHttp2ClearTextUpgrade(false).setDefaultHost(root.getHost()).setDefaultPort(root.getPort()));
            assertAnswer(client, HttpMethod.POST, "/probe", Probe.body(), 200, "\"allowed\":true");
            assertAnswer(client, HttpMethod.POST, "/probe", "[1]", 400, "\"code\":400");
            assertAnswer(client, HttpMethod.POST, "/nowhere", Probe.body(), 404, "\"code\":404");
            assertAnswer(client, HttpMethod.PUT, "/probe", Probe.body(), 405, "\"code\":405");
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    private static void assertAnswer(HttpClient client, HttpMethod method, String path, String body, int status,
            String contains) throws Exception {
        HttpClientResponse[] response = new HttpClientResponse[1];
        Buffer answer = client.request(new RequestOptions().setMethod(method).setURI(path)
                .putHeader("Content-Type", "application/json"))
                .compose(req -> req.send(Buffer.buffer(body)))
                .compose(resp -> {
                    response[0] = resp;
                    return resp.body();
                })
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertEquals(HttpVersion.HTTP_2, response[0].version());
        assertEquals(status, response[0].statusCode(), answer::toString);
        assertTrue(answer.toString().contains(contains), answer::toString);
    }
}
