package dev.tollgate.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.AdmissionReview;
import dev.tollgate.admission.EnforcementMode;
import dev.tollgate.admission.GroupVersionKind;
import dev.tollgate.admission.GroupVersionResource;
import dev.tollgate.admission.HandlerResult;
import dev.tollgate.admission.HandlerResult.Outcome;
import dev.tollgate.admission.KubeObject;
import dev.tollgate.admission.Operation;
import dev.tollgate.admission.ReviewKind;
import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.admission.UserInfo;
import dev.tollgate.admission.Verdict;
import dev.tollgate.admission.conversion.ConversionRequest;
import dev.tollgate.admission.conversion.ConversionReview;

/** Pins the exact text of decision-log lines: log pipelines parse them, so field order and formatting matter. */
class DecisionLogLineTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] BODY = "{}".getBytes(StandardCharsets.UTF_8);

    private static final String POD = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"web\","
            + "\"namespace\":\"shop\",\"labels\":{\"app\":\"web\"}},\"spec\":{\"replicas\":2,\"ratio\":0.5}}";
    private static final String OLD_POD = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"web\"},"
            + "\"spec\":{\"tags\":[\"a\",null,true]}}";
    private static final String WIDGET_1 = "{\"apiVersion\":\"shop.tollgate.dev/v1\",\"kind\":\"Widget\","
            + "\"metadata\":{\"name\":\"w1\"},\"spec\":{\"size\":1}}";
    private static final String WIDGET_2 = "{\"apiVersion\":\"shop.tollgate.dev/v1\",\"kind\":\"Widget\","
            + "\"metadata\":{\"name\":\"w2\"},\"spec\":{\"size\":2.25}}";

    private static final DecisionLog PLAIN = log(false);
    private static final DecisionLog WITH_OBJECTS = log(true);

    @Test
    void allowed() {
        CallResult result = admission(Outcome.ALLOWED, create(), Verdict.allow(), 0, "");
        assertEquals("{\"uid\":\"u-1\",\"function\":\"require-labels\",\"cluster\":\"east\","
                + "\"operation\":\"CREATE\",\"kind\":\"Pod\","
                + "\"namespace\":\"shop\",\"name\":\"web\",\"user\":\"alice\",\"verdict\":\"allowed\",\"decision\":\"allowed\",\"enforcement\":\"enforce\",\"status\":200,"
                + "\"patchOps\":0,\"latencyMs\":1.234}",
                PLAIN.line("require-labels", "east", result, "allowed", 1234, false));
    }

    @Test
    void deniedWithCode() {
        CallResult result = admission(Outcome.DENIED, create(), Verdict.deny(422, "missing label \"team\""), 0, "");
        assertEquals("{\"uid\":\"u-1\",\"function\":\"require-labels\",\"cluster\":\"east\","
                + "\"operation\":\"CREATE\",\"kind\":\"Pod\","
                + "\"namespace\":\"shop\",\"name\":\"web\",\"user\":\"alice\",\"verdict\":\"denied\",\"decision\":\"denied\",\"enforcement\":\"enforce\",\"status\":200,"
                + "\"code\":422,\"patchOps\":0,\"latencyMs\":0.5}",
                PLAIN.line("require-labels", "east", result, "denied", 500, false));
    }

    @Test
    void warnedDenialIsAnsweredAllowedAndSaysWhatThePolicyDecided() {
        CallResult result = new CallResult.Reviewed(new HandlerResult<>(ReviewKind.ADMISSION, 200, BODY,
                Outcome.ALLOWED, new AdmissionReview(ReviewVersion.V1, create()), Verdict.allow(), 0, "",
                Outcome.DENIED, EnforcementMode.WARN));
        assertEquals("{\"uid\":\"u-1\",\"function\":\"require-labels\",\"cluster\":\"east\","
                + "\"operation\":\"CREATE\",\"kind\":\"Pod\","
                + "\"namespace\":\"shop\",\"name\":\"web\",\"user\":\"alice\",\"verdict\":\"allowed\","
                + "\"decision\":\"denied\",\"enforcement\":\"warn\",\"status\":200,"
                + "\"patchOps\":0,\"latencyMs\":1.0}",
                PLAIN.line("require-labels", "east", result, "allowed", 1000, false));
    }

    @Test
    void auditedPatchIsNotSent() {
        CallResult result = new CallResult.Reviewed(new HandlerResult<>(ReviewKind.ADMISSION, 200, BODY,
                Outcome.ALLOWED, new AdmissionReview(ReviewVersion.V1, create()), Verdict.allow(), 0, "",
                Outcome.PATCHED, EnforcementMode.AUDIT));
        assertEquals("{\"uid\":\"u-1\",\"function\":\"always-pull-images\",\"cluster\":\"east\","
                + "\"operation\":\"CREATE\",\"kind\":\"Pod\","
                + "\"namespace\":\"shop\",\"name\":\"web\",\"user\":\"alice\",\"verdict\":\"allowed\","
                + "\"decision\":\"patched\",\"enforcement\":\"audit\",\"status\":200,"
                + "\"patchOps\":0,\"latencyMs\":1.0}",
                PLAIN.line("always-pull-images", "east", result, "allowed", 1000, false));
    }

    @Test
    void patchedWithEscapedText() {
        AdmissionRequest update = request(Operation.UPDATE, "jos\u00e9 \"j\"\tx", pod(POD), pod(OLD_POD));
        CallResult result = admission(Outcome.PATCHED, update, Verdict.allow(), 3, "");
        assertEquals("{\"uid\":\"u-1\",\"function\":\"add-defaults\",\"cluster\":\"east\","
                + "\"operation\":\"UPDATE\",\"kind\":\"Pod\","
                + "\"namespace\":\"shop\",\"name\":\"web\",\"user\":\"jos\u00e9 \\\"j\\\"\\tx\","
                + "\"verdict\":\"patched\",\"decision\":\"patched\",\"enforcement\":\"enforce\",\"status\":200,\"patchOps\":3,\"latencyMs\":2.0}",
                PLAIN.line("add-defaults", "east", result, "patched", 2000, false));
    }

    @Test
    void admissionBadRequestHasEmptySubject() {
        CallResult result = new CallResult.Reviewed(new HandlerResult<>(ReviewKind.ADMISSION, 400, BODY,
                Outcome.BAD_REQUEST, null, null, 0, "malformed review"));
        String expected = "{\"uid\":\"\",\"function\":\"require-labels\",\"cluster\":\"east\","
                + "\"operation\":\"\",\"kind\":\"\","
                + "\"namespace\":\"\",\"name\":\"\",\"user\":\"\",\"verdict\":\"bad_request\",\"status\":400,"
                + "\"patchOps\":0,\"latencyMs\":0.01,\"error\":\"malformed review\"}";
        assertEquals(expected, PLAIN.line("require-labels", "east", result, "bad_request", 10, false));
        assertEquals(expected, WITH_OBJECTS.line("require-labels", "east", result, "bad_request", 10, false));
    }

    @Test
    void deadlineExceeded() {
        CallResult result = admission(Outcome.ERROR, create(), Verdict.deny(500, "no answer"), 0,
                "policy did not answer within 2s");
        assertEquals("{\"uid\":\"u-1\",\"function\":\"require-labels\",\"cluster\":\"east\","
                + "\"operation\":\"CREATE\",\"kind\":\"Pod\","
                + "\"namespace\":\"shop\",\"name\":\"web\",\"user\":\"alice\",\"verdict\":\"error\",\"decision\":\"error\",\"enforcement\":\"enforce\",\"status\":200,"
                + "\"code\":500,\"patchOps\":0,\"latencyMs\":2000.0,\"deadlineExceeded\":true,"
                + "\"error\":\"policy did not answer within 2s\"}",
                PLAIN.line("require-labels", "east", result, "error", 2_000_000, true));
    }

    @Test
    void latencyIsWrittenAsADouble() {
        CallResult result = new CallResult.Refused(500, BODY, "");
        assertEquals("{\"uid\":\"\",\"function\":\"f\",\"cluster\":\"east\","
                + "\"operation\":\"\",\"kind\":\"\",\"verdict\":\"error\","
                + "\"status\":500,\"latencyMs\":0.0}", PLAIN.line("f", "east", result, "error", 0, false));
        assertEquals("{\"uid\":\"\",\"function\":\"f\",\"cluster\":\"east\","
                + "\"operation\":\"\",\"kind\":\"\",\"verdict\":\"error\","
                + "\"status\":500,\"latencyMs\":0.001}", PLAIN.line("f", "east", result, "error", 1, false));
        assertEquals("{\"uid\":\"\",\"function\":\"f\",\"cluster\":\"east\","
                + "\"operation\":\"\",\"kind\":\"\",\"verdict\":\"error\","
                + "\"status\":500,\"latencyMs\":1.2345678901E7}",
                PLAIN.line("f", "east", result, "error", 12_345_678_901L, false));
    }

    @Test
    void conversion() {
        CallResult result = conversion(HandlerResult.Outcome.CONVERTED, List.of(widget(WIDGET_1),
                widget(WIDGET_2)), "");
        assertEquals("{\"uid\":\"c-1\",\"function\":\"crd-conversion\",\"cluster\":\"east\","
                + "\"operation\":\"CONVERT\","
                + "\"kind\":\"Widget\",\"desiredAPIVersion\":\"shop.tollgate.dev/v2\",\"objectCount\":2,"
                + "\"verdict\":\"converted\",\"decision\":\"converted\",\"enforcement\":\"enforce\",\"status\":200,\"latencyMs\":0.75}",
                PLAIN.line("crd-conversion", "east", result, "converted", 750, false));
    }

    @Test
    void failedConversionHasItsMessage() {
        CallResult result = conversion(HandlerResult.Outcome.FAILED, List.of(widget(WIDGET_1)),
                "v2 has no field size");
        assertEquals("{\"uid\":\"c-1\",\"function\":\"crd-conversion\",\"cluster\":\"east\","
                + "\"operation\":\"CONVERT\","
                + "\"kind\":\"Widget\",\"desiredAPIVersion\":\"shop.tollgate.dev/v2\",\"objectCount\":1,"
                + "\"verdict\":\"failed\",\"decision\":\"failed\",\"enforcement\":\"enforce\",\"status\":200,\"latencyMs\":0.75,\"error\":\"v2 has no field size\"}",
                PLAIN.line("crd-conversion", "east", result, "failed", 750, false));
    }

    @Test
    void refused() {
        CallResult result = new CallResult.Refused(413, BODY, "request body larger than 1048576 bytes");
        String expected = "{\"uid\":\"\",\"function\":\"\",\"cluster\":\"\",\"operation\":\"\",\"kind\":\"\","
                + "\"verdict\":\"refused\",\"status\":413,\"latencyMs\":0.042,\"error\":\"request body larger than 1048576 bytes\"}";
        assertEquals(expected, PLAIN.line("", "", result, "refused", 42, false));
        assertEquals(expected, WITH_OBJECTS.line("", "", result, "refused", 42, false));
    }

    @Test
    void includeObjectsWritesTheObjectAndANullOldObject() {
        CallResult result = admission(Outcome.ALLOWED, create(), Verdict.allow(), 0, "");
        assertEquals("{\"uid\":\"u-1\",\"function\":\"require-labels\",\"cluster\":\"east\","
                + "\"operation\":\"CREATE\",\"kind\":\"Pod\","
                + "\"namespace\":\"shop\",\"name\":\"web\",\"user\":\"alice\",\"verdict\":\"allowed\",\"decision\":\"allowed\",\"enforcement\":\"enforce\",\"status\":200,"
                + "\"patchOps\":0,\"latencyMs\":1.234,\"object\":" + POD + ",\"oldObject\":null}",
                WITH_OBJECTS.line("require-labels", "east", result, "allowed", 1234, false));
    }

    @Test
    void includeObjectsWritesBothObjectsOfAnUpdate() {
        AdmissionRequest update = request(Operation.UPDATE, "alice", pod(POD), pod(OLD_POD));
        CallResult result = admission(Outcome.PATCHED, update, Verdict.allow(), 1, "");
        assertEquals("{\"uid\":\"u-1\",\"function\":\"add-defaults\",\"cluster\":\"east\","
                + "\"operation\":\"UPDATE\",\"kind\":\"Pod\","
                + "\"namespace\":\"shop\",\"name\":\"web\",\"user\":\"alice\",\"verdict\":\"patched\",\"decision\":\"patched\",\"enforcement\":\"enforce\",\"status\":200,"
                + "\"patchOps\":1,\"latencyMs\":3.5,\"deadlineExceeded\":true,\"object\":" + POD
                + ",\"oldObject\":" + OLD_POD + "}",
                WITH_OBJECTS.line("add-defaults", "east", result, "patched", 3500, true));
    }

    @Test
    void includeObjectsWritesTheConvertedObjects() {
        CallResult result = conversion(HandlerResult.Outcome.CONVERTED, List.of(widget(WIDGET_1),
                widget(WIDGET_2)), "");
        assertEquals("{\"uid\":\"c-1\",\"function\":\"crd-conversion\",\"cluster\":\"east\","
                + "\"operation\":\"CONVERT\","
                + "\"kind\":\"Widget\",\"desiredAPIVersion\":\"shop.tollgate.dev/v2\",\"objectCount\":2,"
                + "\"verdict\":\"converted\",\"decision\":\"converted\",\"enforcement\":\"enforce\",\"status\":200,\"latencyMs\":0.75,\"objects\":[" + WIDGET_1 + ","
                + WIDGET_2 + "]}",
                WITH_OBJECTS.line("crd-conversion", "east", result, "converted", 750, false));
    }

    @Test
    void includeObjectsLeavesOutAnEmptyObjectList() {
        CallResult result = conversion(HandlerResult.Outcome.CONVERTED, List.of(), "");
        assertEquals("{\"uid\":\"c-1\",\"function\":\"crd-conversion\",\"cluster\":\"east\","
                + "\"operation\":\"CONVERT\",\"kind\":\"\","
                + "\"desiredAPIVersion\":\"shop.tollgate.dev/v2\",\"objectCount\":0,\"verdict\":\"converted\",\"decision\":\"converted\",\"enforcement\":\"enforce\","
                + "\"status\":200,\"latencyMs\":0.75}",
                WITH_OBJECTS.line("crd-conversion", "east", result, "converted", 750, false));
    }

    private static DecisionLog log(boolean includeObjects) {
        return new DecisionLog(new DecisionLogConfig() {
            @Override
            public boolean enabled() {
                return true;
            }

            @Override
            public boolean includeObjects() {
                return includeObjects;
            }
        });
    }

    private static AdmissionRequest create() {
        return request(Operation.CREATE, "alice", pod(POD), null);
    }

    private static AdmissionRequest request(Operation operation, String user, KubeObject object,
            KubeObject oldObject) {
        return new AdmissionRequest("u-1", GroupVersionKind.of("", "v1", "Pod"),
                new GroupVersionResource("", "v1", "pods"), "", GroupVersionKind.of("", "v1", "Pod"),
                new GroupVersionResource("", "v1", "pods"), "", "web", "shop", operation,
                new UserInfo(user, "", List.of(), null), object, oldObject, null, false);
    }

    private static CallResult admission(Outcome outcome, AdmissionRequest request, Verdict verdict, int patchOps,
            String error) {
        return new CallResult.Reviewed(new HandlerResult<>(ReviewKind.ADMISSION, 200, BODY, outcome,
                new AdmissionReview(ReviewVersion.V1, request), verdict, patchOps, error));
    }

    private static CallResult conversion(HandlerResult.Outcome outcome, List<ObjectNode> objects, String error) {
        ConversionRequest request = new ConversionRequest("c-1", "shop.tollgate.dev/v2", objects);
        return new CallResult.Reviewed(new HandlerResult<>(ReviewKind.CONVERSION, 200, BODY, outcome,
                new ConversionReview(ReviewVersion.V1, request), null, 0, error));
    }

    private static KubeObject pod(String json) {
        return KubeObject.of(parse(json));
    }

    private static ObjectNode widget(String json) {
        return parse(json);
    }

    private static ObjectNode parse(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
