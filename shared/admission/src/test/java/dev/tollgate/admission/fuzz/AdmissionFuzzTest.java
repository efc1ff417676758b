package dev.tollgate.admission.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
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
 * regression inputs under src/test/resources/.../AdmissionFuzzTestInputs/&lt;target&gt;/; with JAZZER_FUZZ=1 they
 * fuzz (see shared/function-runtime/README.md, "Fuzzing").
 */
class AdmissionFuzzTest {

    /** Small limits so the fuzzer reaches the limit checks quickly. */
    private static final AdmissionCodec CODEC = new AdmissionCodec(new AdmissionLimits(64 * 1024, 32, 4096));
    private static final ObjectMapper JSON = CODEC.mapper();
    private static final AdmissionHandler HANDLER = new AdmissionHandler(CODEC);
    private static final ValidatingPolicy ALLOW = new ValidatingPolicy() {
        @Override
        public String name() {
            return "fuzz";
        }

        @Override
        public Verdict validate(dev.tollgate.admission.AdmissionRequest request) {
            return Verdict.allow().withWarning(request.uid());
        }
    };

    /** The review decoder: any bytes give a review or a ReviewDecodeException; a review round-trips. */
    @FuzzTest(maxDuration = "10s")
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
        HandlerResult result = HANDLER.handle(body, ALLOW);
        assertEquals(200, result.status());
    }

    /** diff then apply gives back the edited document, for any two JSON documents. */
    @FuzzTest(maxDuration = "10s")
    void patchRoundTrip(FuzzedDataProvider data) {
        JsonNode original = parse(data.consumeString(2000));
        JsonNode edited = parse(data.consumeRemainingAsString());
        if (original == null || edited == null) {
            return;
        }
        JsonNode patch = JsonPatches.diff(original, edited);
        assertEquals(edited, JsonPatches.apply(patch, original), () -> "patch " + patch);
    }

    /** Applying an arbitrary patch to an arbitrary document applies or is refused with IllegalArgumentException. */
    @FuzzTest(maxDuration = "10s")
    void patchApply(FuzzedDataProvider data) {
        JsonNode patch = parse(data.consumeString(2000));
        JsonNode target = parse(data.consumeRemainingAsString());
        if (patch == null || target == null) {
            return;
        }
        JsonNode copy = target.deepCopy();
        try {
            JsonPatches.apply(patch, target);
        } catch (IllegalArgumentException e) {
            assertNotNull(e.getMessage());
        }
        assertEquals(copy, target, "the target is never changed in place");
    }

    /** Label selectors parse or are refused with IllegalArgumentException; a parsed one matches without failing. */
    @FuzzTest(maxDuration = "10s")
    void labelSelector(FuzzedDataProvider data) {
        Map<String, String> labels = new HashMap<>();
        int n = data.consumeInt(0, 4);
        for (int i = 0; i < n; i++) {
            labels.put(data.consumeString(40), data.consumeString(40));
        }
        JsonNode node = parse(data.consumeRemainingAsString());
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
        selector.matches(labels);
        assertNotNull(selector.toString());
    }

    /** Rules parse or are refused with IllegalArgumentException; a parsed one matches any request without failing. */
    @FuzzTest(maxDuration = "10s")
    void rule(FuzzedDataProvider data) {
        Operation op = data.pickValue(Operation.values());
        GroupVersionResource gvr = GroupVersionResource.of(data.consumeString(20), data.consumeString(10),
                data.consumeString(30));
        String sub = data.consumeString(20);
        String namespace = data.consumeBoolean() ? "" : data.consumeString(20);
        JsonNode node = parse(data.consumeRemainingAsString());
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
        rule.matches(op, gvr, sub, namespace);
        rule.matchesResource(gvr, sub);
        assertNotNull(List.copyOf(rule.resources()));
    }

    /** Parses with the codec's limits; null for anything that is not JSON (not what these targets test). */
    private static JsonNode parse(String text) {
        try {
            JsonNode node = JSON.readTree(text);
            return node == null || node.isMissingNode() ? null : node;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
