package dev.tollgate.admission;

import static dev.tollgate.admission.JsonFields.optionalString;
import static dev.tollgate.admission.JsonFields.requiredString;
import static dev.tollgate.admission.JsonFields.type;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Reads AdmissionReview requests (admission.k8s.io/v1 and v1beta1) and writes responses in the version received.
 * The body, its limits and the envelope are read as for every review ({@link ReviewCodec}); this class reads what an
 * admission request holds and writes the answer to a verdict.
 */
public final class AdmissionCodec extends ReviewCodec<AdmissionReview> {

    public AdmissionCodec() {
        this(new ReviewJson());
    }

    public AdmissionCodec(AdmissionLimits limits) {
        this(new ReviewJson(limits));
    }

    /** Reads and answers with {@code json}'s limits, parser and error bodies. */
    public AdmissionCodec(ReviewJson json) {
        super(ReviewKind.ADMISSION, json);
    }

    @Override
    protected AdmissionReview request(ReviewVersion version, String uid, JsonNode req) throws ReviewDecodeException {
        String op = requiredString(req, "operation", "request.operation");
        Operation operation;
        try {
            operation = Operation.valueOf(op);
        } catch (IllegalArgumentException e) {
            // The value is not quoted: no text of a refused request is echoed into an answer or a log (it may be a
            // token sent in the wrong place).
            throw new ReviewDecodeException("request.operation: unknown operation, expected CREATE, UPDATE, "
                    + "DELETE or CONNECT");
        }
        GroupVersionKind gvk = groupVersionKind(req, "kind", true);
        GroupVersionResource gvr = resource(req, "resource", true);
        GroupVersionKind requestKind = groupVersionKind(req, "requestKind", false);
        GroupVersionResource requestResource = resource(req, "requestResource", false);
        String subResource = optionalString(req, "subResource", "request.subResource");
        AdmissionRequest request = new AdmissionRequest(
                uid,
                gvk,
                gvr,
                subResource,
                requestKind == null ? gvk : requestKind,
                requestResource == null ? gvr : requestResource,
                req.has("requestSubResource")
                        ? optionalString(req, "requestSubResource", "request.requestSubResource") : subResource,
                optionalString(req, "name", "request.name"),
                optionalString(req, "namespace", "request.namespace"),
                operation,
                userInfo(req),
                object(req, "object"),
                object(req, "oldObject"),
                optionalObject(req, "options"),
                optionalBoolean(req, "dryRun", "request.dryRun"));
        return new AdmissionReview(version, request);
    }

    /**
     * Writes the response review for a verdict.
     *
     * @param patch a JSON Patch array for a mutation, or null: when null or empty, no patch fields are written
     */
    public byte[] encode(ReviewVersion version, String uid, Verdict verdict, ArrayNode patch) {
        // The patch is written first: a generator opened while another is open on the same thread cannot take the
        // thread's recycled buffers and allocates its own (Jackson's BufferRecycler holds one of each).
        byte[] patchJson = null;
        if (patch != null && !patch.isEmpty()) {
            try {
                patchJson = mapper().writeValueAsBytes(patch);
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException(e); // a tree always serializes
            }
        }
        // Into the thread's recycled segments, as ObjectMapper.writeValueAsBytes writes: only the answer is allocated.
        ByteArrayBuilder out = new ByteArrayBuilder(mapper().getFactory()._getBufferRecycler());
        try (JsonGenerator g = mapper().getFactory().createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("apiVersion", kind().apiVersion(version));
            g.writeStringField("kind", kind().kind());
            g.writeObjectFieldStart("response");
            g.writeStringField("uid", uid);
            g.writeBooleanField("allowed", verdict.allowed());
            if (!verdict.allowed()) {
                g.writeObjectFieldStart("status");
                g.writeStringField("status", "Failure");
                g.writeNumberField("code", verdict.code());
                if (!verdict.reason().isEmpty()) {
                    g.writeStringField("reason", verdict.reason());
                }
                g.writeStringField("message", verdict.message());
                g.writeEndObject();
            }
            if (patchJson != null) {
                g.writeStringField("patchType", "JSONPatch");
                // Jackson's default variant: RFC 4648 base64, padded, no line feeds, as the API server reads it
                g.writeFieldName("patch");
                g.writeBinary(patchJson);
            }
            if (!verdict.warnings().isEmpty()) {
                g.writeArrayFieldStart("warnings");
                for (String w : verdict.warnings()) {
                    g.writeString(w);
                }
                g.writeEndArray();
            }
            if (!verdict.auditAnnotations().isEmpty()) {
                g.writeObjectFieldStart("auditAnnotations");
                for (Map.Entry<String, String> e : verdict.auditAnnotations().entrySet()) {
                    g.writeStringField(e.getKey(), e.getValue());
                }
                g.writeEndObject();
            }
            g.writeEndObject();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // writing to memory does not fail
        }
        return out.getClearAndRelease();
    }

