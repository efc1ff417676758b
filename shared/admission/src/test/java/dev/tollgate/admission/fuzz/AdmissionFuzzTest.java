package dev.tollgate.admission.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.tollgate.admission.AdmissionCodec;
import dev.tollgate.admission.AdmissionHandler;
import dev.tollgate.admission.AdmissionLimits;
import dev.tollgate.admission.AdmissionReview;
import dev.tollgate.admission.GroupVersionResource;
import dev.tollgate.admission.HandlerResult;
import dev.tollgate.admission.JsonPatches;
import dev.tollgate.admission.Operation;
import dev.tollgate.admission.ReviewDecodeException;
import dev.tollgate.admission.ValidatingPolicy;
import dev.tollgate.admission.Verdict;
import dev.tollgate.admission.match.LabelSelector;
import dev.tollgate.admission.match.Rule;

/**
 * Fuzz targets over everything that reads untrusted input. The property for each: it returns, or refuses with the
 * one documented exception; no other exception, no hang (Jazzer reports either). In a normal build these run the
 * regression inputs under src/test/resources/.../AdmissionFuzzTestInputs/&lt;target&gt;/ (two-document
 * targets: the documents separated by a NUL byte); with JAZZER_FUZZ=1 they
 * fuzz (see shared/function-runtime/README.md, "Fuzzing").
 */
class AdmissionFuzzTest {

    /** Small limits so the fuzzer reaches the limit checks quickly. */
    private static final AdmissionCodec CODEC = new AdmissionCodec(new AdmissionLimits(64 * 1024, 32, 4096));
    private static final ObjectMapper JSON = CODEC.mapper();
    private static final AdmissionHandler HANDLER = new AdmissionHandler(CODEC);
    private static final ValidatingPolicy ALLOW = new ValidatingPolicy() {
        @Override
        public Verdict validate(dev.tollgate.admission.AdmissionRequest request) {
            return Verdict.allow().withWarning(request.uid());
        }
    };

    @BeforeAll
    static void quietJazzer() {
        JazzerConsole.dropInfoUnlessFuzzing();
    }

    /** The review decoder: any bytes give a review or a ReviewDecodeException; a review round-trips. */
    @FuzzTest(maxDuration = "10m")
    void reviewDecoder(byte[] body) throws IOException {
        AdmissionReview review;
        try {
            review = CODEC.decode(body);
        } catch (ReviewDecodeException e) {
            assertNotNull(e.getMessage());
            return;
        }
        byte[] answer = CODEC.encode(review.version(), review.request().uid(), Verdict.allow(), null);
        JsonNode parsed = new ObjectMapper().readTree(answer);
        assertEquals(review.request().uid(), parsed.path("response").path("uid").asText());
        HandlerResult<AdmissionReview> result = HANDLER.handle(body, "fuzz", ALLOW);
        assertEquals(200, result.status());
    }

    /** diff then apply gives back the edited document, for any two JSON documents (separated by a NUL byte). */
    @FuzzTest(maxDuration = "10m")
    @DictionaryEntries({ "{", "}", "[", "]", "\"", ":", ",", "null", "true", "~0", "~1", "/", "\\u0000", "\u0000" })
    void patchRoundTrip(byte[] input) {
        JsonNode[] docs = twoDocuments(input);
        if (docs == null) {
            return;
        }
        JsonNode patch = JsonPatches.diff(docs[0], docs[1]);
        assertEquals(docs[1], JsonPatches.apply(patch, docs[0]), () -> "patch " + patch);
    }

    /** An arbitrary patch (before the NUL byte) on an arbitrary document applies or is refused with IAE. */
    @FuzzTest(maxDuration = "10m")
    @DictionaryEntries({ "\"op\"", "\"add\"", "\"remove\"", "\"replace\"", "\"move\"", "\"copy\"",
            "\"test\"", "\"path\"", "\"from\"", "\"value\"", "\"/-\"", "/0", "~0", "~1", "\u0000" })
    void patchApply(byte[] input) {
        JsonNode[] docs = twoDocuments(input);
        if (docs == null) {
            return;
        }
        JsonNode copy = docs[1].deepCopy();
        try {
            JsonPatches.apply(docs[0], docs[1]);
        } catch (IllegalArgumentException e) {
            assertNotNull(e.getMessage());
        }
        assertEquals(copy, docs[1], "the target is never changed in place");
    }

    private static final List<Map<String, String>> LABEL_SETS = List.of(Map.of(), Map.of("app", "web"),
            Map.of("app", "web", "tier", "db", "example.com/x", ""), Map.of("a/b", "c"));

    /** Label selectors parse or are refused with IllegalArgumentException; a parsed one matches without failing. */
    @FuzzTest(maxDuration = "10m")
    @DictionaryEntries({ "\"matchLabels\"", "\"matchExpressions\"", "\"key\"", "\"operator\"",
            "\"values\"", "\"In\"", "\"NotIn\"", "\"Exists\"", "\"DoesNotExist\"", "\"app\"", "/" })
    void labelSelector(byte[] input) {
        JsonNode node = parse(input);
        if (node == null) {
            return;
        }
        LabelSelector selector;
        try {
            selector = LabelSelector.parse(node);
        } catch (IllegalArgumentException e) {
            assertNotNull(e.getMessage());
            return;
        }
        LABEL_SETS.forEach(selector::matches);
        assertNotNull(selector.toString());
    }

    private static final List<GroupVersionResource> RESOURCES = List.of(GroupVersionResource.of("", "v1", "pods"),
            GroupVersionResource.of("apps", "v1", "deployments"), GroupVersionResource.of("", "v1", "namespaces"),
            GroupVersionResource.of("example.com", "v1beta1", "widgets"));

    /** Rules parse or are refused with IllegalArgumentException; a parsed one matches any request without failing. */
    @FuzzTest(maxDuration = "10m")
    @DictionaryEntries({ "\"operations\"", "\"apiGroups\"", "\"apiVersions\"", "\"resources\"",
            "\"scope\"", "\"Namespaced\"", "\"Cluster\"", "\"*\"", "\"*/*\"", "\"CREATE\"", "/status" })
    void rule(byte[] input) {
        JsonNode node = parse(input);
        if (node == null) {
            return;
        }
        Rule rule;
        try {
            rule = Rule.parse(node);
        } catch (IllegalArgumentException e) {
            assertNotNull(e.getMessage());
            return;
        }
        for (GroupVersionResource gvr : RESOURCES) {
            for (Operation op : Operation.values()) {
                for (String sub : new String[] { "", "status", "scale" }) {
                    rule.matches(op, gvr, sub, "");
                    rule.matches(op, gvr, sub, "shop");
                }
            }
            rule.matchesResource(gvr, "");
        }
        assertNotNull(List.copyOf(rule.resources()));
    }

    /** Two JSON documents separated by the first NUL byte, or null. */
    private static JsonNode[] twoDocuments(byte[] input) {
        int nul = 0;
        while (nul < input.length && input[nul] != 0) {
            nul++;
        }
        if (nul >= input.length) {
            return null;
        }
        JsonNode a = parse(java.util.Arrays.copyOfRange(input, 0, nul));
        JsonNode b = parse(java.util.Arrays.copyOfRange(input, nul + 1, input.length));
        return a == null || b == null ? null : new JsonNode[] { a, b };
    }

    /** Parses with the codec's limits; null for anything that is not JSON (not what these targets test). */
    private static JsonNode parse(byte[] bytes) {
        try {
            JsonNode node = JSON.readTree(bytes);
            return node == null || node.isMissingNode() ? null : node;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
