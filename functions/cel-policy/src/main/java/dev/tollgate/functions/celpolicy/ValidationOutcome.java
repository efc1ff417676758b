package dev.tollgate.functions.celpolicy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.Verdict;

/**
 * Collects the decisions of every policy binding for one request and turns them into one verdict, as the API
 * server's validating dispatcher does: the first denial decides the message (policies and bindings are visited in
 * name order), warnings and audit annotations from every binding are kept.
 */
final class ValidationOutcome {

    /** The API server cuts an audit annotation value at 10 KiB. */
    static final int MAX_AUDIT_ANNOTATION_VALUE_LENGTH = 10 * 1024;
    /** At most this many failures are listed in the validation_failure annotation. */
    static final int MAX_VALIDATION_FAILURES = 50;

    private static final ObjectMapper JSON = new ObjectMapper();

    private record Denial(String policy, String binding, String reason, String message) {
    }

    private Denial denial;
    private final List<String> warnings = new ArrayList<>();
    private final Map<String, TreeSet<String>> annotations = new LinkedHashMap<>();
    private final ArrayNode failures = JsonNodeFactory.instance.arrayNode();

    void deny(String policy, String binding, String reason, String message) {
        if (denial == null) {
            denial = new Denial(policy, binding, reason, message);
        }
    }

    void warn(String policy, String binding, String message) {
        String w = "Validation failed for ValidatingAdmissionPolicy '" + policy + "' with binding '" + binding + "': "
                + message;
        if (!warnings.contains(w)) {
            warnings.add(w);
        }
    }

    void auditFailure(String policy, ValidatingPolicyDefinition.Binding binding, int expressionIndex,
            String message) {
        if (failures.size() >= MAX_VALIDATION_FAILURES) {
            return;
        }
        ObjectNode f = failures.addObject();
        f.put("message", message);
        f.put("policy", policy);
        f.put("binding", binding.name());
        f.put("expressionIndex", expressionIndex);
        ArrayNode actions = f.putArray("validationActions");
        binding.validationActions().forEach(a -> actions.add(a.name()));
    }

    /** Distinct values of one key (from several bindings or params) are joined with ", ", sorted, as upstream. */
    void annotate(String key, String value) {
        String v = value.length() > MAX_AUDIT_ANNOTATION_VALUE_LENGTH
                ? value.substring(0, MAX_AUDIT_ANNOTATION_VALUE_LENGTH) : value;
        annotations.computeIfAbsent(key, k -> new TreeSet<>()).add(v);
    }

    Verdict verdict() {
        Verdict v;
        if (denial != null) {
            String reason = denial.reason().isEmpty() ? "Invalid" : denial.reason();
            String message = "ValidatingAdmissionPolicy '" + denial.policy() + "'"
                    + (denial.binding() == null ? "" : " with binding '" + denial.binding() + "'")
                    + " denied request: " + denial.message();
            v = Verdict.deny(codeFor(reason), reason, message);
        } else {
            v = Verdict.allow();
        }
        v = v.withWarnings(warnings);
        for (Map.Entry<String, TreeSet<String>> e : annotations.entrySet()) {
            v = v.withAuditAnnotation(e.getKey(), String.join(", ", e.getValue()));
        }
        if (!failures.isEmpty()) {
            try {
                v = v.withAuditAnnotation(ValidatingPolicyDefinition.AuditKeys.VALIDATION_FAILURE,
                        JSON.writeValueAsString(failures));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e); // a tree of strings and numbers always serialises
            }
        }
        return v;
    }

    /** The API server's reasonToCode: the HTTP status of a denial with this reason. */
    static int codeFor(String reason) {
        return switch (reason) {
            case "Forbidden" -> 403;
            case "Unauthorized" -> 401;
            case "RequestEntityTooLarge" -> 413;
            default -> 422;
        };
    }
}
