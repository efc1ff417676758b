package dev.tollgate.gatekeeper;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.match.LabelSyntax;
import dev.tollgate.cel.admission.ConfigFiles;

/**
 * A {@code constraints.gatekeeper.sh} Constraint: an instance of a template's kind with its parameters, its match
 * and its enforcement action.
 *
 * @param object  the whole Constraint: the CEL variable {@code params}, as Gatekeeper's k8scel driver binds it
 * @param actions what a violation does at the admission webhook, in Tollgate's terms
 */
public record Constraint(String kind, String name, ObjectNode object, ConstraintMatch match, List<Action> actions,
        String source) {

    public static final String GROUP = "constraints.gatekeeper.sh";
    /** Gatekeeper's admission webhook as an enforcement point of {@code scoped} actions (pkg/util/enforcement_action.go). */
    public static final String WEBHOOK_ENFORCEMENT_POINT = "validation.gatekeeper.sh";

    /**
     * enforcementAction mapped onto Tollgate's modes (gatekeeper pkg/webhook/policy.go getValidationMessages):
     * {@code deny} denies with {@code [name] message} (enforce), {@code warn} answers a warning of the same words
     * (warn), {@code dryrun} only records it (audit: the {@code would_deny} audit annotation).
     */
    public enum Action { DENY, WARN, DRYRUN }

    public Constraint {
        actions = List.copyOf(actions);
    }

    public static boolean isConstraint(ConfigFiles.Document d) {
        return d.apiVersion().startsWith(GROUP + "/");
    }

    /** {@code spec.parameters}, or null: the CEL variable {@code variables.params}. */
    public JsonNode parameters() {
        JsonNode p = object.path("spec").path("parameters");
        return p.isMissingNode() ? null : p;
    }

    /**
     * This Constraint with the defaults of its template's parameters schema filled in, as the API server fills in a
     * custom resource's defaults from its CRD's structural schema (Gatekeeper creates the constraint's CRD from the
     * template: frameworks constraint/pkg/schema): a property with a {@code default} that the parameters leave out
     * gets it, inside objects and array items too.
     */
    Constraint withDefaults(JsonNode parametersSchema) {
        if (parametersSchema == null || !hasDefaults(parametersSchema)) {
            return this;
        }
        ObjectNode copy = object.deepCopy();
        ObjectNode spec = copy.with("spec");
        JsonNode parameters = spec.path("parameters");
        if (!parameters.isObject()) {
            if (!parameters.isMissingNode()) {
                return this;
            }
            parameters = spec.putObject("parameters");
        }
        defaults(parametersSchema, parameters);
        if (parameters.isEmpty() && !object.path("spec").has("parameters")) {
            spec.remove("parameters");
        }
        return new Constraint(kind, name, copy, match, actions, source);
    }

    private static boolean hasDefaults(JsonNode schema) {
        return schema.toString().contains("\"default\"");
    }

    private static void defaults(JsonNode schema, JsonNode value) {
        if (value instanceof ObjectNode o) {
            for (var it = schema.path("properties").fields(); it.hasNext();) {
                var p = it.next();
                if (!o.has(p.getKey()) && p.getValue().has("default")) {
                    o.set(p.getKey(), p.getValue().get("default").deepCopy());
                }
                if (o.has(p.getKey())) {
                    defaults(p.getValue(), o.get(p.getKey()));
                }
            }
        } else if (value.isArray() && schema.has("items")) {
            value.forEach(item -> defaults(schema.get("items"), item));
        }
    }

    /** Reads a Constraint; problems are added to {@code errors}. */
    public static Constraint parse(ConfigFiles.Document doc, List<String> errors) {
        String at = doc.describe();
        int before = errors.size();
        if (!LabelSyntax.isDnsSubdomain(doc.name())) {
            errors.add(at + ": metadata.name '" + doc.name() + "' must be a lowercase DNS subdomain");
        }
        if (!doc.namespace().isEmpty()) {
            errors.add(at + ": metadata.namespace: Constraints are cluster-scoped");
        }
        JsonNode spec = doc.object().path("spec");
        ConstraintMatch match = ConstraintMatch.parse(spec.path("match"), at + ": spec.match", errors);
        List<Action> actions = actions(spec, at + ": spec", errors);
        return errors.size() > before ? null
                : new Constraint(doc.kind(), doc.name(), doc.object(), match, actions, doc.source());
    }

    private static List<Action> actions(JsonNode spec, String at, List<String> errors) {
        String action = spec.path("enforcementAction").asText("deny");
        if (!action.equals("scoped")) {
            Action a = action(action, at + ".enforcementAction", errors);
            return a == null ? List.of() : List.of(a);
        }
        // scoped: the actions whose enforcementPoints name the webhook (or every point, "*").
        List<Action> out = new ArrayList<>();
        JsonNode scoped = spec.path("scopedEnforcementActions");
        for (int i = 0; i < scoped.size(); i++) {
            boolean here = false;
            for (JsonNode point : scoped.get(i).path("enforcementPoints")) {
                String name = point.path("name").asText();
                here |= name.equals("*") || name.equals(WEBHOOK_ENFORCEMENT_POINT);
            }
            Action a = action(scoped.get(i).path("action").asText(), at + ".scopedEnforcementActions[" + i
                    + "].action", errors);
            if (here && a != null && !out.contains(a)) {
                out.add(a);
            }
        }
        if (scoped.isEmpty()) {
            errors.add(at + ".scopedEnforcementActions: required when enforcementAction is scoped");
        }
        return out;
    }

    private static Action action(String value, String at, List<String> errors) {
        return switch (value) {
            case "deny" -> Action.DENY;
            case "warn" -> Action.WARN;
            case "dryrun" -> Action.DRYRUN;
            default -> {
                errors.add(at + ": must be deny, warn, dryrun or scoped, got '" + value + "'");
                yield null;
            }
        };
    }
}
