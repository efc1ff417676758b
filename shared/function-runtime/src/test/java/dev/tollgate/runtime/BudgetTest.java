package dev.tollgate.runtime;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;

import org.junit.jupiter.api.Test;

import dev.tollgate.admission.AdmissionHandler;
import dev.tollgate.testing.CapturedLog;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;

/** The memory and time budgets: bytes in flight, a stalled body, the deadline armed at arrival. */
@QuarkusTest
@TestProfile(BudgetTest.Small.class)
class BudgetTest {

    /** A budget of exactly one maximal body (64 KiB), a short body-read timeout and a deadline after it. */
    public static class Small implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("tollgate.admission.max-body-bytes", "65536",
                    "tollgate.budget.in-flight-body-bytes", "65536",
                    "tollgate.admission.body-read-timeout", "500ms",
                    "tollgate.deadline.timeout", "3s");
        }
    }

    @TestHTTPResource("/")
    URL root;

    /** A probe review padded with an annotation to about {@code bytes}. */
    private static String review(int bytes, String... labels) {
        String body = Probe.body(labels);
        return body.replaceFirst("\\{", "{\"padding\":\"" + "x".repeat(Math.max(0, bytes - body.length() - 14))
                + "\",");
    }

    private static Response post(String body) {
        return given().contentType("application/json").body(body).post("/probe");
    }

    @Test
    void requestBeyondTheInFlightBudgetIsRefusedAtOnceWithRetryAfter() throws Exception {
        String bigReview = review(50_000, "sleep-ms", "2000");
        try (CapturedLog log = CapturedLog.of(ReviewEdge.class, PolicyRunner.class, AnswerRecorder.class)) {
            CompletableFuture<Response> big = CompletableFuture.supplyAsync(() -> post(bigReview));
            Thread.sleep(500); // the big review, answered after 2 s, now holds 50 KB of the 64 KiB budget
            post(review(20_000)).then().statusCode(503)
                    .header("Retry-After", "1")
                    .body("kind", equalTo("Status"))
                    .body("code", equalTo(503))
                    .body("reason", equalTo("ServiceUnavailable"))
                    .body("message", containsString("in-flight body budget"));
            assertEquals(200, big.get().statusCode());
            log.await(Level.WARNING, "slow review: policy probe took", "uid=" + Probe.uid(bigReview),
                    "(slow threshold 300 ms, deadline 3000 ms)");
        }
        post(review(20_000)).then().statusCode(200);
        assertTrue(Probe.metric(Probe.metrics(), "tollgate_budget_refused_total", "function=\"probe\"") >= 1);
    }

    /**
     * The deadline answers a review whose policy runs on (a busy loop that ignores the interrupt, as a CPU-bound
     * evaluation does): its body bytes stay reserved until the policy returns, since its decoded review and working
     * copies stay on the heap until then; giving them back with the answer would admit new reviews into a full heap
     * (the native executable ran out of heap that way under MemoryBudgetIT on a loaded machine).
     */
    @Test
    void aPolicyRunningPastTheDeadlineKeepsItsBytesUntilItReturns() throws Exception {
        String spinning = review(50_000, "probe", "spin", "sleep-ms", "10000");
        try (CapturedLog log = CapturedLog.of(ReviewEdge.class, PolicyRunner.class, AnswerRecorder.class)) {
            post(spinning).then().statusCode(500)
                    .body("message", equalTo("policy probe did not answer within the deadline of 3000 ms"));
            // Answered, but the policy still spins on its 50 KB review: 20 KB more do not fit the 64 KiB budget.
            post(review(20_000)).then().statusCode(503)
                    .body("message", containsString("in-flight body budget"));
            log.await(Level.WARNING, "policy probe returned after", "uid=" + Probe.uid(spinning),
                    "its answer was dropped");
        }
        post(review(20_000)).then().statusCode(200);
    }

    @Test
    void declaredLengthOverTheLimitIsRefusedBeforeTheBodyIsRead() throws Exception {
        try (RawHttp http = new RawHttp(root)) {
            String answer = http.send(RawHttp.post("/probe", "Content-Length: 70000\r\n", "{")).readUntilClosed();
            assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
            assertTrue(answer.contains("body of 70000 bytes exceeds the limit of 65536 bytes"), answer);
        }
    }

    @Test
    void stalledBodyGets408AndTheConnectionIsClosed() throws Exception {
        try (RawHttp http = new RawHttp(root)) {
            String answer = http.send(RawHttp.post("/probe", "Content-Length: 1000\r\n", "{\"apiVersion\":"))
                    .readUntilClosed();
            assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
            assertTrue(answer.contains("\"kind\":\"Status\"") && answer.contains("did not arrive within 500 ms"),
                    answer);
            assertTrue(!answer.contains("<still open"), "the server closed the connection: " + answer);
        }
        try (RawHttp http = new RawHttp(root)) {
            String answer = http.send(RawHttp.post("/probe", "Transfer-Encoding: chunked\r\n", "5\r\n{\"a\":\r\n"))
                    .readUntilClosed();
            assertTrue(answer.startsWith("HTTP/1.1 408"), "a chunked body that never ends: " + answer);
        }
        // Both stalled requests gave their share of the budget back: a maximal body still fits.
        post(review(60_000)).then().statusCode(200);
    }

    /** One timer serves both limits: once the body is in, the body-read timeout passing hands over to the deadline. */
    @Test
    void aPolicyStillSlowAfterTheBodyReadTimeoutGetsTheDeadlineAnswer() {
        String slow = review(1_000, "sleep-ms", "700");
        String overrun = review(1_000, "sleep-ms", "4000");
        try (CapturedLog log = CapturedLog.of(ReviewEdge.class, PolicyRunner.class, AnswerRecorder.class, AdmissionHandler.class)) {
            post(slow).then().statusCode(200); // past the body-read timeout, within the deadline
            log.await(Level.WARNING, "slow review: policy probe took", "uid=" + Probe.uid(slow));
            post(overrun).then().statusCode(500)
                    .body("kind", equalTo("Status"))
                    .body("message", equalTo("policy probe did not answer within the deadline of 3000 ms"));
            // The overrun is logged, the interrupted policy's failure too, and its late return is dropped.
            String uid = "uid=" + Probe.uid(overrun);
            log.await(Level.WARNING, "policy probe did not answer within the deadline of 3000 ms", uid,
                    "answered 500 (error)");
            log.await(Level.SEVERE, "policy probe failed on request " + uid);
            log.await(Level.WARNING, "policy probe returned after", uid, "its answer was dropped");
        }
    }
}
