package dev.tollgate.admission.conversion;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.admission.ReviewKind;
import dev.tollgate.admission.match.LabelSyntax;

/**
 * The API server's checks on a conversion webhook's answer (k8s.io/apiextensions-apiserver
 * pkg/apiserver/conversion/webhook_converter.go: getConvertedObjectsFromResponse, Convert, validateConvertedObject,
 * restoreObjectMeta; label and annotation rules from apimachinery's metav1validation.ValidateLabels and
 * apivalidation.ValidateAnnotations). The library applies {@link #convertedObject} to every object a policy returns;
 * the test kit and the simulator apply {@link #check} to whole response bodies.
 *
 * <p>One rule is stricter than the API server: upstream rejects a changed name, namespace or uid but silently puts
 * back any other metadata field it finds changed, so such a conversion is lost without a word. Here every metadata
 * change other than labels and annotations is a problem.
 */
public final class ConversionChecks {

    /** apimachinery's TotalAnnotationSizeLimitB: keys plus values of all annotations. */
    public static final int MAX_ANNOTATIONS_BYTES = 256 * 1024;

    private static final Set<String> IDENTITY = Set.of("name", "namespace", "uid");
    private static final Set<String> MAY_CHANGE = Set.of("labels", "annotations");

    private ConversionChecks() {
    }

    /**
     * A response body, read as the API server reads it.
     *
     * @param success          result.status was Success (and the response well-formed)
     * @param message          result.message (for a Failure, what the API server reports)
     * @param convertedObjects the converted objects, in request order (empty unless success)
     * @param problems         why the API server would refuse the answer; empty when it would accept it
     */
    public record Result(boolean success, String message, List<JsonNode> convertedObjects, List<String> problems) {

        /** Accepted and converted. */
        public boolean converted() {
            return success && problems.isEmpty();
        }
    }

    /**
     * Checks {@code response} as the answer to the ConversionReview {@code sent}: envelope, uid, result, count and
     * order of the converted objects, and each object against the one sent at the same index.
     */
    public static Result check(JsonNode sent, JsonNode response) {
        List<String> problems = new ArrayList<>();
        String sentVersion = sent.path("apiVersion").asText();
        JsonNode request = sent.path("request");
        if (response == null || !response.isObject()) {
            return new Result(false, "", List.of(), List.of("response body is not a JSON object"));
        }
        if (!sentVersion.equals(response.path("apiVersion").asText())
                || !ReviewKind.CONVERSION.kind().equals(response.path("kind").asText())) {
            // The API server checks this for v1; for v1beta1 it is lenient, Tollgate still answers in kind.
            problems.add("expected webhook response of " + sentVersion + ", Kind=ConversionReview, got "
                    + response.path("apiVersion").asText() + ", Kind=" + response.path("kind").asText());
        }
        JsonNode resp = response.get("response");
        if (resp == null || !resp.isObject()) {
            problems.add("no response provided");
            return new Result(false, "", List.of(), problems);
        }
        String uid = request.path("uid").asText();
        if (!uid.equals(resp.path("uid").asText())) {
            problems.add("expected response.uid=\"" + uid + "\", got \"" + resp.path("uid").asText() + "\"");
        }
        JsonNode result = resp.path("result");
        String status = result.path("status").asText("");
        String message = result.path("message").asText("");
        if (!status.equals("Success")) {
            if (!status.equals("Failure")) {
                problems.add("response.result.status was '" + status + "', not 'Success' or 'Failure'");
            } else if (message.isBlank()) {
                problems.add("response.result.status is Failure without a message: the client sees no reason");
            }
            return new Result(false, message, List.of(), problems);
        }
        JsonNode converted = resp.path("convertedObjects");
        JsonNode objects = request.path("objects");
        if (!converted.isArray()) {
            problems.add("response.convertedObjects: expected an array");
            return new Result(true, message, List.of(), problems);
        }
        if (converted.size() != objects.size()) {
            problems.add("returned " + converted.size() + " objects, expected " + objects.size());
        }
        String desired = request.path("desiredAPIVersion").asText();
        List<JsonNode> out = new ArrayList<>();
        for (int i = 0; i < converted.size(); i++) {
            out.add(converted.get(i));
            if (i < objects.size()) {
                for (String p : convertedObject(objects.get(i), converted.get(i), desired)) {
                    problems.add("convertedObjects[" + i + "]: " + p);
                }
            }
        }
        return new Result(true, message, List.copyOf(out), List.copyOf(problems));
    }

