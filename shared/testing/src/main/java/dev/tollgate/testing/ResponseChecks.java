package dev.tollgate.testing;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.admission.ReviewKind;
import dev.tollgate.admission.ReviewVersion;

/**
 * The checks the API server makes on a webhook's response (k8s.io/apiserver webhook admission). A response that
 * fails them is a call error in a real cluster, so every response a test sees goes through {@link #verify}.
 */
public final class ResponseChecks {

    private ResponseChecks() {
    }

    /**
     * Lists every problem with {@code response} as an answer to {@code request}; empty when the API server would
     * accept it.
     *
     * @param mutating whether the webhook is registered as mutating (only those may return a patch)
     */
    public static List<String> problems(JsonNode request, JsonNode response, boolean mutating) {
        List<String> problems = new ArrayList<>();
        String sentVersion = request.path("apiVersion").asText();
        String uid = request.path("request").path("uid").asText();
        if (!response.isObject()) {
            return List.of("response body is not a JSON object");
        }
        JsonNode resp = response.get("response");
        if (resp == null || !resp.isObject()) {
            return List.of("webhook response was absent");
        }
        if (ReviewKind.ADMISSION.apiVersion(ReviewVersion.V1).equals(sentVersion)) {
            if (!ReviewKind.ADMISSION.apiVersion(ReviewVersion.V1).equals(response.path("apiVersion").asText())) {
                problems.add("expected apiVersion admission.k8s.io/v1, got '" + response.path("apiVersion").asText()
                        + "'");
            }
            if (!"AdmissionReview".equals(response.path("kind").asText())) {
                problems.add("expected kind AdmissionReview, got '" + response.path("kind").asText() + "'");
            }
            if (!uid.equals(resp.path("uid").asText())) {
                problems.add("expected response.uid '" + uid + "', got '" + resp.path("uid").asText() + "'");
            }
        } else {
            // v1beta1 is lenient in the API server; Tollgate still answers in kind and echoes the uid.
            if (!sentVersion.equals(response.path("apiVersion").asText())) {
                problems.add("expected the answer in " + sentVersion + ", got '" + response.path("apiVersion").asText()
                        + "'");
            }
            if (!uid.equals(resp.path("uid").asText())) {
                problems.add("expected response.uid '" + uid + "', got '" + resp.path("uid").asText() + "'");
            }
        }
        if (!resp.path("allowed").isBoolean()) {
            problems.add("response.allowed must be a boolean");
        }
        boolean hasPatch = resp.hasNonNull("patch");
        boolean hasPatchType = resp.hasNonNull("patchType");
        if (hasPatch != hasPatchType) {
            problems.add("patch and patchType must be set together (patch=" + hasPatch + ", patchType="
                    + hasPatchType + ")");
        }
        if (hasPatchType && !"JSONPatch".equals(resp.path("patchType").asText())) {
            problems.add("patchType must be JSONPatch, got '" + resp.path("patchType").asText() + "'");
        }
        if (!mutating && (hasPatch || hasPatchType)) {
            problems.add("a validating webhook must not return patch or patchType");
        }
        if (hasPatch) {
            try {
                JsonNode patch = Manifests.JSON.readTree(Base64.getDecoder().decode(resp.path("patch").asText()));
                if (!patch.isArray()) {
                    problems.add("patch must decode to a JSON array");
                }
            } catch (IllegalArgumentException | IOException e) {
                problems.add("patch is not base64-encoded JSON: " + e.getMessage());
            }
        }
        if (!resp.path("allowed").asBoolean(true) && resp.has("status") && !resp.path("status").isObject()) {
            problems.add("response.status must be an object");
        }
        // Warnings of any length are accepted: the API server cuts them only when a request's warnings pass 4096
        // characters in total (dev.tollgate.admission.WarningRecorder), which is not a problem of the response.
        return problems;
    }

    /** Fails the test with every problem when the API server would reject the response. */
    public static void verify(JsonNode request, JsonNode response, boolean mutating) {
        List<String> problems = problems(request, response, mutating);
        if (!problems.isEmpty()) {
            throw new AssertionError("the API server would reject this webhook response:\n  - "
                    + String.join("\n  - ", problems) + "\nresponse: " + response);
        }
    }
}
