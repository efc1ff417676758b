package dev.tollgate.admission.match;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A Kubernetes label selector (matchLabels and matchExpressions), with the semantics of metav1.LabelSelector:
 * all requirements must hold; an empty selector matches everything; {@code NotIn} and {@code DoesNotExist} match
 * objects that lack the label.
 */
public final class LabelSelector {

    public enum Operator { In, NotIn, Exists, DoesNotExist }

    public record Requirement(String key, Operator operator, Set<String> values) {

        public boolean matches(Map<String, String> labels) {
            String value = labels.get(key);
            return switch (operator) {
                case In -> value != null && values.contains(value);
                case NotIn -> value == null || !values.contains(value);
                case Exists -> labels.containsKey(key);
                case DoesNotExist -> !labels.containsKey(key);
            };
        }
    }

    private static final LabelSelector EVERYTHING = new LabelSelector(List.of());

    private final List<Requirement> requirements;

    private LabelSelector(List<Requirement> requirements) {
        this.requirements = List.copyOf(requirements);
    }

    /** The selector that matches every object (an empty or absent selector). */
    public static LabelSelector everything() {
        return EVERYTHING;
    }

    /**
     * Parses a selector from its JSON form. A null or missing node gives {@link #everything()}.
     *
     * @throws IllegalArgumentException naming the offending field when the selector is invalid
     */
    public static LabelSelector parse(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return EVERYTHING;
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("selector: expected an object");
        }
        for (var it = node.fieldNames(); it.hasNext();) {
            String field = it.next();
            if (!field.equals("matchLabels") && !field.equals("matchExpressions")) {
                throw new IllegalArgumentException("selector: unknown field '" + field + "'");
            }
        }
        List<Requirement> reqs = new ArrayList<>();
        JsonNode labels = node.path("matchLabels");
        if (!labels.isMissingNode() && !labels.isNull()) {
            if (!labels.isObject()) {
                throw new IllegalArgumentException("selector.matchLabels: expected an object");
            }
            for (var it = labels.fields(); it.hasNext();) {
                var e = it.next();
                if (!e.getValue().isTextual()) {
                    throw new IllegalArgumentException("selector.matchLabels." + e.getKey() + ": expected a string");
                }
                LabelSyntax.requireLabelKey(e.getKey(), "selector.matchLabels");
                LabelSyntax.requireLabelValue(e.getValue().textValue(), "selector.matchLabels." + e.getKey());
                reqs.add(new Requirement(e.getKey(), Operator.In, Set.of(e.getValue().textValue())));
            }
        }
        JsonNode exprs = node.path("matchExpressions");
        if (!exprs.isMissingNode() && !exprs.isNull()) {
            if (!exprs.isArray()) {
                throw new IllegalArgumentException("selector.matchExpressions: expected an array");
            }
            for (int i = 0; i < exprs.size(); i++) {
                reqs.add(requirement(exprs.get(i), "selector.matchExpressions[" + i + "]"));
            }
        }
        return reqs.isEmpty() ? EVERYTHING : new LabelSelector(reqs);
    }

    /** Builds a selector from matchLabels only. */
    public static LabelSelector ofLabels(Map<String, String> matchLabels) {
        List<Requirement> reqs = new ArrayList<>();
        matchLabels.forEach((k, v) -> reqs.add(new Requirement(k, Operator.In, Set.of(v))));
        return new LabelSelector(reqs);
    }

    public boolean matches(Map<String, String> labels) {
        for (Requirement r : requirements) {
            if (!r.matches(labels)) {
                return false;
            }
        }
        return true;
    }

    public boolean matchesEverything() {
        return requirements.isEmpty();
    }

    public List<Requirement> requirements() {
        return requirements;
    }

    private static Requirement requirement(JsonNode expr, String path) {
        if (!expr.isObject()) {
            throw new IllegalArgumentException(path + ": expected an object");
        }
        JsonNode keyNode = expr.path("key");
        if (!keyNode.isTextual() || keyNode.textValue().isEmpty()) {
            throw new IllegalArgumentException(path + ".key: required");
        }
        String key = keyNode.textValue();
        LabelSyntax.requireLabelKey(key, path + ".key");
        JsonNode opNode = expr.path("operator");
        Operator op;
        try {
            op = Operator.valueOf(opNode.asText(""));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ".operator: '" + opNode.asText("")
                    + "' is not a valid operator (In, NotIn, Exists, DoesNotExist)");
        }
        JsonNode valuesNode = expr.path("values");
        List<String> values = new ArrayList<>();
        if (!valuesNode.isMissingNode() && !valuesNode.isNull()) {
            if (!valuesNode.isArray()) {
                throw new IllegalArgumentException(path + ".values: expected an array");
            }
            for (JsonNode v : valuesNode) {
                if (!v.isTextual()) {
                    throw new IllegalArgumentException(path + ".values: expected strings");
                }
                LabelSyntax.requireLabelValue(v.textValue(), path + ".values");
                values.add(v.textValue());
            }
        }
        switch (op) {
            case In, NotIn -> {
                if (values.isEmpty()) {
                    throw new IllegalArgumentException(path + ".values: must be specified when operator is " + op);
                }
            }
            case Exists, DoesNotExist -> {
                if (!values.isEmpty()) {
                    throw new IllegalArgumentException(path + ".values: may not be specified when operator is "
                            + op);
                }
            }
        }
        return new Requirement(key, op, Set.copyOf(values));
    }

    @Override
    public String toString() {
        Map<String, Object> m = new LinkedHashMap<>();
        requirements.forEach(r -> m.put(r.key(), r.operator() + " " + r.values()));
        return "LabelSelector" + m;
    }
}