    /**
     * What is wrong with {@code converted} as the conversion of {@code original} to {@code desiredApiVersion}; empty
     * when the API server would accept it.
     */
    public static List<String> convertedObject(JsonNode original, JsonNode converted, String desiredApiVersion) {
        if (converted == null || !converted.isObject()) {
            return List.of("not a JSON object");
        }
        List<String> problems = new ArrayList<>();
        String apiVersion = converted.path("apiVersion").asText("");
        if (!desiredApiVersion.equals(apiVersion)) {
            problems.add("invalid groupVersion (expected " + desiredApiVersion + ", received " + apiVersion + ")");
        }
        String kind = original.path("kind").asText("");
        if (!kind.equals(converted.path("kind").asText(""))) {
            problems.add("invalid kind (expected " + kind + ", received " + converted.path("kind").asText("") + ")");
        }
        JsonNode metadata = converted.get("metadata");
        if (metadata == null || metadata.isNull()) {
            problems.add("missing metadata in converted object");
            return problems;
        }
        if (!metadata.isObject()) {
            problems.add("invalid metadata: expected an object");
            return problems;
        }
        JsonNode before = original.path("metadata");
        for (String field : List.of("name", "namespace", "uid")) {
            String was = before.path(field).asText("");
            String now = metadata.path(field).asText("");
            if (!was.equals(now)) {
                problems.add("must have the same " + (field.equals("uid") ? "UID" : field) + ": " + was + " != "
                        + now);
            }
        }
        for (Iterator<String> it = union(before, metadata); it.hasNext();) {
            String field = it.next();
            if (!IDENTITY.contains(field) && !MAY_CHANGE.contains(field)
                    && !sameJson(before.get(field), metadata.get(field))) {
                problems.add("metadata." + field + " changed: a conversion may change only labels and annotations"
                        + " (the API server would silently restore it)");
            }
        }
        labels(before.get("labels"), metadata.get("labels"), problems);
        annotations(before.get("annotations"), metadata.get("annotations"), problems);
        return problems;
    }

    private static void labels(JsonNode before, JsonNode after, List<String> problems) {
        if (!stringMap(after, "labels", problems) || Objects.equals(before, after) || after == null) {
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = after.fields(); it.hasNext();) {
            var e = it.next();
            if (!LabelSyntax.isQualifiedName(e.getKey())) {
                problems.add("metadata.labels: Invalid value: \"" + e.getKey() + "\": not a valid label key");
            }
            if (!LabelSyntax.isLabelValue(e.getValue().textValue())) {
                problems.add("metadata.labels: Invalid value: \"" + e.getValue().textValue()
                        + "\": not a valid label value");
            }
        }
    }

    private static void annotations(JsonNode before, JsonNode after, List<String> problems) {
        if (!stringMap(after, "annotations", problems) || Objects.equals(before, after) || after == null) {
            return;
        }
        long size = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = after.fields(); it.hasNext();) {
            var e = it.next();
            // apivalidation.ValidateAnnotations checks the lower-cased key
            if (!LabelSyntax.isQualifiedName(e.getKey().toLowerCase(Locale.ROOT))) {
                problems.add("metadata.annotations: Invalid value: \"" + e.getKey() + "\": not a valid annotation key");
            }
            size += e.getKey().getBytes(StandardCharsets.UTF_8).length
                    + e.getValue().textValue().getBytes(StandardCharsets.UTF_8).length;
        }
        if (size > MAX_ANNOTATIONS_BYTES) {
            problems.add("metadata.annotations: Too long: must have at most " + MAX_ANNOTATIONS_BYTES + " bytes");
        }
    }

    /** null/absent is fine (no labels); otherwise an object of strings. */
    private static boolean stringMap(JsonNode node, String field, List<String> problems) {
        if (node == null || node.isNull()) {
            return true;
        }
        if (!node.isObject()) {
            problems.add("invalid metadata." + field + ": expected an object of strings");
            return false;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
            var e = it.next();
            if (!e.getValue().isTextual()) {
                problems.add("metadata." + field + "[" + e.getKey() + "] must be a string");
                return false;
            }
        }
        return true;
    }

    /** JSON equality with numbers compared by value: 2 and 2.0 (or an int and a long node) are the same. */
    static boolean sameJson(JsonNode a, JsonNode b) {
        if (a == null || b == null) {
            return a == b;
        }
        return a.equals(NUMBERS_BY_VALUE, b);
    }

    private static final java.util.Comparator<JsonNode> NUMBERS_BY_VALUE = (x, y) -> {
        if (x.equals(y)) {
            return 0;
        }
        if (x.isNumber() && y.isNumber()) {
            return x.decimalValue().compareTo(y.decimalValue());
        }
        return 1;
    };

    private static Iterator<String> union(JsonNode a, JsonNode b) {
        java.util.Set<String> names = new java.util.TreeSet<>();
        a.fieldNames().forEachRemaining(names::add);
        b.fieldNames().forEachRemaining(names::add);
        return names.iterator();
    }
}
