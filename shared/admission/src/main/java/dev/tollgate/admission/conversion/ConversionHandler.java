package dev.tollgate.admission.conversion;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.HandlerResult;
import dev.tollgate.admission.ReviewHandler;

/**
 * One conversion call ({@link ReviewHandler}): convert each object with the policy, check each result against the API
 * server's rules ({@link ConversionChecks}), answer in the version received.
 *
 * <ul>
 * <li>One object the policy refuses ({@link ConversionException}) or converts against the rules fails the whole
 * review: 200 with {@code result.status: Failure} and a message naming the object, which the API server passes on
 * to the client. No partial answer is ever sent.</li>
 * <li>A policy that throws anything else gets a 500 (logged with the uid): the conversion fails, it never passes.
 * So does a policy that does not answer in time: a conversion has no verdict to default to.</li>
 * </ul>
 */
public final class ConversionHandler extends ReviewHandler<ConversionReview, ConversionPolicy, ConversionCodec> {

    public ConversionHandler(ConversionCodec codec) {
        super(codec);
    }

    @Override
    protected HandlerResult<ConversionReview> run(ConversionReview review, String function,
            ConversionPolicy policy) {
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
            } catch (ConversionException e) {
                return failure(review, HandlerResult.Outcome.FAILED,
                        describe(i, original) + ": cannot convert to " + desired + ": " + e.getMessage());
            }
            if (out == null) {
                throw new IllegalStateException("policy returned no object");
            }
            List<String> problems = ConversionChecks.convertedObject(original, out, desired);
            if (!problems.isEmpty()) {
                return failure(review, HandlerResult.Outcome.INVALID, describe(i, original) + ": conversion to "
                        + desired + " by " + function + " is invalid: " + String.join("; ", problems));
            }
            converted.add(out);
        }
        byte[] body = codec().encodeSuccess(review.version(), request.uid(), converted);
        return result(200, body, HandlerResult.Outcome.CONVERTED, review, null, 0, "");
    }

    private HandlerResult<ConversionReview> failure(ConversionReview review, HandlerResult.Outcome outcome,
            String message) {
        byte[] body = codec().encodeFailure(review.version(), review.uid(), message);
        return result(200, body, outcome, review, null, 0, message);
    }

    /** {@code objects[1] (Widget shop/blue, shop.tollgate.dev/v1)}: which object, for messages. */
    static String describe(int index, JsonNode object) {
        JsonNode md = object.path("metadata");
        String ns = md.path("namespace").asText("");
        return "objects[" + index + "] (" + object.path("kind").asText() + " " + (ns.isEmpty() ? "" : ns + "/")
                + md.path("name").asText("") + ", " + object.path("apiVersion").asText() + ")";
    }
}
