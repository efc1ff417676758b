package dev.tollgate.runtime;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.logging.Level;

import org.junit.jupiter.api.Test;

import dev.tollgate.testing.CapturedLog;
import io.quarkus.test.junit.QuarkusTest;

/**
 * What the request path relies on Funqy HTTP and Quarkus to do, each stated once, so that an upgrade that stops doing
 * it fails here by name rather than somewhere downstream:
 * <ul>
 * <li>Funqy binds the body with the Jackson 2 deserializer named by {@code @JsonDeserialize} on the input type
 * ({@link ReviewInput.Reader}: a Funqy on Jackson 3 would ignore it and answer its own 400), which has the codec
 * decode the body with its own parser, so the limits configured when the function runs and the duplicate-key check
 * hold for every review Funqy binds, whenever Funqy set up its mapper;</li>
 * <li>Funqy starts binding only at a body's first JSON token: bodies without one never reach it;</li>
 * <li>Funqy serializes the function's output with the serializer named on its type, and the status set as the
 * headers are written is the one sent;</li>
 * <li>Funqy calls the function, and subscribes to its Uni, on a worker thread, not the event loop.</li>
 * </ul>
 */
@QuarkusTest
class FunqyContractTest {

    private static io.restassured.response.Response post(String body) {
        return given().contentType("application/json").body(body).post("/probe");
    }

    @Test
    void funqyBindsTheReviewWithTheCodecsDecoder() {
        post(Probe.body("probe", "deny")).then().statusCode(200)
                .body("apiVersion", equalTo("admission.k8s.io/v1"))
                .body("response.allowed", equalTo(false))
                .body("response.status.message", equalTo("probe says no"));
        // The codec's own validation, with the JSON path of the problem: only its decoder says this.
        post(Probe.body().replace("\"uid\":", "\"uid\":1,\"x\":")).then().statusCode(400)
                .body("kind", equalTo("Status"))
                .body("message", equalTo("request.uid: expected a string, got a number"));
    }

    @Test
    void theCodecsNestingLimitAppliesToEveryReviewFunqyBinds() {
        // 101 levels: within the ceiling of Funqy's mapper (1000), beyond the configured limit (100).
        String deep = Probe.body().replaceFirst("\\{", "{\"deep\":" + "[".repeat(101) + "]".repeat(101) + ",");
        post(deep).then().statusCode(400)
                .body("kind", equalTo("Status"))
                .body("message", containsString("nesting depth"));
    }

    @Test
    void theConfiguredStringLimitAppliesToAReviewFunqyBinds() {
        // One string a byte over tollgate.admission.max-string-length (3 MiB), far within Jackson's own (20 MB)
        // and Funqy's mapper's ceiling: only the codec, reading Funqy's parser, refuses it.
        String longString = Probe.body().replaceFirst("\\{", "{\"long\":\"" + "x".repeat(3 * 1024 * 1024 + 1) + "\",");
        post(longString).then().statusCode(400)
                .body("kind", equalTo("Status"))
                .body("message", containsString("String value length (3145729) exceeds the maximum allowed (3145728"));
    }

    @Test
    void bodiesWithoutAFirstJsonTokenAreRefusedBeforeFunqyWithoutAnError() {
        try (CapturedLog log = CapturedLog.of("")) {
            post("   \n").then().statusCode(400)
                    .body("kind", equalTo("Status"))
                    .body("message", equalTo("empty body: expected an AdmissionReview JSON object"));
            post("hello").then().statusCode(400)
                    .body("kind", equalTo("Status"))
                    .body("message", startsWith("body is not valid JSON: Unrecognized token '...'"));
            assertEquals(List.of(), log.records().stream()
                    .filter(r -> r.getLevel().intValue() >= Level.SEVERE.intValue()).map(CapturedLog::message)
                    .toList(), "a bad request is logged as no error");
        }
    }

    @Test
    void duplicateKeysAreRefusedInEveryReviewFunqyBinds() {
        String twice = Probe.body().replaceFirst("\\{", "{\"kind\":\"AdmissionReview\",");
        post(twice).then().statusCode(400)
                .body("kind", equalTo("Status"))
                .body("message", containsString("Duplicate field '...'"));
    }

    @Test
    void funqyWritesTheEncodedAnswerAndTheEdgeItsStatus() {
        post(Probe.body("probe", "throw")).then().statusCode(500)
                .contentType(containsString("application/json"))
                .body("kind", equalTo("Status"))
                .body("reason", equalTo("InternalError"))
                .body("message", equalTo("policy probe failed: IllegalStateException"));
    }

    @Test
    void thePolicyRunsOnAWorkerThread() {
        post(Probe.body("probe", "thread")).then().statusCode(200)
                .body("response.warnings[0]", equalTo("ran on a worker thread"));
    }

    @Test
    void theReviewFunctionsOwnPathIsNoPolicy() {
        given().contentType("application/json").body(Probe.body()).post("/" + ReviewFunction.NAME)
                .then().statusCode(404).body("kind", equalTo("Status"));
    }
}
