package dev.tollgate.runtime;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/**
 * What the request path relies on Funqy HTTP and Quarkus to do, each stated once, so that an upgrade that stops doing
 * it fails here by name rather than somewhere downstream:
 * <ul>
 * <li>Funqy binds the body with a copy of the application's ObjectMapper, so the codec's parser limits and
 * duplicate-key detection, given to that mapper by an ObjectMapperCustomizer ({@link ReviewJsonLimits}), apply to
 * every review it binds; and it binds with the Jackson 2 deserializer named by {@code @JsonDeserialize} on the
 * input type ({@link ReviewInput.Reader}: a Funqy on Jackson 3 would ignore it and answer its own 400);</li>
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
    void theCodecsNestingLimitAppliesToTheParserFunqyBindsWith() {
        // 101 levels: within Jackson's default (1000), beyond the codec's (100).
        String deep = Probe.body().replaceFirst("\\{", "{\"deep\":" + "[".repeat(101) + "]".repeat(101) + ",");
        post(deep).then().statusCode(400)
                .body("kind", equalTo("Status"))
                .body("message", containsString("nesting depth"));
    }

    @Test
    void duplicateKeysAreRefusedByTheParserFunqyBindsWith() {
        String twice = Probe.body().replaceFirst("\\{", "{\"kind\":\"AdmissionReview\",");
        post(twice).then().statusCode(400)
                .body("kind", equalTo("Status"))
                .body("message", containsString("Duplicate field 'kind'"));
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