    private GroupVersionKind groupVersionKind(JsonNode req, String field, boolean required)
            throws ReviewDecodeException {
        JsonNode node = objectField(req, field, required);
        if (node == null) {
            return null;
        }
        String path = "request." + field;
        return new GroupVersionKind(optionalString(node, "group", path + ".group"),
                requiredString(node, "version", path + ".version"),
                requiredString(node, "kind", path + ".kind"));
    }

    private GroupVersionResource resource(JsonNode req, String field, boolean required)
            throws ReviewDecodeException {
        JsonNode node = objectField(req, field, required);
        if (node == null) {
            return null;
        }
        String path = "request." + field;
        return new GroupVersionResource(optionalString(node, "group", path + ".group"),
                requiredString(node, "version", path + ".version"),
                requiredString(node, "resource", path + ".resource"));
    }

    private UserInfo userInfo(JsonNode req) throws ReviewDecodeException {
        JsonNode node = objectField(req, "userInfo", false);
        if (node == null) {
            return UserInfo.ANONYMOUS;
        }
        List<String> groups = stringList(node.get("groups"), "request.userInfo.groups");
        Map<String, List<String>> extra = new LinkedHashMap<>();
        JsonNode extraNode = node.get("extra");
        if (extraNode != null && !extraNode.isNull()) {
            if (!extraNode.isObject()) {
                throw new ReviewDecodeException("request.userInfo.extra: expected an object");
            }
            var it = extraNode.fields();
            while (it.hasNext()) {
                var e = it.next();
                extra.put(e.getKey(), stringList(e.getValue(), "request.userInfo.extra." + e.getKey()));
            }
        }
        return new UserInfo(optionalString(node, "username", "request.userInfo.username"),
                optionalString(node, "uid", "request.userInfo.uid"), groups, extra);
    }

    private static KubeObject object(JsonNode req, String field) throws ReviewDecodeException {
        ObjectNode node = optionalObject(req, field);
        return node == null ? null : KubeObject.of(node);
    }

    private static ObjectNode optionalObject(JsonNode req, String field) throws ReviewDecodeException {
        JsonNode node = req.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw new ReviewDecodeException("request." + field + ": expected an object, got " + type(node));
        }
        return (ObjectNode) node;
    }

    private static JsonNode objectField(JsonNode parent, String field, boolean required)
            throws ReviewDecodeException {
        JsonNode node = parent.get(field);
        if (node == null || node.isNull()) {
            if (required) {
                throw new ReviewDecodeException("request." + field + ": required");
            }
            return null;
        }
        if (!node.isObject()) {
            throw new ReviewDecodeException("request." + field + ": expected an object, got " + type(node));
        }
        return node;
    }

    private static List<String> stringList(JsonNode node, String path) throws ReviewDecodeException {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw new ReviewDecodeException(path + ": expected an array of strings, got " + type(node));
        }
        List<String> out = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            JsonNode item = node.get(i);
            if (!item.isTextual()) {
                throw new ReviewDecodeException(path + "[" + i + "]: expected a string, got " + type(item));
            }
            out.add(item.textValue());
        }
        return out;
    }

    private static boolean optionalBoolean(JsonNode parent, String field, String path) throws ReviewDecodeException {
        JsonNode node = parent.get(field);
        if (node == null || node.isNull()) {
            return false;
        }
        if (!node.isBoolean()) {
            throw new ReviewDecodeException(path + ": expected a boolean, got " + type(node));
        }
        return node.booleanValue();
    }
}
