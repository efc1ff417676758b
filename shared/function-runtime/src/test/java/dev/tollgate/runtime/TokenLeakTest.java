package dev.tollgate.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.LogRecord;

import org.junit.jupiter.api.Test;

import dev.tollgate.testing.CapturedLog;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * Issue 45: no secret in any log or answer. Two clusters (east, west) call one function; east's credentials admit
 * every request below, and west's tokens (or east's own) sit in every other place a request can carry text: the path
 * after the token, the query string, header values, the method, and the bodies of requests the function refuses.
 * Every error path the edge and the codecs have is taken, and every response (status line, headers, body), every
 * log line of every category (decision log included, with any exception's text) and every metric is searched for
 * the tokens.
 */
@QuarkusTest
@TestProfile(AuthProfiles.Clusters.class)
class TokenLeakTest {

    private static final String EAST = AuthProfiles.EAST_PATH;
    private static final String EAST_BEARER = AuthProfiles.EAST_BEARER;
    /** Each a secret that must be seen nowhere: west's tokens, and east's bearer token. */
    private static final String HEX = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718";
    private static final List<String> SECRETS = List.of(AuthProfiles.WEST_PATH, AuthProfiles.WEST_BEARER,
            AuthProfiles.EAST_BEARER, HEX);
    private static final String W = AuthProfiles.WEST_PATH;

    @TestHTTPResource("/")
    URL root;

    @Test
    void noTokenInAnyPositionReachesALogLineAMetricOrAnAnswer() throws Exception {
        String auth = "Authorization: Bearer " + EAST_BEARER + "\r\n";
        String review = Probe.body("probe", "deny");
        List<String> answers = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        try (CapturedLog log = CapturedLog.of("", DecisionLog.CATEGORY)) {
            // The path after the token (404), in every segment; and the query string, on paths that exist and not.
            answers.add(send(RawHttp.post("/" + EAST + "/" + W + "/probe", auth + length(review), review)));
            answers.add(send(RawHttp.post("/" + EAST + "/probe/" + W, auth + length(review), review)));
            answers.add(send(RawHttp.post("/" + EAST + "/" + W, auth + length(review), review)));
            answers.add(send(RawHttp.post("/" + EAST + "/probe?" + W, auth + length(review), review)));
            answers.add(send(RawHttp.post("/" + EAST + "/probe?token=" + W + "&x=" + W, auth + length(review),
                    review)));
            answers.add(send(RawHttp.post("/" + EAST + "/nothing?token=" + W, auth + length(review), review)));
            answers.add(send(RawHttp.post("/q/" + W + "?" + W, auth + length(review), review)));
            answers.add(send(RawHttp.post("/" + EAST + "/q/" + W, auth + length(review), review)));
            // Caller refusals (401): a wrong or another cluster's token in the path, the Authorization header.
            answers.add(send(RawHttp.post("/" + W + "/probe", auth + length(review), review)));
            answers.add(send(RawHttp.post("/" + EAST + "/probe", "Authorization: Bearer " + AuthProfiles.WEST_BEARER
                    + "\r\n" + length(review), review)));
            answers.add(send(RawHttp.post("/" + EAST + "/probe", "Authorization: " + W + "\r\n" + length(review),
                    review)));
            // The method (405), a standard one and one that is a token.
            answers.add(send("GET /" + EAST + "/probe?" + W + " HTTP/1.1\r\nHost: localhost\r\n" + auth + "\r\n"));
            answers.add(send(W.toUpperCase() + " /" + EAST + "/probe HTTP/1.1\r\nHost: localhost\r\n" + auth
                    + length(review) + "\r\n" + review));
            answers.add(send("PUT /" + EAST + "/probe HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "X-Token: " + W + "\r\n" + auth + length(review) + "\r\n" + review));
            // Header values the edge checks (400): Content-Type, Transfer-Encoding; and a declared length (413).
            answers.add(send("POST /" + EAST + "/probe HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/" + W
                    + "\r\n" + auth + length(review) + "\r\n" + review));
            answers.add(send("POST /" + EAST + "/probe HTTP/1.1\r\nHost: localhost\r\nContent-Type: " + W + "\r\n"
                    + auth + length(review) + "\r\n" + review));
            answers.add(send(RawHttp.post("/" + EAST + "/probe", auth + "Transfer-Encoding: " + W + ", chunked, "
                    + W + "\r\n" + length(review), review)));
            answers.add(send(RawHttp.post("/" + EAST + "/probe", auth + "X-Token: " + W + "\r\nContent-Length: "
                    + 1_000_000_000 + "\r\n", review)));
            // Bodies of refused requests (400): the token as JSON it cannot be, as a value the codec checks, in
            // either kind of review, and beside a JSON value.
            List<String> bodies = new ArrayList<>(refusedBodies(W));
            bodies.addAll(refusedBodies(HEX)); // as `openssl rand -hex 24` makes a token: one JSON token long
            for (String body : bodies) {
                answers.add(send(RawHttp.post("/" + EAST + "/probe?" + W, auth + length(body), body)));
                answers.add(send(RawHttp.post("/" + EAST + "/probe-conversion", auth + length(body), body)));
            }
            // A body that does not arrive in time (the deadline's 503), with the token in the part that did.
            answers.add(send(RawHttp.post("/" + EAST + "/probe?" + W, auth + "Content-Length: 5000\r\n",
                    "{\"apiVersion\":\"" + W)));
            // The ordinary answers, for comparison: the log was captured and shows the call.
            answers.add(send(RawHttp.post("/" + EAST + "/probe?" + W, auth + "X-Token: " + W + "\r\n"
                    + length(review), review)));
            answers.add(metricsText());
            for (LogRecord r : log.records()) {
                lines.add(r.getLoggerName() + " " + r.getLevel() + " " + CapturedLog.message(r) + thrown(r));
            }
        }
        assertTrue(lines.stream().anyMatch(l -> l.startsWith(DecisionLog.CATEGORY) && l.contains("\"status\":404")),
                "the decision log was captured: " + lines);
        assertTrue(answers.stream().anyMatch(a -> a.startsWith("HTTP/1.1 405")), "a 405 was answered: " + answers);
        List<String> leaks = new ArrayList<>();
        for (String secret : SECRETS) {
            for (String place : concat(answers, lines)) {
                if (place.toLowerCase().contains(secret.toLowerCase())) {
                    leaks.add(secret + " in: " + place.substring(0, Math.min(place.length(), 600)));
                }
            }
        }
        assertEquals(List.of(), leaks, "a token was written to an answer, a log line or a metric");
    }

    private static List<String> refusedBodies(String w) {
        String v1 = "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",";
        String c1 = "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"ConversionReview\",";
        return List.of(
                w,
                "\"" + w + "\"",
                "{" + w + "}",
                "{\"a\":" + w + "}",
                "{\"" + w + "\":1,\"" + w + "\":2}",
                "{\"a\":1}" + w,
                "{\"a\":1} {\"" + w + "\":1}",
                "[" + w + "]",
                "{\"a\":123456789012345678901234567890" + w + "}",
                "{\"apiVersion\":\"" + w + "\",\"kind\":\"AdmissionReview\"}",
                "{\"apiVersion\":\"admission.k8s.io/" + w + "\",\"kind\":\"AdmissionReview\"}",
                v1.replace("AdmissionReview", w) + "\"request\":{}}",
                v1 + "\"request\":{\"uid\":\"" + w + "\",\"operation\":\"" + w + "\"}}",
                v1 + "\"request\":{\"uid\":\"u\",\"operation\":\"CREATE\",\"" + w + "\":{\"" + w + "\":1}}}",
                c1 + "\"request\":{\"uid\":\"" + w + "\",\"desiredAPIVersion\":\"" + w + "\",\"objects\":[]}}",
                c1 + "\"request\":{\"uid\":\"u\",\"desiredAPIVersion\":\"a/" + w + "/b\",\"objects\":[]}}",
                c1.replace("ConversionReview", w) + "\"request\":{}}",
                "{\"apiVersion\":\"" + w + "/v1\",\"kind\":\"ConversionReview\",\"request\":{}}");
    }

    private String send(String request) throws Exception {
        try (RawHttp http = new RawHttp(root)) {
            // Every connection closes after its answer, so each is read to its end.
            return http.send(request.replaceFirst("\r\nHost: localhost\r\n",
                    "\r\nHost: localhost\r\nConnection: close\r\n")).readUntilClosed();
        }
    }

    private static String length(String body) {
        return "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n";
    }

    private static String metricsText() {
        return Probe.metrics();
    }

    private static String thrown(LogRecord r) {
        if (r.getThrown() == null) {
            return "";
        }
        StringWriter out = new StringWriter();
        r.getThrown().printStackTrace(new PrintWriter(out));
        return "\n" + out;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
