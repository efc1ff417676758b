package dev.tollgate.admission;

import static dev.tollgate.admission.JsonFields.firstLine;
import static dev.tollgate.admission.JsonFields.location;
import static dev.tollgate.admission.JsonFields.optionalString;
import static dev.tollgate.admission.JsonFields.requiredString;
import static dev.tollgate.admission.JsonFields.truncate;
import static dev.tollgate.admission.JsonFields.type;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Reads AdmissionReview requests (admission.k8s.io/v1 and v1beta1) and writes responses in the version received.
 * This is the only class that knows two versions exist. Decoding validates every field the API server sends and
 * reports the first problem with its JSON path; it never lets a malformed review through.
 */
public final class AdmissionCodec {

    public static final String KIND = "AdmissionReview";

    private final AdmissionLimits limits;
    private final StreamReadConstraints constraints;
    private final ObjectMapper mapper;

    public AdmissionCodec() {
        this(AdmissionLimits.DEFAULTS);
    }

    public AdmissionCodec(AdmissionLimits limits) {
        this.limits = limits;
        this.constraints = limits.streamReadConstraints();
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(constraints)
                .build();
        // Duplicate keys would let two readers of the same body see different objects.
        factory.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        this.mapper = new ObjectMapper(factory);
    }

    public AdmissionLimits limits() {
        return limits;
    }

    /** The mapper with this codec's limits, for parsing other untrusted JSON the same way. */
    public ObjectMapper mapper() {
        return mapper;
    }

    /** Parses and validates a review request body. */
    public AdmissionReview decode(byte[] body) throws ReviewDecodeException {
        return decode(parseBody(body, "an AdmissionReview"));
    }

    /**
     * Parses an untrusted request body within this codec's limits (413 when too large, 400 for anything that is not
     * one JSON document), for any review type.
     *
     * @param expected what the body should hold, for the empty-body message, e.g. "a ConversionReview"
     */
    public JsonNode parseBody(byte[] body, String expected) throws ReviewDecodeException {
        if (body == null || body.length == 0) {
            throw new ReviewDecodeException("empty body: expected " + expected + " JSON object");
        }
        if (body.length > limits.maxBodyBytes()) {
            throw new ReviewDecodeException(413, "body of " + body.length + " bytes exceeds the limit of "
                    + limits.maxBodyBytes() + " bytes");
        }
        try (JsonParser parser = mapper.createParser(body)) {
            return readDocument(parser, expected);
        } catch (IOException e) {
            throw new ReviewDecodeException("body could not be read: " + firstLine(e.getMessage()));
        }
    }

    /**
     * Reads one review from a parser positioned before it (e.g. Funqy HTTP's, handed to a deserializer) and
     * validates it, within this codec's limits whatever the parser's own constraints. Data after the review is an
     * error, as in {@link #decode(byte[])}.
     */
    public AdmissionReview decode(JsonParser parser) throws ReviewDecodeException {
        return decode(readDocument(parser, "an AdmissionReview"));
    }

