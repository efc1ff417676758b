package dev.tollgate.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Without {@code tollgate.admission.body-read-timeout}, a stalled body meets its own limit before the deadline: 408
 * and the connection closed, not the deadline's 503 with Retry-After (which invites the API server to send it again).
 * This module's tests run with a 1 s deadline (application.properties).
 */
@QuarkusTest
class BodyReadTimeoutDefaultTest {

    @TestHTTPResource("/")
    URL root;

    @Test
    void theDefaultIsThreeQuartersOfTheDeadlineAtMostFiveSeconds() {
        assertEquals(Duration.ofMillis(750), AdmissionConfig.defaultBodyReadTimeout(Duration.ofSeconds(1)));
        assertEquals(Duration.ofSeconds(3), AdmissionConfig.defaultBodyReadTimeout(Duration.ofSeconds(4)));
        assertEquals(Duration.ofSeconds(5), AdmissionConfig.defaultBodyReadTimeout(Duration.ofSeconds(8)));
        assertEquals(Duration.ofSeconds(5), AdmissionConfig.defaultBodyReadTimeout(Duration.ofSeconds(30)));
    }

    @Test
    void aStalledBodyGets408BeforeTheDeadline() throws Exception {
        try (RawHttp http = new RawHttp(root)) {
            String answer = http.send(RawHttp.post("/probe", "Content-Length: 1000\r\n", "{\"apiVersion\":"))
                    .readUntilClosed();
            assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
            assertTrue(answer.contains("did not arrive within 750 ms"), answer);
        }
    }
}
