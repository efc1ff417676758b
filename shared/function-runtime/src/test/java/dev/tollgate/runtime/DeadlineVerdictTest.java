package dev.tollgate.runtime;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.util.logging.Level;

import org.junit.jupiter.api.Test;

import dev.tollgate.admission.AdmissionHandler;
import dev.tollgate.admission.conversion.ConversionHandler;
import dev.tollgate.testing.CapturedLog;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** With tollgate.deadline.on-timeout=allow, an overrun is answered as an allow that carries a warning. */
@QuarkusTest
@TestProfile(AuthProfiles.AllowOnTimeout.class)
class DeadlineVerdictTest {

    @Test
    void overrunIsAllowedWithAWarningInTheRequestsVersion() {
        String body = Probe.body("sleep-ms", "30000");
        String uid = "uid=" + Probe.uid(body);
        try (CapturedLog log = CapturedLog.of(ReviewEdge.class, PolicyRunner.class, AnswerRecorder.class, AdmissionHandler.class)) {
            given().contentType("application/json").body(body).post("/probe").then().statusCode(200)
                    .body("apiVersion", equalTo("admission.k8s.io/v1"))
                    .body("response.allowed", equalTo(true))
                    .body("response.warnings[0]", containsString("allowed by the configured deadline verdict"));
            // The operator still learns of the overrun, and of the interrupted policy's end.
            log.await(Level.WARNING, "policy probe did not answer within the deadline of 1000 ms", uid,
                    "answered 200 (allow)");
            log.await(Level.SEVERE, "policy probe failed on request " + uid);
            log.await(Level.WARNING, "policy probe returned after", uid, "its answer was dropped");
        }
    }

    /** A conversion has no verdict to default to: an overrun is an error whatever on-timeout says. */
    @Test
    void aConversionOverrunIsStillAnError() {
        var review = dev.tollgate.testing.ConversionTester.request(
                dev.tollgate.admission.ReviewVersion.V1, ProbeConversion.GROUP + "/v2",
                ConversionGateTest.probe("slow", "sleep-ms", "30000"));
        String uid = "uid=" + review.path("request").path("uid").asText();
        try (CapturedLog log = CapturedLog.of(ReviewEdge.class, PolicyRunner.class, AnswerRecorder.class, ConversionHandler.class)) {
            given().contentType("application/json").body(dev.tollgate.testing.Manifests.toJson(review))
                    .post("/probe-conversion").then().statusCode(500).body("kind", equalTo("Status"))
                    .body("message", containsString("did not answer within the deadline"));
            log.await(Level.WARNING, "policy probe-conversion did not answer within the deadline", uid,
                    "answered 500 (error)");
            log.await(Level.SEVERE, "conversion policy probe-conversion failed on request " + uid);
            log.await(Level.WARNING, "policy probe-conversion returned after", uid, "its answer was dropped");
        }
    }
}