    /** Validates an already parsed review request. */
    public AdmissionReview decode(JsonNode root) throws ReviewDecodeException {
        if (root == null || !root.isObject()) {
            throw new ReviewDecodeException("body is not a JSON object: expected an AdmissionReview");
        }
        String apiVersion = requiredString(root, "apiVersion", "apiVersion");
        AdmissionVersion version = AdmissionVersion.fromApiVersion(apiVersion).orElseThrow(
                () -> new ReviewDecodeException("unsupported apiVersion '" + truncate(apiVersion)
                        + "': expected admission.k8s.io/v1 or admission.k8s.io/v1beta1"));
        String kind = requiredString(root, "kind", "kind");
        if (!KIND.equals(kind)) {
            throw new ReviewDecodeException("kind '" + truncate(kind) + "' is not AdmissionReview");
        }
        JsonNode req = root.get("request");
        if (req == null || req.isNull()) {
            throw new ReviewDecodeException("request: required");
        }
        if (!req.isObject()) {
            throw new ReviewDecodeException("request: expected an object");
        }
        String uid = requiredString(req, "uid", "request.uid");
        if (uid.isEmpty()) {
            throw new ReviewDecodeException("request.uid: must not be empty");
        }
        String op = requiredString(req, "operation", "request.operation");
        Operation operation;
        try {
            operation = Operation.valueOf(op);
        } catch (IllegalArgumentException e) {
            throw new ReviewDecodeException("request.operation: unknown operation '" + truncate(op)
                    + "', expected CREATE, UPDATE, DELETE or CONNECT");
        }
        GroupVersionKind gvk = kind(req, "kind", true);
        GroupVersionResource gvr = resource(req, "resource", true);
        GroupVersionKind requestKind = kind(req, "requestKind", false);
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
    public byte[] encode(AdmissionVersion version, String uid, Verdict verdict, ArrayNode patch) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = mapper.getFactory().createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("apiVersion", version.apiVersion());
            g.writeStringField("kind", KIND);
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
            if (patch != null && !patch.isEmpty()) {
                g.writeStringField("patchType", "JSONPatch");
                g.writeStringField("patch", Base64.getEncoder().encodeToString(mapper.writeValueAsBytes(patch)));
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
        return out.toByteArray();
    }

    /**
     * An error body as a Kubernetes {@code Status} ({@code apiVersion: v1, kind: Status, status: Failure}, with
     * {@code message}, {@code reason} and {@code code}). The API server's REST client decodes a non-200 body that is
     * a Status and relays its message in the call error it reports; any other body is replaced by a generic
     * "an error on the server ... has prevented the request from succeeding" (client-go rest/request.go,
     * transformResponse and newUnstructuredResponseError), so only a Status carries the function's reason to the
     * user.
     */
    public byte[] errorBody(int status, String message) {
        ObjectNode body = mapper.createObjectNode();
        body.put("apiVersion", "v1");
        body.put("kind", "Status");
        body.putObject("metadata");
        body.put("status", "Failure");
        body.put("message", message);
        String reason = Verdict.reasonFor(status);
        if (!reason.isEmpty()) {
            body.put("reason", reason);
        }
        body.put("code", status);
        try {
            return mapper.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String statusText(int status) {
        return switch (status) {
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 408 -> "Request Timeout";
            case 413 -> "Payload Too Large";
            case 415 -> "Unsupported Media Type";
            case 429 -> "Too Many Requests";
            case 500 -> "Internal Server Error";
            case 503 -> "Service Unavailable";
            case 504 -> "Gateway Timeout";
            default -> "Error";
        };
    }

    /**
     * Reads one JSON document from a parser positioned before it (a body parser, or Funqy HTTP's handed to a
     * deserializer), for any review type: this codec's nesting, string and token limits apply whatever constraints
     * the parser was made with (a parser its {@link #mapper()} makes has them already), and data after the document
     * is an error.
     *
     * @param expected what the body should hold, for messages, e.g. "a ConversionReview"
     */
    public JsonNode readDocument(JsonParser given, String expected) throws ReviewDecodeException {
        JsonParser parser = LimitedParser.within(given, constraints);
        try {
            JsonNode root = mapper.readTree(parser);
            if (root == null || root.isMissingNode()) {
                throw new ReviewDecodeException("empty body: expected " + expected + " JSON object");
            }
            if (parser.nextToken() != null) {
                // "an AdmissionReview" -> "the AdmissionReview"
                throw new ReviewDecodeException("body is not valid JSON: data after the "
                        + expected.substring(expected.indexOf(' ') + 1) + location(parser.currentLocation()));
            }
            return root;
        } catch (StreamConstraintsException e) {
            throw new ReviewDecodeException("body exceeds a parser limit: " + firstLine(e.getOriginalMessage()));
        } catch (JsonProcessingException e) {
            throw new ReviewDecodeException("body is not valid JSON: " + firstLine(e.getOriginalMessage())
                    + location(e));
        } catch (IOException e) {
            throw new ReviewDecodeException("body could not be read: " + firstLine(e.getMessage()));
        }
    }

    private GroupVersionKind kind(JsonNode req, String field, boolean required) throws ReviewDecodeException {
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
