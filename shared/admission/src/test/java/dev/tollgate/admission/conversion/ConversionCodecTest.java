package dev.tollgate.admission.conversion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.tollgate.admission.AdmissionLimits;
import dev.tollgate.admission.ReviewDecodeException;
import dev.tollgate.admission.ReviewKind;
import dev.tollgate.admission.ReviewVersion;

class ConversionCodecTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final ConversionCodec codec = new ConversionCodec();

    static String review(String apiVersion, String request) {
        return "{\"apiVersion\":\"" + apiVersion + "\",\"kind\":\"ConversionReview\",\"request\":" + request + "}";
    }

    static final String REQUEST = """
            {"uid":"0000-1111","desiredAPIVersion":"shop.tollgate.dev/v2","objects":[
              {"apiVersion":"shop.tollgate.dev/v1","kind":"Widget","metadata":{"name":"a","namespace":"shop"},
               "spec":{"colour":"red"},"x-unknown":{"kept":true}},
              {"apiVersion":"shop.tollgate.dev/v3","kind":"Widget","metadata":{"name":"b"}}]}
            """;

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void decodesBothVersionsKeepingObjectsRaw(ReviewVersion version) throws Exception {
        ConversionReview review = codec.decode(bytes(review(ReviewKind.CONVERSION.apiVersion(version), REQUEST)));
        assertEquals(version, review.version());
        assertEquals("0000-1111", review.request().uid());
        assertEquals("shop.tollgate.dev/v2", review.request().desiredApiVersion());
        assertEquals(2, review.request().objects().size());
        assertEquals(JSON.readTree(REQUEST).path("objects").get(0), review.request().objects().get(0));
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void answersInTheVersionReceivedWithTheUid(ReviewVersion version) throws Exception {
        JsonNode obj = JSON.readTree("{\"apiVersion\":\"shop.tollgate.dev/v2\",\"kind\":\"Widget\"}");
        JsonNode ok = JSON.readTree(codec.encodeSuccess(version, "u-1", List.of(obj)));
        assertEquals(ReviewKind.CONVERSION.apiVersion(version), ok.path("apiVersion").asText());
        assertEquals("ConversionReview", ok.path("kind").asText());
        assertEquals("u-1", ok.path("response").path("uid").asText());
        assertEquals("Success", ok.path("response").path("result").path("status").asText());
        assertEquals(obj, ok.path("response").path("convertedObjects").get(0));

        JsonNode failed = JSON.readTree(codec.encodeFailure(version, "u-2", "objects[0]: no"));
        assertEquals(ReviewKind.CONVERSION.apiVersion(version), failed.path("apiVersion").asText());
        assertEquals("u-2", failed.path("response").path("uid").asText());
        assertEquals("Failure", failed.path("response").path("result").path("status").asText());
        assertEquals("objects[0]: no", failed.path("response").path("result").path("message").asText());
        assertEquals(0, failed.path("response").path("convertedObjects").size());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            empty body                 ||empty body: expected a ConversionReview JSON object
            not JSON                   |{"apiVersion":|body is not valid JSON
            trailing data              |{"a":1} {"b":2}|body is not valid JSON
            duplicate keys             |{"kind":"ConversionReview","kind":"ConversionReview"}|body is not valid JSON: Duplicate field '...'
            an array                   |[1]|body is not a JSON object: expected a ConversionReview
            no apiVersion              |{"kind":"ConversionReview"}|apiVersion: required
            an AdmissionReview         |{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{}}|unsupported apiVersion: expected apiextensions.k8s.io/v1 or apiextensions.k8s.io/v1beta1
            wrong kind                 |{"apiVersion":"apiextensions.k8s.io/v1","kind":"AdmissionReview"}|kind: expected ConversionReview
            no request                 |{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview"}|request: required
            request not an object      |{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":[]}|request: expected an object, got an array
            no uid                     |{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"desiredAPIVersion":"a/v1","objects":[]}}|request.uid: required
            empty uid                  |{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"","desiredAPIVersion":"a/v1","objects":[]}}|request.uid: must not be empty
            uid a number               |{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":7,"desiredAPIVersion":"a/v1","objects":[]}}|request.uid: expected a string, got a number
            no desiredAPIVersion       |{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","objects":[]}}|request.desiredAPIVersion: required
            desired without group      |{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"v1","objects":[]}}|request.desiredAPIVersion: not <group>/<version>
            desired with two slashes   |{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"a/b/c","objects":[]}}|request.desiredAPIVersion: not <group>/<version>
            no objects                 |{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"a/v1"}}|request.objects: required
            objects not an array       |{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"a/v1","objects":{}}}|request.objects: expected an array, got an object
            object not an object       |{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"a/v1","objects":["x"]}}|request.objects[0]: expected an object, got a string
            object without kind        |{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"a/v1","objects":[{"apiVersion":"a/v2","kind":"W"},{"apiVersion":"a/v2"}]}}|request.objects[1].kind: required
            object with empty version  |{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"a/v1","objects":[{"apiVersion":"","kind":"W"}]}}|request.objects[0].apiVersion: must not be empty
            metadata not an object     |{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"a/v1","objects":[{"apiVersion":"a/v2","kind":"W","metadata":"m"}]}}|request.objects[0].metadata: expected an object, got a string
            """)
    void refusesBadInputNamingThePath(String description, String body, String message) {
        ReviewDecodeException e = assertThrows(ReviewDecodeException.class,
                () -> codec.decode(bytes(body == null ? "" : body)));
        assertEquals(400, e.status());
        assertTrue(e.getMessage().startsWith(message), () -> description + ": " + e.getMessage());
    }

    @Test
    void sharesAdmissionsLimits() {
        ConversionCodec small = new ConversionCodec(new AdmissionLimits(2048, 16, 1024));
        String big = review("apiextensions.k8s.io/v1", "{\"uid\":\"" + "u".repeat(3000) + "\"}");
        ReviewDecodeException tooLarge = assertThrows(ReviewDecodeException.class, () -> small.decode(bytes(big)));
        assertEquals(413, tooLarge.status());
        String deep = "[".repeat(40) + "]".repeat(40);
        ReviewDecodeException tooDeep = assertThrows(ReviewDecodeException.class, () -> small.decode(bytes(deep)));
        assertEquals(400, tooDeep.status());
        assertTrue(tooDeep.getMessage().startsWith("body exceeds a parser limit"), tooDeep.getMessage());
    }

    @Test
    void errorBodiesAreAdmissionsStatusErrors() throws Exception {
        JsonNode body = JSON.readTree(codec.errorBody(400, "request.uid: required"));
        assertEquals("Status", body.path("kind").asText());
        assertEquals(400, body.path("code").asInt());
        assertEquals("BadRequest", body.path("reason").asText());
        assertEquals("request.uid: required", body.path("message").asText());
    }

    /** A body read in place (as the runtime reads a web server's buffer) decodes as from bytes. */
    @Test
    void decodesInPlaceAsFromBytes() throws Exception {
        String body = review("apiextensions.k8s.io/v1beta1", REQUEST);
        assertEquals(codec.decode(bytes(body)), codec.decode(inPlace(body), 3, bytes(body).length));
        ReviewDecodeException trailing = assertThrows(ReviewDecodeException.class,
                () -> codec.decode(inPlace(body + " {}"), 3, bytes(body + " {}").length));
        assertTrue(trailing.getMessage().startsWith("body is not valid JSON: data after the ConversionReview (line "),
                trailing.getMessage());
        ReviewDecodeException duplicate = assertThrows(ReviewDecodeException.class,
                () -> codec.decode(inPlace("{\"a\":1,\"a\":2}"), 3, 13));
        assertTrue(duplicate.getMessage().contains("Duplicate field 'a'"), duplicate.getMessage());
        assertEquals("empty body: expected a ConversionReview JSON object", assertThrows(
                ReviewDecodeException.class, () -> codec.decode(bytes(""))).getMessage());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** {@code body} in the middle of a larger buffer, from offset 3, with bytes around it that are not JSON. */
    private static byte[] inPlace(String body) {
        return bytes("###" + body + "###");
    }
}
