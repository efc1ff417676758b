package dev.tollgate.functions.crdconversion;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.logging.Level;

import org.junit.jupiter.api.Test;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.runtime.ReviewEdge;
import dev.tollgate.testing.CapturedLog;
import dev.tollgate.testing.ConversionTester;
import dev.tollgate.testing.Manifests;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * The runtime's guards apply to the conversion function as to any admission function (the runtime's own tests cover
 * each one in depth): the path-token caller check, and the deadline counted from the request's arrival.
 */
@QuarkusTest
@TestProfile(GuardedHttpTest.Guarded.class)
class GuardedHttpTest {

    static final String TOKEN = "conversion-token-0123456789abcdef";

    public static class Guarded implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // The body-read timeout set past the deadline, so a stalled body meets the deadline (its default, three
            // quarters of the deadline, would answer 408 first).
            return Map.of("tollgate.auth.required", "true", "tollgate.auth.path-token.values", TOKEN,
                    "tollgate.deadline.timeout", "1s", "tollgate.admission.body-read-timeout", "5s");
        }
    }

    @TestHTTPResource("/")
    URL root;

    private static String review() {
        return Manifests.toJson(ConversionTester.request(ReviewVersion.V1, "data.tollgate.dev/v1",
                Databases.v1alpha1()));
    }

    @Test
    void onlyCallersWithThePathTokenAreServed() {
        given().contentType("application/json").body(review()).post("/" + TOKEN + "/crd-conversion")
                .then().statusCode(200).body("response.result.status", equalTo("Success"));
        for (String path : new String[] { "/crd-conversion", "/" + TOKEN + "x/crd-conversion" }) {
            given().contentType("application/json").body(review()).post(path).then().statusCode(401)
                    .body("kind", equalTo("Status")).body("message", equalTo("Unauthorized"));
        }
    }

    /**
     * The body stalls past the deadline: the deadline answers, not the body-read timeout (5 s here). Nothing was
     * decoded, so there is no verdict to give: 503 with Retry-After, never 500.
     */
    @Test
    void theDeadlineCountsFromTheRequestsArrival() throws Exception {
        byte[] body = review().getBytes(StandardCharsets.UTF_8);
        try (CapturedLog log = CapturedLog.of(ReviewEdge.class);
                Socket socket = new Socket(root.getHost(), root.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /" + TOKEN + "/crd-conversion HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body, 0, body.length / 2);
            out.flush();
            String answer = readAnswer(socket.getInputStream());
            assertTrue(answer.startsWith("HTTP/1.1 503"), answer);
            assertTrue(answer.toLowerCase().contains("retry-after: 1"), answer);
            assertTrue(answer.contains("\"kind\":\"Status\"")
                    && answer.contains("could not read the review within the deadline of 1000 ms"), answer);
            log.await(Level.WARNING, "function crd-conversion could not read the review within the deadline of 1000 ms",
                    "answered 503");
        }
    }

    /** Reads until the connection closes or a complete JSON body has arrived. */
    private static String readAnswer(InputStream in) throws Exception {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        int n;
        while ((n = in.read(buf)) > 0) {
            got.write(buf, 0, n);
            String text = got.toString(StandardCharsets.UTF_8);
            if (text.contains("\r\n\r\n") && text.trim().endsWith("}")) {
                break;
            }
        }
        return got.toString(StandardCharsets.UTF_8);
    }
}
