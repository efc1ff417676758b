package dev.tollgate.admission;

import static dev.tollgate.admission.JsonFields.requiredString;
import static dev.tollgate.admission.JsonFields.type;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads one kind of review request and writes its answers, in the version received. The way in is the same for
 * both kinds: the body within the limits ({@link ReviewJson}), then the envelope ({@code apiVersion} of this kind in
 * a known version, {@code kind}, {@code request} and its non-empty {@code uid}); a subclass reads only what its
 * request holds ({@link #request}) and writes its answers. Decoding validates every field the API server sends and
 * reports the first problem with its JSON path; it never lets a malformed review through.
 */
public abstract class ReviewCodec<R extends Review> {

    private final ReviewKind kind;
    private final ReviewJson json;

    protected ReviewCodec(ReviewKind kind, ReviewJson json) {
        this.kind = kind;
        this.json = json;
    }

    public ReviewKind kind() {
        return kind;
    }

    /** The parser, limits and error bodies this codec reads and answers bad input with. */
    public ReviewJson json() {
        return json;
    }

    /** The mapper with this codec's limits, for parsing other untrusted JSON the same way. */
    public ObjectMapper mapper() {
        return json.mapper();
    }

    /** Parses and validates a review request body. */
    public R decode(byte[] body) throws ReviewDecodeException {
        return decode(json.parseBody(body, kind.expected()));
    }

    /**
     * Parses and validates the {@code length} bytes of {@code buffer} from {@code offset} (a request body read in
     * place, in the buffer a web server read it into), as {@link #decode(byte[])} does.
     */
    public R decode(byte[] buffer, int offset, int length) throws ReviewDecodeException {
        return decode(json.parseBody(buffer, offset, length, kind.expected()));
    }

    /** Validates an already parsed review request. */
    public R decode(JsonNode root) throws ReviewDecodeException {
        if (root == null || !root.isObject()) {
            throw new ReviewDecodeException("body is not a JSON object: expected " + kind.expected());
        }
        String apiVersion = requiredString(root, "apiVersion", "apiVersion");
        ReviewVersion version = kind.version(apiVersion).orElseThrow(
                // Not quoted: no text of a refused request is echoed into an answer or a log (it may be a token).
                () -> new ReviewDecodeException("unsupported apiVersion: expected "
                        + kind.apiVersions()));
        String reviewKind = requiredString(root, "kind", "kind");
        if (!kind.kind().equals(reviewKind)) {
            throw new ReviewDecodeException("kind: expected " + kind.kind());
        }
        JsonNode request = root.get("request");
        if (request == null || request.isNull()) {
            throw new ReviewDecodeException("request: required");
        }
        if (!request.isObject()) {
            throw new ReviewDecodeException("request: expected an object, got " + type(request));
        }
        String uid = requiredString(request, "uid", "request.uid");
        if (uid.isEmpty()) {
            throw new ReviewDecodeException("request.uid: must not be empty");
        }
        return request(version, uid, request);
    }

    /**
     * Reads what this kind's request holds besides its uid, and validates it.
     *
     * @param request the {@code request} object, its uid already read
     */
    protected abstract R request(ReviewVersion version, String uid, JsonNode request) throws ReviewDecodeException;

    /** A {@code Status} error body for bad input ({@link ReviewJson#errorBody}). */
    public byte[] errorBody(int status, String message) {
        return json.errorBody(status, message);
    }
}
