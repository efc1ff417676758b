package dev.tollgate.admission.registration;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.match.LabelSelector;
import dev.tollgate.admission.match.Rule;

/**
 * One webhook entry a function declares in {@code functions/<name>/webhook.yaml}: the admissionregistration.k8s.io/v1
 * webhook fields minus {@code clientConfig}, plus {@code type} (validating or mutating) and the HTTP {@code path}
 * the function serves it at. The raw entry is kept so that every declared field reaches the generated
 * configuration unchanged.
 *
 * @param function the function (module) that declares it
 * @param entry    the entry as written, including {@code type} and {@code path}
 */
public record WebhookRegistration(String function, ObjectNode entry) {

    public enum Type { validating, mutating }

    /** Fields that are Tollgate's own, not part of the Kubernetes webhook object. */
    public static final List<String> TOLLGATE_FIELDS = List.of("type", "path");

    public String name() {
        return entry.path("name").asText("");
    }

    public Type type() {
        return Type.valueOf(entry.path("type").asText());
    }

    public boolean mutating() {
        return type() == Type.mutating;
    }

    public String path() {
        return entry.path("path").asText("");
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

    public String failurePolicy() {
        return entry.path("failurePolicy").asText("Fail");
    }

    public int timeoutSeconds() {
        return entry.path("timeoutSeconds").asInt(10);
    }

    /** The Kubernetes webhook object (without Tollgate's own fields), ready for a clientConfig to be added. */
    public ObjectNode webhook() {
        ObjectNode copy = entry.deepCopy();
        copy.remove(TOLLGATE_FIELDS);
        return copy;
    }
}
