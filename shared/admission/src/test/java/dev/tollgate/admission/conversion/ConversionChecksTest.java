package dev.tollgate.admission.conversion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Every kind of bad conversion a function could return, and the controls the API server accepts. */
class ConversionChecksTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DESIRED = "shop.tollgate.dev/v2";

    private static ObjectNode original(String name) {
        try {
            return (ObjectNode) JSON.readTree("""
                    {"apiVersion":"shop.tollgate.dev/v1","kind":"Widget",
                     "metadata":{"name":"%s","namespace":"shop","uid":"u-%s","resourceVersion":"42","generation":3,
                                 "labels":{"team":"a"},"annotations":{"note":"x"},"finalizers":["f"]},
                     "spec":{"colour":"red"}}
                    """.formatted(name, name));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static ObjectNode converted(String name, Consumer<ObjectNode> change) {
        ObjectNode out = original(name);
        out.put("apiVersion", DESIRED);
        change.accept(out);
        return out;
    }

    private static ObjectNode md(ObjectNode o) {
        return (ObjectNode) o.get("metadata");
    }

    @Test
    void acceptsAConversionThatChangesOnlyVersionSpecLabelsAndAnnotations() {
        ObjectNode out = converted("a", o -> {
            o.putObject("spec").put("color", "red");
            md(o).with("labels").put("tier", "gold");
            md(o).with("annotations").put("shop.tollgate.dev/v1-colour", "red");
        });
        assertEquals(List.of(), ConversionChecks.convertedObject(original("a"), out, DESIRED));
        ObjectNode dropped = converted("a", o -> {
            md(o).remove("labels");
            md(o).remove("annotations");
        });
        assertEquals(List.of(), ConversionChecks.convertedObject(original("a"), dropped, DESIRED));
    }

    @Test
    void numbersAreComparedByValue() {
        ObjectNode longGeneration = original("a");
        md(longGeneration).put("generation", 3L);
        ObjectNode out = converted("a", o -> md(o).put("generation", 3.0));
        assertEquals(List.of(), ConversionChecks.convertedObject(longGeneration, out, DESIRED));
        ObjectNode other = converted("a", o -> md(o).put("generation", 4));
        assertFalse(ConversionChecks.convertedObject(longGeneration, other, DESIRED).isEmpty());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            wrong apiVersion        |invalid groupVersion (expected shop.tollgate.dev/v2, received shop.tollgate.dev/v1)
            other kind              |invalid kind (expected Widget, received Gadget)
            no metadata             |missing metadata in converted object
            metadata a string       |invalid metadata: expected an object
            renamed                 |must have the same name: a != b
            moved namespace         |must have the same namespace: shop != other
            new uid                 |must have the same UID: u-a != u-z
            resourceVersion changed |metadata.resourceVersion changed: a conversion may change only labels and annotations
            generation dropped      |metadata.generation changed
            finalizers changed      |metadata.finalizers changed
            ownerReferences added   |metadata.ownerReferences changed
            label not a string      |metadata.labels[team] must be a string
            labels an array         |invalid metadata.labels: expected an object of strings
            bad label key           |metadata.labels: Invalid value: "-bad": not a valid label key
            bad label value         |metadata.labels: Invalid value: "a b": not a valid label value
            bad annotation key      |metadata.annotations: Invalid value: "a/b/c": not a valid annotation key
            annotation too large    |metadata.annotations: Too long: must have at most 262144 bytes
            """)
    void rejectsEveryKindOfBadConversion(String kind, String expected) {
        ObjectNode out = converted("a", badConversion(kind));
        List<String> problems = ConversionChecks.convertedObject(original("a"), out, DESIRED);
        assertTrue(problems.stream().anyMatch(p -> p.startsWith(expected)), () -> kind + ": " + problems);
    }

    private static Consumer<ObjectNode> badConversion(String kind) {
        return switch (kind) {
            case "wrong apiVersion" -> o -> o.put("apiVersion", "shop.tollgate.dev/v1");
            case "other kind" -> o -> o.put("kind", "Gadget");
            case "no metadata" -> o -> o.remove("metadata");
            case "metadata a string" -> o -> o.put("metadata", "m");
            case "renamed" -> o -> md(o).put("name", "b");
            case "moved namespace" -> o -> md(o).put("namespace", "other");
            case "new uid" -> o -> md(o).put("uid", "u-z");
            case "resourceVersion changed" -> o -> md(o).put("resourceVersion", "43");
            case "generation dropped" -> o -> md(o).remove("generation");
            case "finalizers changed" -> o -> md(o).withArray("finalizers").add("g");
            case "ownerReferences added" -> o -> md(o).putArray("ownerReferences").addObject().put("name", "x");
            case "label not a string" -> o -> md(o).with("labels").put("team", 1);
            case "labels an array" -> o -> md(o).putArray("labels");
            case "bad label key" -> o -> md(o).with("labels").put("-bad", "x");
            case "bad label value" -> o -> md(o).with("labels").put("ok", "a b");
            case "bad annotation key" -> o -> md(o).with("annotations").put("a/b/c", "x");
            case "annotation too large" -> o -> md(o).with("annotations").put("big", "x".repeat(262_144));
            default -> throw new IllegalArgumentException(kind);
        };
    }

    // --- whole responses

    private static ObjectNode sent(String version, ObjectNode... objects) {
        ObjectNode review = JSON.createObjectNode();
        review.put("apiVersion", version).put("kind", "ConversionReview");
        ObjectNode req = review.putObject("request");
        req.put("uid", "uid-1").put("desiredAPIVersion", DESIRED);
        ArrayNode arr = req.putArray("objects");
        for (ObjectNode o : objects) {
            arr.add(o);
        }
        return review;
    }

    private static ObjectNode answer(String version, String uid, JsonNode... converted) {
        ObjectNode review = JSON.createObjectNode();
        review.put("apiVersion", version).put("kind", "ConversionReview");
        ObjectNode resp = review.putObject("response");
        resp.put("uid", uid);
        ArrayNode arr = resp.putArray("convertedObjects");
        for (JsonNode o : converted) {
            arr.add(o);
        }
        resp.putObject("result").put("status", "Success");
        return review;
    }

    private static final String V1 = "apiextensions.k8s.io/v1";
    private static final String V1BETA1 = "apiextensions.k8s.io/v1beta1";

    @Test
    void acceptsAGoodAnswerInEitherVersion() {
        for (String v : List.of(V1, V1BETA1)) {
            ConversionChecks.Result r = ConversionChecks.check(sent(v, original("a"), original("b")),
                    answer(v, "uid-1", converted("a", o -> { }), converted("b", o -> { })));
            assertTrue(r.converted(), () -> v + ": " + r.problems());
            assertEquals(2, r.convertedObjects().size());
        }
    }

    @Test
    void aFailureWithAMessageIsAWellFormedAnswer() {
        ObjectNode failed = answer(V1, "uid-1");
        ((ObjectNode) failed.path("response").path("result")).put("status", "Failure").put("message", "no way");
        ConversionChecks.Result r = ConversionChecks.check(sent(V1, original("a")), failed);
        assertFalse(r.success());
        assertEquals(List.of(), r.problems());
        assertEquals("no way", r.message());
    }

    @Test
    void rejectsBadEnvelopes() {
        ObjectNode sent = sent(V1, original("a"));
        ObjectNode good = answer(V1, "uid-1", converted("a", o -> { }));
        assertProblem(sent, JSON.createArrayNode(), "response body is not a JSON object");
        assertProblem(sent, good.deepCopy().put("apiVersion", V1BETA1),
                "expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got "
                        + "apiextensions.k8s.io/v1beta1");
        assertProblem(sent, good.deepCopy().put("kind", "AdmissionReview"), "expected webhook response of");
        ObjectNode noResponse = good.deepCopy();
        noResponse.remove("response");
        assertProblem(sent, noResponse, "no response provided");
        assertProblem(sent, answer(V1, "uid-2", converted("a", o -> { })),
                "expected response.uid=\"uid-1\", got \"uid-2\"");
        ObjectNode unknownStatus = good.deepCopy();
        ((ObjectNode) unknownStatus.path("response").path("result")).put("status", "Maybe");
        assertProblem(sent, unknownStatus, "response.result.status was 'Maybe', not 'Success' or 'Failure'");
        ObjectNode silentFailure = good.deepCopy();
        ((ObjectNode) silentFailure.path("response").path("result")).put("status", "Failure");
        assertProblem(sent, silentFailure, "response.result.status is Failure without a message");
        ObjectNode notArray = good.deepCopy();
        ((ObjectNode) notArray.path("response")).put("convertedObjects", "x");
        assertProblem(sent, notArray, "response.convertedObjects: expected an array");
    }

    @Test
    void rejectsWrongCountsAndOrder() {
        ObjectNode sent = sent(V1, original("a"), original("b"));
        assertProblem(sent, answer(V1, "uid-1", converted("a", o -> { })), "returned 1 objects, expected 2");
        assertProblem(sent, answer(V1, "uid-1", converted("a", o -> { }), converted("b", o -> { }),
                converted("c", o -> { })), "returned 3 objects, expected 2");
        assertProblem(sent, answer(V1, "uid-1", converted("b", o -> { }), converted("a", o -> { })),
                "convertedObjects[0]: must have the same name: a != b");
        assertProblem(sent, answer(V1, "uid-1", converted("a", o -> { }), converted("b",
                o -> o.put("apiVersion", "shop.tollgate.dev/v3"))), "convertedObjects[1]: invalid groupVersion");
    }

    private static void assertProblem(JsonNode sent, JsonNode response, String expected) {
        List<String> problems = ConversionChecks.check(sent, response).problems();
        assertTrue(problems.stream().anyMatch(p -> p.startsWith(expected)), () -> expected + " not in " + problems);
    }
}
