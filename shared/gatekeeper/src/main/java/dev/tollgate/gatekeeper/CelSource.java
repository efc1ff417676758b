package dev.tollgate.gatekeeper;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.cel.NamedExpression;
import dev.tollgate.cel.admission.Params;
import dev.tollgate.cel.admission.PolicySpec.FailurePolicy;

/**
 * A template's {@code K8sNativeValidation} source: variables, matchConditions, validations and failurePolicy, as
 * Gatekeeper reads and checks them (gatekeeper pkg/drivers/k8scel/schema/schema.go: {@code Source}, its JSON field for
 * the conditions is {@code matchCondition}; {@code Validate}: no name with the reserved prefix
 * {@code gatekeeper_internal_}, no variable named {@code params} or {@code anyObject}; failurePolicy Fail or Ignore,
 * Fail when absent).
 *
 * <p>Tollgate's own library adds one field to a validation, {@code violationsExpression}: a list of strings, each one
 * violation. A Rego template reports one violation per offending item (container, port...), which one CEL validation
 * cannot; the library's policies use it where the Rego does. And a source field, {@code inventory}: the kinds
 * ({@code [{apiVersion, kind}]}) of the other cluster objects a referential policy reads as the CEL variable
 * {@code inventory} (Gatekeeper's {@code data.inventory}, see {@link Inventory}).
 *
 * @param validations   in order; each has an expression or a violationsExpression
 * @param failurePolicy what an evaluation error does
 */
public record CelSource(List<NamedExpression> variables, List<NamedExpression> matchConditions,
        List<Validation> validations, FailurePolicy failurePolicy, List<Params.Kind> inventory) {

    /** Gatekeeper binds these before a source's own variables (transform/cel_snippets.go AllVariablesV1Beta1). */
    public static final String OBJECT_VARIABLE = "anyObject";
    public static final String PARAMS_VARIABLE = "params";
    /** schema.go ReservedPrefix: no user-defined name may start with it. */
    public static final String RESERVED_PREFIX = "gatekeeper_internal_";

    private static final Pattern CEL_IDENTIFIER = Pattern.compile("[_a-zA-Z][_a-zA-Z0-9]*");

    /** One validation: a bool expression with message or messageExpression, or (library only) a violation list. */
    public record Validation(String expression, String message, String messageExpression,
            String violationsExpression) {

        public boolean listsViolations() {
            return !violationsExpression.isEmpty();
        }
    }

    public CelSource {
        variables = List.copyOf(variables);
        matchConditions = List.copyOf(matchConditions);
        validations = List.copyOf(validations);
        inventory = List.copyOf(inventory);
    }

    /**
     * Reads a source; each problem is added to {@code errors} as {@code <at>.<field>: <problem>}.
     *
     * @param allowViolationLists true for Tollgate's library, whose validations may use violationsExpression
     * @return the source, or null when it has problems
     */
    static CelSource parse(JsonNode source, String at, boolean allowViolationLists, List<String> errors) {
        int before = errors.size();
        if (!source.isObject()) {
            errors.add(at + ": must be an object");
            return null;
        }
        List<NamedExpression> variables = named(source.path("variables"), at + ".variables", errors);
        for (NamedExpression v : variables) {
            if (!CEL_IDENTIFIER.matcher(v.name()).matches()) {
                errors.add(at + ".variables: '" + v.name() + "' is not a CEL identifier");
            }
            if (v.name().equals(OBJECT_VARIABLE) || v.name().equals(PARAMS_VARIABLE)) {
                errors.add(at + ".variables: '" + v.name() + "' is a name Gatekeeper reserves for its own variable");
            }
        }
        List<NamedExpression> conditions = named(source.path("matchCondition"), at + ".matchCondition", errors);
        if (source.has("matchConditions")) {
            // Gatekeeper's field is singular; the plural (the VAP spelling) would be dropped silently by Gatekeeper.
            errors.add(at + ".matchConditions: unknown field; Gatekeeper's K8sNativeValidation calls it matchCondition");
        }
        List<Validation> validations = new ArrayList<>();
        JsonNode vs = source.path("validations");
        if (!vs.isMissingNode() && !vs.isArray()) {
            errors.add(at + ".validations: must be a list");
        }
        for (int i = 0; vs.isArray() && i < vs.size(); i++) {
            JsonNode v = vs.get(i);
            String here = at + ".validations[" + i + "]";
            String expression = v.path("expression").asText("");
            String violations = v.path("violationsExpression").asText("");
            if (!violations.isEmpty() && !allowViolationLists) {
                errors.add(here + ".violationsExpression: only Tollgate's library policies may use it");
            }
            if (expression.isBlank() == violations.isBlank()) {
                errors.add(here + (allowViolationLists ? ": needs exactly one of expression and violationsExpression"
                        : ".expression: required"));
            }
            validations.add(new Validation(expression, v.path("message").asText(""),
                    v.path("messageExpression").asText(""), violations));
        }
        FailurePolicy failurePolicy = FailurePolicy.Fail;
        JsonNode fp = source.path("failurePolicy");
        if (!fp.isMissingNode() && !fp.isNull()) {
            try {
                failurePolicy = FailurePolicy.valueOf(fp.asText());
            } catch (IllegalArgumentException e) {
                errors.add(at + ".failurePolicy: must be Fail or Ignore, got '" + fp.asText() + "'");
            }
        }
        List<Params.Kind> inventory = new ArrayList<>();
        JsonNode inv = source.path("inventory");
        if (!inv.isMissingNode() && !allowViolationLists) {
            errors.add(at + ".inventory: only Tollgate's library policies may use it");
        }
        for (int i = 0; i < inv.size(); i++) {
            try {
                inventory.add(Params.Kind.parse(inv.get(i), at + ".inventory[" + i + "]"));
            } catch (IllegalArgumentException e) {
                errors.add(e.getMessage());
            }
        }
        return errors.size() > before ? null
                : new CelSource(variables, conditions, validations, failurePolicy, inventory);
    }

    private static List<NamedExpression> named(JsonNode list, String at, List<String> errors) {
        List<NamedExpression> out = new ArrayList<>();
        if (list.isMissingNode() || list.isNull()) {
            return out;
        }
        if (!list.isArray()) {
            errors.add(at + ": must be a list");
            return out;
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String name = list.get(i).path("name").asText("");
            String expression = list.get(i).path("expression").asText("");
            if (name.isEmpty() || expression.isBlank()) {
                errors.add(at + "[" + i + "]: name and expression are required");
                continue;
            }
            if (name.startsWith(RESERVED_PREFIX)) {
                errors.add(at + "[" + i + "].name: '" + name + "' starts with the reserved prefix " + RESERVED_PREFIX);
            }
            if (!names.add(name)) {
                errors.add(at + "[" + i + "].name: duplicate name '" + name + "'");
            }
            out.add(new NamedExpression(name, expression));
        }
        return out;
    }
}
