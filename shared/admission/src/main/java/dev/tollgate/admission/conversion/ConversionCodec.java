package dev.tollgate.admission.conversion;

import static dev.tollgate.admission.JsonFields.requiredString;
import static dev.tollgate.admission.JsonFields.type;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionLimits;
import dev.tollgate.admission.ReviewCodec;
import dev.tollgate.admission.ReviewDecodeException;
import dev.tollgate.admission.ReviewJson;
import dev.tollgate.admission.ReviewKind;
import dev.tollgate.admission.ReviewVersion;

/**
 * Reads ConversionReview requests (apiextensions.k8s.io/v1 and v1beta1) and writes responses in the version received,
 * echoing the uid. The body, its limits and the envelope are read, and bad input reported, exactly as for admission
 * ({@link ReviewCodec}); this class reads what a conversion request holds and writes its two answers.
 */
public final class ConversionCodec extends ReviewCodec<ConversionReview> {

    public ConversionCodec() {
        this(new ReviewJson());
    }

    public ConversionCodec(AdmissionLimits limits) {
        this(new ReviewJson(limits));
    }

    /** Reads and answers with {@code json}'s limits, parser and error bodies (shared with admission). */
    public ConversionCodec(ReviewJson json) {
        super(ReviewKind.CONVERSION, json);
    }

    @Override
    protected ConversionReview request(ReviewVersion version, String uid, JsonNode req)
            throws ReviewDecodeException {
        String desired = requiredString(req, "desiredAPIVersion", "request.desiredAPIVersion");
        if (!isGroupVersion(desired)) {
            // Not quoted: no text of a refused request is echoed into an answer or a log (it may be a token).
            throw new ReviewDecodeException("request.desiredAPIVersion: not <group>/<version> (custom resources "
                    + "always have a group)");
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
    public byte[] encodeSuccess(ReviewVersion version, String uid, List<? extends JsonNode> convertedObjects) {
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
    public byte[] encodeFailure(ReviewVersion version, String uid, String message) {
        ObjectNode review = envelope(version, uid);
        ObjectNode response = (ObjectNode) review.get("response");
        response.putArray("convertedObjects");
        response.putObject("result").put("status", "Failure").put("message", message);
        return write(review);
    }

    private ObjectNode envelope(ReviewVersion version, String uid) {
        ObjectNode review = mapper().createObjectNode();
        review.put("apiVersion", kind().apiVersion(version));
        review.put("kind", kind().kind());
        review.putObject("response").put("uid", uid);
        return review;
    }

    private byte[] write(ObjectNode review) {
        try {
            return mapper().writeValueAsBytes(review);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // writing to memory does not fail
        }
    }
}
