package dev.tollgate.admission;

import static dev.tollgate.admission.JsonFields.firstLine;
import static dev.tollgate.admission.JsonFields.location;

import java.io.IOException;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;


/**
 * Untrusted review bodies read as JSON within {@link AdmissionLimits} (413 when too large, 400 naming the problem for
 * anything else), and the {@code Status} error body both kinds of review answer bad input with. One instance serves
 * both codecs of a function, so admission and conversion reviews meet the same parser, limits and errors.
 */
public final class ReviewJson {

    private final AdmissionLimits limits;
    private final ObjectMapper mapper;

    public ReviewJson() {
        this(AdmissionLimits.DEFAULTS);
    }

    public ReviewJson(AdmissionLimits limits) {
        this.limits = limits;
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(limits.streamReadConstraints())
                .build();
        // Duplicate keys would let two readers of the same body see different objects: the tree refuses them as it is
        // built (the parser's own detection, STRICT_DUPLICATE_DETECTION, keeps a set of the names of every object it
        // reads, about a twelfth of what a review allocated). Bodies are only ever read as trees.
        // Its trees keep each object's fields compactly (CompactNodeFactory): most of a review's objects are small.
        this.mapper = new ObjectMapper(factory).enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .setNodeFactory(CompactNodeFactory.INSTANCE);
    }

    public AdmissionLimits limits() {
        return limits;
    }

    /** The mapper with these limits, for parsing other untrusted JSON the same way. */
    public ObjectMapper mapper() {
        return mapper;
    }

    /**
     * Parses an untrusted request body within these limits (413 when too large, 400 for anything that is not one
     * JSON document).
     *
     * @param expected what the body should hold, for the empty-body message, e.g. "a ConversionReview"
     */
    public JsonNode parseBody(byte[] body, String expected) throws ReviewDecodeException {
        return parseBody(body, 0, body == null ? 0 : body.length, expected);
    }

    /**
     * Parses the {@code length} bytes of {@code buffer} from {@code offset} as {@link #parseBody(byte[], String)}
     * does: a request body read in place, in the buffer a web server read it into. Parsed from the array, Jackson
     * needs no read buffer of its own.
     */
    public JsonNode parseBody(byte[] buffer, int offset, int length, String expected) throws ReviewDecodeException {
        if (buffer == null || length == 0) {
            throw new ReviewDecodeException("empty body: expected " + expected + " JSON object");
        }
        if (length > limits.maxBodyBytes()) {
            throw new ReviewDecodeException(413, "body of " + length + " bytes exceeds the limit of "
                    + limits.maxBodyBytes() + " bytes");
        }
        try (JsonParser parser = mapper.createParser(buffer, offset, length)) {
            return readDocument(parser, expected);
        } catch (IOException e) {
            throw new ReviewDecodeException("body could not be read: " + firstLine(e.getMessage()));
        }
    }

    /**
     * Reads one JSON document from a parser of {@link #mapper()} (so the nesting, string and token limits apply as
     * it reads); data after the document is an error.
     */
    private JsonNode readDocument(JsonParser parser, String expected) throws ReviewDecodeException {
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
            throw new ReviewDecodeException("body is not valid JSON: "
                    + firstLine(duplicateField(e.getOriginalMessage())) + location(e));
        } catch (IOException e) {
            throw new ReviewDecodeException("body could not be read: " + firstLine(e.getMessage()));
        }
    }

    /** The tree's duplicate-key message ends with the feature that refused it: only the field is the caller's. */
    private static String duplicateField(String message) {
        int feature = message == null || !message.startsWith("Duplicate field ") ? -1 : message.indexOf(" for `");
        return feature < 0 ? message : message.substring(0, feature);
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
}
