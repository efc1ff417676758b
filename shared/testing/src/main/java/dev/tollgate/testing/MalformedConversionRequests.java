package dev.tollgate.testing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.testing.MalformedRequests.Case;

/**
 * Bad requests a conversion webhook must refuse with a 4xx JSON error (the same contract as
 * {@link MalformedRequests} for admission), never a 5xx, never an answer from the policy.
 */
public final class MalformedConversionRequests {

    private MalformedConversionRequests() {
    }

    /**
     * The cases, built around one valid object of the function's CRD.
     *
     * @param object       an object the function converts
     * @param desired      an apiVersion it converts to
     * @param maxBodyBytes the function's body limit, to build one body just over it
     */
    public static List<Case> cases(JsonNode object, String desired, long maxBodyBytes) {
        ObjectNode validReview = ConversionTester.request(ReviewVersion.V1, desired, object);
        String valid = Manifests.toJson(validReview);
        List<Case> c = new ArrayList<>();
        c.add(bad("empty body", ""));
        c.add(bad("whitespace only", "   \n"));
        c.add(bad("not JSON", "hello"));
        c.add(bad("truncated JSON", valid.substring(0, valid.length() / 2)));
        c.add(bad("JSON array", "[]"));
        c.add(bad("JSON null", "null"));
        c.add(bad("empty object", "{}"));
        c.add(bad("missing apiVersion", edit(validReview, r -> r.remove("apiVersion"))));
        c.add(bad("an AdmissionReview version", edit(validReview, r -> r.put("apiVersion", "admission.k8s.io/v1"))));
        c.add(bad("unknown apiextensions version", edit(validReview,
                r -> r.put("apiVersion", "apiextensions.k8s.io/v2"))));
        c.add(bad("wrong kind", edit(validReview, r -> r.put("kind", "AdmissionReview"))));
        c.add(bad("no request", edit(validReview, r -> r.remove("request"))));
        c.add(bad("request is a string", edit(validReview, r -> r.put("request", "x"))));
        c.add(bad("missing uid", editRequest(validReview, q -> q.remove("uid"))));
        c.add(bad("empty uid", editRequest(validReview, q -> q.put("uid", ""))));
        c.add(bad("uid is a number", editRequest(validReview, q -> q.put("uid", 42))));
        c.add(bad("missing desiredAPIVersion", editRequest(validReview, q -> q.remove("desiredAPIVersion"))));
        c.add(bad("desiredAPIVersion without a group", editRequest(validReview, q -> q.put("desiredAPIVersion", "v1"))));
        c.add(bad("missing objects", editRequest(validReview, q -> q.remove("objects"))));
        c.add(bad("objects is an object", editRequest(validReview, q -> q.set("objects", object.deepCopy()))));
        c.add(bad("an object is a string", editRequest(validReview, q -> q.withArray("objects").add("x"))));
        c.add(bad("an object without kind", editRequest(validReview,
                q -> ((ObjectNode) q.withArray("objects").get(0)).remove("kind"))));
        c.add(bad("duplicate key", valid.replaceFirst("\\{\"apiVersion\"", "{\"apiVersion\":\"x\",\"apiVersion\"")));
        c.add(bad("trailing garbage", valid + " {}"));
        c.add(bad("nesting deeper than the limit", "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":"
                + "\"ConversionReview\",\"request\":{\"uid\":\"u\",\"x\":" + "[".repeat(5000) + "]".repeat(5000) + "}}"));
        c.add(bad("invalid UTF-8", new byte[] { '{', '"', (byte) 0xC3, (byte) 0x28, '"', ':', '1', '}' }));
        c.add(new Case("text/plain content type", valid.getBytes(StandardCharsets.UTF_8), "text/plain", "POST", 400));
        c.add(new Case("no content type", valid.getBytes(StandardCharsets.UTF_8), null, "POST", 400));
        c.add(new Case("GET instead of POST", new byte[0], null, "GET", 405));
        byte[] big = new byte[(int) Math.min(Integer.MAX_VALUE - 16, maxBodyBytes + 1024)];
        java.util.Arrays.fill(big, (byte) ' ');
        big[0] = '{';
        big[big.length - 1] = '}';
        c.add(new Case("body over the size limit", big, "application/json", "POST", 413));
        return c;
    }

    private static String edit(ObjectNode valid, Consumer<ObjectNode> change) {
        ObjectNode review = valid.deepCopy();
        change.accept(review);
        return Manifests.toJson(review);
    }

    private static String editRequest(ObjectNode valid, Consumer<ObjectNode> change) {
        return edit(valid, r -> change.accept((ObjectNode) r.get("request")));
    }

    private static Case bad(String description, String body) {
        return bad(description, body.getBytes(StandardCharsets.UTF_8));
    }

    private static Case bad(String description, byte[] body) {
        return new Case(description, body, "application/json", "POST", 400);
    }
}
