package dev.tollgate.admission.conversion;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.ReviewDecodeException;

/**
 * One conversion call, without HTTP: decode the ConversionReview, convert each object with the policy, check each
 * result against the API server's rules ({@link ConversionChecks}), answer in the version received. The HTTP layer
 * only moves bytes: {@code handle(body, function, policy)} gives the status and body to send.
 *
 * <ul>
 * <li>Bad input (400/413, the same JSON errors as admission) never reaches the policy.</li>
 * <li>One object the policy refuses ({@link ConversionException}) or converts against the rules fails the whole
 * review: 200 with {@code result.status: Failure} and a message naming the object, which the API server passes on
 * to the client. No partial answer is ever sent.</li>
 * <li>A policy that throws anything else gets a 500 (logged with the uid): the conversion fails, it never passes.</li>
 * </ul>
 */
public final class ConversionHandler {

    private static final System.Logger LOG = System.getLogger(ConversionHandler.class.getName());

    private final ConversionCodec codec;

    public ConversionHandler(ConversionCodec codec) {
        this.codec = Objects.requireNonNull(codec, "codec");
    }

    public ConversionCodec codec() {
        return codec;
    }

    /** Decodes {@code body} and converts its objects with {@code policy}, the function named {@code function}. */
    public ConversionResult handle(byte[] body, String function, ConversionPolicy policy) {
        ConversionReview review;
        try {
            review = codec.decode(body);
        } catch (ReviewDecodeException e) {
            return badRequest(e.status(), e.getMessage());
        }
        return handle(review, function, policy);
    }

    /** Converts the objects of an already decoded review. */
    public ConversionResult handle(ConversionReview review, String function, ConversionPolicy policy) {
        ConversionRequest request = review.request();
        String desired = request.desiredApiVersion();
        List<JsonNode> converted = new ArrayList<>(request.objects().size());
        for (int i = 0; i < request.objects().size(); i++) {
            ObjectNode original = request.objects().get(i);
            if (desired.equals(original.path("apiVersion").asText())) {
                // The API server never sends these; the only correct conversion is none.
                converted.add(original);
                continue;
            }
            ObjectNode out;
            try {
                out = policy.convert(original.deepCopy(), desired);
                if (out == null) {
                    throw new IllegalStateException("policy returned no object");
                }
            } catch (ConversionException e) {
                return failure(review, ConversionResult.Outcome.FAILED,
                        describe(i, original) + ": cannot convert to " + desired + ": " + e.getMessage());
            } catch (RuntimeException | StackOverflowError e) {
                return policyFailed(review, function, e);
            }
            List<String> problems = ConversionChecks.convertedObject(original, out, desired);
            if (!problems.isEmpty()) {
                return failure(review, ConversionResult.Outcome.INVALID, describe(i, original) + ": conversion to "
                        + desired + " by " + function + " is invalid: " + String.join("; ", problems));
            }
            converted.add(out);
        }
        byte[] body = codec.encodeSuccess(review.version(), request.uid(), converted);
        return new ConversionResult(200, body, ConversionResult.Outcome.CONVERTED, review, converted.size(), "");
    }

    /** The answer to a request whose body is not a usable ConversionReview. */
    public ConversionResult badRequest(int status, String message) {
        return new ConversionResult(status, codec.errorBody(status, message), ConversionResult.Outcome.BAD_REQUEST,
                null, 0, message);
    }

    /** The answer when the policy threw: HTTP 500 with a short message; the details go to the log. */
    public ConversionResult policyFailed(ConversionReview review, String function, Throwable e) {
        String uid = review == null ? "" : review.request().uid();
        LOG.log(Level.ERROR, "conversion policy " + function + " failed on request uid=" + uid, e);
        String message = "conversion policy " + function + " failed: " + e.getClass().getSimpleName();
        return new ConversionResult(500, codec.errorBody(500, message), ConversionResult.Outcome.ERROR, review,
                review == null ? 0 : review.request().objects().size(), message);
    }

    private ConversionResult failure(ConversionReview review, ConversionResult.Outcome outcome, String message) {
        byte[] body = codec.encodeFailure(review.version(), review.request().uid(), message);
        return new ConversionResult(200, body, outcome, review, review.request().objects().size(), message);
    }

    /** {@code objects[1] (Widget shop/blue, shop.tollgate.dev/v1)}: which object, for messages. */
    static String describe(int index, JsonNode object) {
        JsonNode md = object.path("metadata");
        String ns = md.path("namespace").asText("");
        return "objects[" + index + "] (" + object.path("kind").asText() + " " + (ns.isEmpty() ? "" : ns + "/")
                + md.path("name").asText("") + ", " + object.path("apiVersion").asText() + ")";
    }
}
