package dev.tollgate.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.admission.match.LabelSelector;
import dev.tollgate.admission.match.Rule;

/**
 * One webhook of a MutatingWebhookConfiguration or ValidatingWebhookConfiguration, with the API server's defaults
 * applied (failurePolicy Fail, matchPolicy Equivalent, timeoutSeconds 10, reinvocationPolicy Never).
 *
 * @param configuration the configuration's metadata.name
 * @param mutating      true for a mutating webhook
 * @param index         the position among all webhooks of its kind in calling order (the API server's index in
 *                      the round/index annotations)
 * @param entry         the webhook object as written
 */
public record Webhook(String configuration, boolean mutating, int index, ObjectNode entry) {

    public String name() {
        return entry.path("name").asText("");
    }

    public List<Rule> rules() {
        List<Rule> rules = new ArrayList<>();
        for (JsonNode r : entry.path("rules")) {
            rules.add(Rule.parse(r));
        }
        return rules;
    }

    public LabelSelector namespaceSelector() {
        return LabelSelector.parse(entry.get("namespaceSelector"));
    }

    public LabelSelector objectSelector() {
        return LabelSelector.parse(entry.get("objectSelector"));
    }

    /** True when failurePolicy is Ignore; everything else (including the default) fails closed. */
    public boolean ignoreFailures() {
        return "Ignore".equals(entry.path("failurePolicy").asText("Fail"));
    }

    public String failurePolicy() {
        return entry.path("failurePolicy").asText("Fail");
    }

    public boolean equivalentMatchPolicy() {
        return !"Exact".equals(entry.path("matchPolicy").asText("Equivalent"));
    }

    public boolean reinvokeIfNeeded() {
        return mutating && "IfNeeded".equals(entry.path("reinvocationPolicy").asText("Never"));
    }

    /** None and NoneOnDryRun may be called for dry-run requests; Some and Unknown (v1beta1 values) may not. */
    public boolean supportsDryRun() {
        String s = entry.path("sideEffects").asText("Unknown");
        return s.equals("None") || s.equals("NoneOnDryRun");
    }

    public String sideEffects() {
        return entry.path("sideEffects").asText("Unknown");
    }

    public int timeoutSeconds() {
        return entry.path("timeoutSeconds").asInt(10);
    }

    /** The first review version in admissionReviewVersions that Tollgate speaks, as the API server picks it. */
    public Optional<ReviewVersion> reviewVersion() {
        for (JsonNode v : entry.path("admissionReviewVersions")) {
            Optional<ReviewVersion> known = ReviewVersion.fromShortName(v.asText());
            if (known.isPresent()) {
                return known;
            }
        }
        return Optional.empty();
    }

    public List<JsonNode> matchConditions() {
        List<JsonNode> out = new ArrayList<>();
        entry.path("matchConditions").forEach(out::add);
        return out;
    }

    public String url() {
        return entry.path("clientConfig").path("url").asText("");
    }

    /** The base64 PEM bundle the API server would trust for this webhook, or empty for the system roots. */
    public String caBundle() {
        return entry.path("clientConfig").path("caBundle").asText("");
    }

    @Override
    public String toString() {
        return name() + " (" + configuration + ")";
    }
}
