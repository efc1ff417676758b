package dev.tollgate.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;

class AdmissionCodecTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final AdmissionCodec codec = new AdmissionCodec();

    /** A complete v1 request with every field the API server sends, including one the code does not know. */
    static final String FULL_REQUEST = """
            {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{
              "uid":"705ab4f5-6393-11e8-b7cc-42010a800002",
              "kind":{"group":"autoscaling","version":"v1","kind":"Scale"},
              "resource":{"group":"apps","version":"v1","resource":"deployments"},
              "subResource":"scale",
              "requestKind":{"group":"autoscaling","version":"v1","kind":"Scale"},
              "requestResource":{"group":"apps","version":"v1beta1","resource":"deployments"},
              "requestSubResource":"scale",
              "name":"my-deployment","namespace":"my-namespace","operation":"UPDATE",
              "userInfo":{"username":"admin","uid":"014fbff9a07c","groups":["system:authenticated","my-admin-group"],
                          "extra":{"some-key":["some-value1","some-value2"]}},
              "object":{"apiVersion":"autoscaling/v1","kind":"Scale","spec":{"replicas":3},"x-unknown":{"kept":true}},
              "oldObject":{"apiVersion":"autoscaling/v1","kind":"Scale","spec":{"replicas":2}},
              "options":{"apiVersion":"meta.k8s.io/v1","kind":"UpdateOptions","fieldManager":"kubectl"},
              "dryRun":true}}
            """;

    @Test
    void decodesEveryFieldTheApiServerSends() throws Exception {
        AdmissionReview review = codec.decode(FULL_REQUEST.getBytes(StandardCharsets.UTF_8));
        AdmissionRequest r = review.request();
        assertEquals(ReviewVersion.V1, review.version());
        assertEquals("705ab4f5-6393-11e8-b7cc-42010a800002", r.uid());
        assertEquals(GroupVersionKind.of("autoscaling", "v1", "Scale"), r.kind());
        assertEquals(GroupVersionResource.of("apps", "v1", "deployments"), r.resource());
        assertEquals("scale", r.subResource());
        assertEquals(GroupVersionResource.of("apps", "v1beta1", "deployments"), r.requestResource());
        assertEquals("scale", r.requestSubResource());
        assertEquals("my-deployment", r.name());
        assertEquals("my-namespace", r.namespace());
        assertEquals(Operation.UPDATE, r.operation());
        assertEquals(new UserInfo("admin", "014fbff9a07c", List.of("system:authenticated", "my-admin-group"),
                Map.of("some-key", List.of("some-value1", "some-value2"))), r.userInfo());
        assertEquals(3, r.object().at("spec", "replicas").asInt());
        assertTrue(r.object().json().path("x-unknown").path("kept").asBoolean(), "unknown fields are kept");
        assertEquals(2, r.oldObject().at("spec", "replicas").asInt());
        assertEquals("kubectl", r.options().path("fieldManager").asText());
        assertTrue(r.dryRun());
        assertFalse(r.isMainResource());
    }

    @Test
    void decodesMinimalV1beta1RequestWithDefaults() throws Exception {
        String body = """
                {"apiVersion":"admission.k8s.io/v1beta1","kind":"AdmissionReview","request":{"uid":"u1",
                 "kind":{"group":"","version":"v1","kind":"Pod"},"resource":{"group":"","version":"v1","resource":"pods"},
                 "operation":"DELETE","oldObject":{"kind":"Pod"}}}
                """;
        AdmissionReview review = codec.decode(body.getBytes(StandardCharsets.UTF_8));
        AdmissionRequest r = review.request();
        assertEquals(ReviewVersion.V1BETA1, review.version());
        assertNull(r.object());
        assertEquals("Pod", r.objectOrOld().kind());
        assertEquals(r.kind(), r.requestKind(), "requestKind defaults to kind");
        assertEquals(r.resource(), r.requestResource());
        assertEquals(UserInfo.ANONYMOUS, r.userInfo());
        assertFalse(r.dryRun());
        assertEquals("", r.namespace());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            admission.k8s.io/v1      | allow
            admission.k8s.io/v1beta1 | allow
            admission.k8s.io/v1      | deny
            admission.k8s.io/v1beta1 | deny
            """)
    void answersInTheVersionReceivedEchoingTheUid(String apiVersion, String decision) throws Exception {
        ReviewVersion version = ReviewKind.ADMISSION.version(apiVersion).orElseThrow();
        Verdict verdict = decision.equals("allow") ? Verdict.allow() : Verdict.deny("no");
        JsonNode out = JSON.readTree(codec.encode(version, "uid-7", verdict, null));
        assertEquals(apiVersion, out.path("apiVersion").asText());
        assertEquals("AdmissionReview", out.path("kind").asText());
        assertEquals("uid-7", out.path("response").path("uid").asText());
        assertEquals(decision.equals("allow"), out.path("response").path("allowed").asBoolean());
        assertFalse(out.path("response").has("patch"));
        assertFalse(out.path("response").has("patchType"));
    }

    @Test
    void encodesDenialStatusWarningsAndAuditAnnotations() throws Exception {
        Verdict v = Verdict.deny(422, "bad replicas").withWarning("Warning: deprecated field")
                .withAuditAnnotation("reason", "replicas");
        JsonNode resp = JSON.readTree(codec.encode(ReviewVersion.V1, "u", v, null)).path("response");
        assertEquals(422, resp.path("status").path("code").asInt());
        assertEquals("Invalid", resp.path("status").path("reason").asText());
        assertEquals("bad replicas", resp.path("status").path("message").asText());
        assertEquals("deprecated field", resp.path("warnings").get(0).asText(), "no Warning: prefix");
        assertEquals("replicas", resp.path("auditAnnotations").path("reason").asText());
    }

    @Test
    void encodesPatchAsBase64JsonPatchOnlyWhenNotEmpty() throws Exception {
        ArrayNode patch = JSON.createArrayNode();
        patch.addObject().put("op", "add").put("path", "/metadata/labels/a").put("value", "b");
        JsonNode resp = JSON.readTree(codec.encode(ReviewVersion.V1, "u", Verdict.allow(), patch))
                .path("response");
        assertEquals("JSONPatch", resp.path("patchType").asText());
        assertEquals(patch, JSON.readTree(Base64.getDecoder().decode(resp.path("patch").asText())));
        JsonNode none = JSON.readTree(codec.encode(ReviewVersion.V1, "u", Verdict.allow(), JSON.createArrayNode()))
                .path("response");
        assertFalse(none.has("patch") || none.has("patchType"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            ``                                                                                  | empty body
            `[1]`                                                                               | not a JSON object
            `{`                                                                                 | not valid JSON
            `{"kind":"AdmissionReview"}`                                                        | apiVersion: required
            `{"apiVersion":"admission.k8s.io/v2","kind":"AdmissionReview"}`                     | unsupported apiVersion
            `{"apiVersion":"admission.k8s.io/v1","kind":"Review"}`                              | kind: expected AdmissionReview
            `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"}`                     | request: required
            `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":[]}`        | request: expected an object
            `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{}}`        | request.uid: required
            `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":1}}` | request.uid: expected a string
            `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u","operation":"X"}}` | unknown operation, expected CREATE
            `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u","operation":"CREATE"}}` | request.kind: required
            `{"apiVersion":"admission.k8s.io/v1","apiVersion":"admission.k8s.io/v1"}`           | Duplicate field
            `{"apiVersion":"admission.k8s.io/v1"} []`                                           | not valid JSON
            """)
    void rejectsMalformedReviewsNamingTheProblem(String body, String expected) {
        ReviewDecodeException e = assertThrows(ReviewDecodeException.class,
                () -> codec.decode((body == null ? "" : body).getBytes(StandardCharsets.UTF_8)));
        assertEquals(400, e.status());
        assertTrue(e.getMessage().contains(expected), () -> "'" + e.getMessage() + "' should contain " + expected);
    }

    @Test
    void rejectsWrongFieldTypesWithTheirPath() {
        String base = FULL_REQUEST;
        assertDecodeError(base.replace("\"dryRun\":true", "\"dryRun\":\"yes\""), "request.dryRun: expected a boolean");
        assertDecodeError(base.replace("\"groups\":[\"system:authenticated\"", "\"groups\":[1"),
                "request.userInfo.groups[0]: expected a string");
        assertDecodeError(base.replace("\"name\":\"my-deployment\"", "\"name\":{}"), "request.name: expected a string");
        assertDecodeError(base.replace("\"options\":{", "\"options\":[{").replace("\"kubectl\"}", "\"kubectl\"}]"),
                "request.options: expected an object");
        assertDecodeError(base.replace("\"resource\":\"deployments\"", "\"resource\":5"),
                "request.resource.resource: expected a string");
    }

    @Test
    void enforcesSizeDepthAndStringLimits() {
        AdmissionCodec small = new AdmissionCodec(new AdmissionLimits(4096, 32, 2048));
        ReviewDecodeException big = assertThrows(ReviewDecodeException.class,
                () -> small.decode(new byte[5000]));
        assertEquals(413, big.status());
        String deep = "{\"a\":" + "[".repeat(40) + "]".repeat(40) + "}";
        assertTrue(assertThrows(ReviewDecodeException.class, () -> small.decode(deep.getBytes()))
                .getMessage().contains("parser limit"));
        String longString = "{\"apiVersion\":\"" + "x".repeat(3000) + "\"}";
        assertTrue(assertThrows(ReviewDecodeException.class, () -> small.decode(longString.getBytes()))
                .getMessage().contains("parser limit"));
    }

    @Test
    void syntaxErrorsNameLineAndColumnWithoutParserNoise() {
        ReviewDecodeException e = assertThrows(ReviewDecodeException.class, () -> codec.decode("{".getBytes()));
        assertTrue(e.getMessage().startsWith("body is not valid JSON: Unexpected end-of-input"), e.getMessage());
        assertTrue(e.getMessage().contains("(start marker at [line: 1, column: 1])"), e.getMessage());
        assertFalse(e.getMessage().contains("REDACTED"), e.getMessage());
    }

    @Test
    void errorBodyIsAKubernetesStatusTheApiServerRelays() throws Exception {
        JsonNode body = JSON.readTree(codec.errorBody(413, "too big"));
        assertEquals("v1", body.path("apiVersion").asText());
        assertEquals("Status", body.path("kind").asText());
        assertEquals("Failure", body.path("status").asText());
        assertEquals(413, body.path("code").asInt());
        assertEquals("RequestEntityTooLarge", body.path("reason").asText());
        assertEquals("too big", body.path("message").asText());
    }

    @Test
    void dataAfterTheReviewIsRefusedWithItsPosition() {
        ReviewDecodeException e = assertThrows(ReviewDecodeException.class,
                () -> codec.decode("{\"a\":1} {}".getBytes()));
        assertEquals("body is not valid JSON: data after the AdmissionReview (line 1, column 10)", e.getMessage());
    }

    @Test
    void nodeDenseBodyUnderTheByteLimitIsRefusedNamingTheTokenLimit() {
        // Tiny arrays: two tokens per three bytes, the shape that costs the most heap per byte.
        AdmissionCodec small = new AdmissionCodec(new AdmissionLimits(1 << 20, 100, 4096, 10_000));
        String dense = "{\"a\":[" + "[],".repeat(6000) + "[]]}";
        ReviewDecodeException e = assertThrows(ReviewDecodeException.class, () -> small.decode(dense.getBytes()));
        assertEquals(400, e.status());
        assertTrue(e.getMessage().startsWith("body exceeds a parser limit: Token count (10001) exceeds the maximum"),
                e.getMessage());
    }

    /** A body read in place (in a web server's buffer) meets the same limits, with Jackson's messages. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "depth  | Document nesting depth (33) exceeds the maximum allowed (32",
            "string | String value length (2049) exceeds the maximum allowed (2048",
            "tokens | Token count (1025) exceeds the maximum allowed (1024" })
    void theLimitsApplyToABodyReadInPlace(String limit, String message) {
        AdmissionCodec small = new AdmissionCodec(new AdmissionLimits(1 << 20, 32, 2048, 1024));
        String body = switch (limit) {
            case "depth" -> "{\"a\":" + "[".repeat(40) + "]".repeat(40) + "}";
            case "string" -> "{\"a\":\"" + "x".repeat(2049) + "\"}";
            default -> "{\"a\":[" + "1,".repeat(1100) + "1]}";
        };
        ReviewDecodeException e = assertThrows(ReviewDecodeException.class,
                () -> small.decode(inPlace(body.getBytes(StandardCharsets.UTF_8)), 3, body.length()));
        assertEquals(400, e.status());
        assertTrue(e.getMessage().startsWith("body exceeds a parser limit: " + message), e.getMessage());
    }

    @Test
    void aBodyReadInPlaceDecodesAsFromBytes() throws Exception {
        byte[] body = FULL_REQUEST.getBytes(StandardCharsets.UTF_8);
        AdmissionReview fromBytes = codec.decode(body);
        AdmissionReview inPlace = codec.decode(inPlace(body), 3, body.length);
        // KubeObject has no equals of its own: the record's other fields, then the objects' JSON.
        assertEquals(fromBytes.toString(), inPlace.toString());
        assertEquals(fromBytes.request().object().json(), inPlace.request().object().json());
        assertEquals(fromBytes.request().oldObject().json(), inPlace.request().oldObject().json());
        byte[] trailing = "{\"a\":1} {}".getBytes(StandardCharsets.UTF_8);
        assertEquals("body is not valid JSON: data after the AdmissionReview (line 1, column 10)",
                assertThrows(ReviewDecodeException.class, () -> codec.decode(inPlace(trailing), 3, trailing.length))
                        .getMessage());
        assertEquals("empty body: expected an AdmissionReview JSON object", assertThrows(ReviewDecodeException.class,
                () -> codec.decode(inPlace(new byte[0]), 3, 0)).getMessage());
    }

    /** {@code body} in the middle of a larger buffer, from offset 3, with bytes around it that are not JSON. */
    private static byte[] inPlace(byte[] body) {
        byte[] buffer = new byte[body.length + 6];
        Arrays.fill(buffer, (byte) '#');
        System.arraycopy(body, 0, buffer, 3, body.length);
        return buffer;
    }

    private void assertDecodeError(String body, String expected) {
        ReviewDecodeException e = assertThrows(ReviewDecodeException.class,
                () -> codec.decode(body.getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().contains(expected), () -> "'" + e.getMessage() + "' should contain " + expected);
    }
}
