package dev.tollgate.admission.conversion;

import static dev.tollgate.admission.JsonFields.requiredString;
import static dev.tollgate.admission.JsonFields.truncate;
import static dev.tollgate.admission.JsonFields.type;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionCodec;
import dev.tollgate.admission.AdmissionLimits;
import dev.tollgate.admission.ReviewDecodeException;

/**
 * Reads ConversionReview requests (apiextensions.k8s.io/v1 and v1beta1) and writes responses in the version received,
 * echoing the uid. Bad input is reported exactly as for admission: the same limits, the same JSON parser and the same
 * error body, because both go through {@link AdmissionCodec}.
 */
public final class ConversionCodec {

    public static final String KIND = "ConversionReview";
    /** What a request body must hold, for messages. */
    private static final String EXPECTED = "a ConversionReview";

    private final AdmissionCodec json;

    public ConversionCodec() {
        this(new AdmissionCodec());
    }

    public ConversionCodec(AdmissionLimits limits) {
        this(new AdmissionCodec(limits));
    }

    /** Shares {@code admission}'s limits, parser and error bodies. */
    public ConversionCodec(AdmissionCodec admission) {
        this.json = admission;
    }

    public AdmissionLimits limits() {
        return json.limits();
    }

    public ObjectMapper mapper() {
        return json.mapper();
    }

    /** Parses and validates a review request body. */
    public ConversionReview decode(byte[] body) throws ReviewDecodeException {
        return decode(json.parseBody(body, EXPECTED));
    }

    /**
     * Reads one review from a parser positioned before it (e.g. Funqy HTTP's, handed to a deserializer) and validates
     * it, exactly as {@link AdmissionCodec#decode(JsonParser)} does for admission.
     */
    public ConversionReview decode(JsonParser parser) throws ReviewDecodeException {
        return decode(json.readDocument(parser, EXPECTED));
    }

    /** Validates an already parsed review request. */
    public ConversionReview decode(JsonNode root) throws ReviewDecodeException {
        if (root == null || !root.isObject()) {
            throw new ReviewDecodeException("body is not a JSON object: expected a ConversionReview");
        }
        String apiVersion = requiredString(root, "apiVersion", "apiVersion");
        ConversionVersion version = ConversionVersion.fromApiVersion(apiVersion).orElseThrow(
                () -> new ReviewDecodeException("unsupported apiVersion '" + truncate(apiVersion)
                        + "': expected apiextensions.k8s.io/v1 or apiextensions.k8s.io/v1beta1"));
        String kind = requiredString(root, "kind", "kind");
        if (!KIND.equals(kind)) {
            throw new ReviewDecodeException("kind '" + truncate(kind) + "' is not ConversionReview");
        }
        JsonNode req = root.get("request");
        if (req == null || req.isNull()) {
            throw new ReviewDecodeException("request: required");
        }
        if (!req.isObject()) {
            throw new ReviewDecodeException("request: expected an object, got " + type(req));
        }
        String uid = requiredString(req, "uid", "request.uid");
        if (uid.isEmpty()) {
            throw new ReviewDecodeException("request.uid: must not be empty");
        }
        String desired = requiredString(req, "desiredAPIVersion", "request.desiredAPIVersion");
        if (!isGroupVersion(desired)) {
            throw new ReviewDecodeException("request.desiredAPIVersion: '" + truncate(desired)
                    + "' is not <group>/<version> (custom resources always have a group)");
        }
        JsonNode objects = req.get("objects");
        if (objects == null || objects.isNull()) {
            throw new ReviewDecodeException("request.objects: required");
        }
        if (!objects.isArray()) {
            throw new ReviewDecodeException("request.objects: expected an array, got " + type(objects));
        }
        List<ObjectNode> out = new ArrayList<>(objects.size());
        for (int i = 0; i < objects.size(); i++) {
            out.add(object(objects.get(i), "request.objects[" + i + "]"));
        }
        return new ConversionReview(version, new ConversionRequest(uid, desired, out));
    }

    private static ObjectNode object(JsonNode node, String path) throws ReviewDecodeException {
        if (!node.isObject()) {
            throw new ReviewDecodeException(path + ": expected an object, got " + type(node));
        }
        if (requiredString(node, "apiVersion", path + ".apiVersion").isEmpty()) {
            throw new ReviewDecodeException(path + ".apiVersion: must not be empty");
        }
        if (requiredString(node, "kind", path + ".kind").isEmpty()) {
            throw new ReviewDecodeException(path + ".kind: must not be empty");
        }
        JsonNode metadata = node.get("metadata");
        if (metadata != null && !metadata.isObject()) {
            throw new ReviewDecodeException(path + ".metadata: expected an object, got " + type(metadata));
        }
        return (ObjectNode) node;
    }

    /** {@code <group>/<version>} with both parts non-empty: the only form a custom resource's apiVersion has. */
    public static boolean isGroupVersion(String apiVersion) {
        int slash = apiVersion.indexOf('/');
        return slash > 0 && slash < apiVersion.length() - 1 && apiVersion.indexOf('/', slash + 1) < 0;
    }

    /** The answer for converted objects: {@code result.status: Success}. */
    public byte[] encodeSuccess(ConversionVersion version, String uid, List<? extends JsonNode> convertedObjects) {
        ObjectNode review = envelope(version, uid);
        ObjectNode response = (ObjectNode) review.get("response");
        ArrayNode converted = response.putArray("convertedObjects");
        convertedObjects.forEach(converted::add);
        response.putObject("result").put("status", "Success");
        return write(review);
    }

    /**
     * The answer when the review cannot be converted: {@code result.status: Failure} with the message the API server
     * shows the client ({@code conversion webhook for <kind> failed: <message>}), and no converted objects.
     */
    public byte[] encodeFailure(ConversionVersion version, String uid, String message) {
        ObjectNode review = envelope(version, uid);
        ObjectNode response = (ObjectNode) review.get("response");
        response.putArray("convertedObjects");
        response.putObject("result").put("status", "Failure").put("message", message);
        return write(review);
    }

    /** A JSON error body for bad input, the same as admission's. */
    public byte[] errorBody(int status, String message) {
        return json.errorBody(status, message);
    }

    private ObjectNode envelope(ConversionVersion version, String uid) {
        ObjectNode review = json.mapper().createObjectNode();
        review.put("apiVersion", version.apiVersion());
        review.put("kind", KIND);
        review.putObject("response").put("uid", uid);
        return review;
    }

    private byte[] write(ObjectNode review) {
        try {
            return json.mapper().writeValueAsBytes(review);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // writing to memory does not fail
        }
    }
}
