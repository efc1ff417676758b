package dev.tollgate.functions.celpolicy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.cel.admission.BindingSpec;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.PolicySpec;

/**
 * A ValidatingAdmissionPolicy (admissionregistration.k8s.io/v1) as configured: the shared policy fields plus
 * validations and auditAnnotations, checked with the API server's validation rules.
 */
public record ValidatingPolicyDefinition(PolicySpec spec, List<Validation> validations,
        List<AuditAnnotation> auditAnnotations) {

    public static final String API_VERSION = "admissionregistration.k8s.io/v1";
    public static final Set<String> API_VERSIONS = Set.of(API_VERSION, "admissionregistration.k8s.io/v1beta1");
    public static final String KIND = "ValidatingAdmissionPolicy";
    public static final String BINDING_KIND = "ValidatingAdmissionPolicyBinding";

    /** The reasons a validation may give, with the HTTP code the API server answers with. */
    public static final Set<String> REASONS = Set.of("Unauthorized", "Forbidden", "Invalid", "RequestEntityTooLarge");

    private static final Pattern NAME_PART = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

    /** spec.validations[i]. */
    public record Validation(String expression, String message, String messageExpression, String reason) {
    }

    /** spec.auditAnnotations[i]. */
    public record AuditAnnotation(String key, String valueExpression) {
    }

    /** What a binding does with a failed validation. */
    public enum ValidationAction { Deny, Warn, Audit }

    /** A ValidatingAdmissionPolicyBinding: the shared binding fields plus validationActions. */
    public record Binding(BindingSpec spec, List<ValidationAction> validationActions) {

        public String name() {
            return spec.name();
        }

        /** Parses and validates a binding document; null (with errors added) when it is invalid. */
        public static Binding parse(ConfigFiles.Document doc, List<String> errors) {
            int before = errors.size();
            BindingSpec spec = BindingSpec.parse(doc, errors);
            String at = doc.describe() + ": spec.validationActions";
            List<ValidationAction> actions = new ArrayList<>();
            JsonNode node = doc.object().path("spec").path("validationActions");
            if (!node.isArray() || node.isEmpty()) {
                errors.add(at + ": required (one or more of Deny, Warn, Audit)");
            } else {
                for (JsonNode a : node) {
                    try {
                        ValidationAction action = ValidationAction.valueOf(a.asText());
                        if (actions.contains(action)) {
                            errors.add(at + ": duplicate action " + action);
                        }
                        actions.add(action);
                    } catch (IllegalArgumentException e) {
                        errors.add(at + ": unknown action '" + a.asText() + "' (Deny, Warn or Audit)");
                    }
                }
                if (actions.contains(ValidationAction.Deny) && actions.contains(ValidationAction.Warn)) {
                    errors.add(at + ": Deny and Warn may not be used together: the failure would be reported twice");
                }
            }
            return errors.size() > before ? null : new Binding(spec, List.copyOf(actions));
        }
    }

    public String name() {
        return spec.name();
    }

    /** Parses and validates a policy document; null (with errors added) when it is invalid. */
    public static ValidatingPolicyDefinition parse(ConfigFiles.Document doc, List<String> errors) {
        int before = errors.size();
        PolicySpec spec = PolicySpec.parse(doc, errors);
        String at = doc.describe() + ": spec";
        JsonNode specNode = doc.object().path("spec");
        List<Validation> validations = new ArrayList<>();
        JsonNode vs = specNode.path("validations");
        for (int i = 0; i < vs.size(); i++) {
            JsonNode v = vs.get(i);
            String here = at + ".validations[" + i + "]";
            String expression = PolicySpec.requiredText(v, "expression", here, errors);
            String message = v.path("message").asText("");
            if (message.contains("\n")) {
                errors.add(here + ".message: must not contain line breaks");
            }
            String reason = v.path("reason").asText("");
            if (!reason.isEmpty() && !REASONS.contains(reason)) {
                errors.add(here + ".reason: must be one of " + REASONS + ", got '" + reason + "'");
            }
            validations.add(new Validation(expression, message, v.path("messageExpression").asText(""), reason));
        }
        List<AuditAnnotation> annotations = new ArrayList<>();
        JsonNode as = specNode.path("auditAnnotations");
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < as.size(); i++) {
            JsonNode a = as.get(i);
            String here = at + ".auditAnnotations[" + i + "]";
            String key = PolicySpec.requiredText(a, "key", here, errors);
            if (!key.isEmpty() && (key.length() > 63 || !NAME_PART.matcher(key).matches())) {
                errors.add(here + ".key: '" + key + "' must be a qualified name part of at most 63 characters");
            } else if (!key.isEmpty() && !keys.add(key)) {
                errors.add(here + ".key: duplicate key '" + key + "'");
            } else if (!key.isEmpty() && !AuditKeys.fits(doc.name(), key)) {
                errors.add(here + ".key: '" + AuditKeys.key(doc.name(), key) + "' (policy name and key) is longer "
                        + "than the 63 characters a webhook audit annotation key may have; shorten the policy name or"
                        + " the key");
            }
            annotations.add(new AuditAnnotation(key, PolicySpec.requiredText(a, "valueExpression", here, errors)));
        }
        if (validations.isEmpty() && annotations.isEmpty()) {
            errors.add(at + ": validations and auditAnnotations may not both be empty");
        }
        return spec == null || errors.size() > before ? null
                : new ValidatingPolicyDefinition(spec, List.copyOf(validations), List.copyOf(annotations));
    }

    /**
     * Audit annotation keys. The API server records a policy's annotation as {@code <policy name>/<key>}; a webhook
     * can only return a key without '/', which the API server prefixes with the webhook's name. Tollgate joins the
     * policy name and the key with '.', so the recorded key is {@code <webhook name>/<policy name>.<key>}.
     */
    public static final class AuditKeys {

        /** The annotation that lists failed validations of bindings with the Audit action. */
        public static final String VALIDATION_FAILURE = "validation_failure";

        private AuditKeys() {
        }

        public static String key(String policy, String key) {
            return policy + "." + key;
        }

        static boolean fits(String policy, String key) {
            String k = key(policy, key);
            return k.length() <= 63 && NAME_PART.matcher(k).matches();
        }
    }
}
