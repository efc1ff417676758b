package dev.tollgate.cel.admission;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.admission.match.LabelSyntax;
import dev.tollgate.cel.NamedExpression;

/**
 * The fields every admission policy kind shares (ValidatingAdmissionPolicy, MutatingAdmissionPolicy): name,
 * paramKind, matchConstraints, matchConditions, variables and failurePolicy, parsed and validated with the API
 * server's rules. The kind-specific fields are read by the function that serves the kind.
 */
public record PolicySpec(String name, Params.Kind paramKind, MatchResources matchConstraints,
        List<NamedExpression> matchConditions, List<NamedExpression> variables, FailurePolicy failurePolicy) {

    public enum FailurePolicy { Fail, Ignore }

    public static final int MAX_MATCH_CONDITIONS = 64;

    private static final Pattern CEL_IDENTIFIER = Pattern.compile("[_a-zA-Z][_a-zA-Z0-9]*");
    // CEL reserved words cannot name a variable: variables.<name> would not parse.
    private static final Set<String> RESERVED = Set.of("true", "false", "null", "in", "as", "break", "const",
            "continue", "else", "for", "function", "if", "import", "let", "loop", "package", "namespace", "return",
            "var", "void", "while");

    public PolicySpec {
        matchConditions = List.copyOf(matchConditions);
        variables = List.copyOf(variables);
    }

    /**
     * Reads the shared fields of {@code object}; problems are added to {@code errors} as {@code <where>: <problem>}.
     *
     * @return the spec, or null when it is too broken to use (errors say why)
     */
    public static PolicySpec parse(ConfigFiles.Document doc, List<String> errors) {
        String at = doc.describe();
        String name = doc.name();
        if (!LabelSyntax.isDnsSubdomain(name)) {
            errors.add(at + ": metadata.name '" + name + "' must be a lowercase DNS subdomain");
        }
        JsonNode spec = doc.object().path("spec");
        if (!spec.isObject()) {
            errors.add(at + ": spec is required");
            return null;
        }
        Params.Kind paramKind = null;
        try {
            paramKind = Params.Kind.parse(spec.get("paramKind"), "spec.paramKind");
        } catch (IllegalArgumentException e) {
            errors.add(at + ": " + e.getMessage());
        }
        MatchResources match = null;
        try {
            match = MatchResources.parse(spec.get("matchConstraints"), "spec.matchConstraints", true);
        } catch (IllegalArgumentException e) {
            errors.add(at + ": " + e.getMessage());
        }
        List<NamedExpression> conditions = matchConditions(spec.get("matchConditions"), at + ": spec.matchConditions",
                errors);
        List<NamedExpression> variables = variables(spec.get("variables"), at + ": spec.variables", errors);
        FailurePolicy failurePolicy = FailurePolicy.Fail;
        JsonNode fp = spec.get("failurePolicy");
        if (fp != null && !fp.isNull()) {
            try {
                failurePolicy = FailurePolicy.valueOf(fp.asText());
            } catch (IllegalArgumentException e) {
                errors.add(at + ": spec.failurePolicy must be Fail or Ignore, got '" + fp.asText() + "'");
            }
        }
        if (match == null) {
            return null;
        }
        return new PolicySpec(name, paramKind, match, conditions, variables, failurePolicy);
    }

    /** matchConditions: at most 64, each with a unique qualified name and an expression. */
    public static List<NamedExpression> matchConditions(JsonNode node, String at, List<String> errors) {
        List<NamedExpression> out = named(node, at, errors);
        if (out.size() > MAX_MATCH_CONDITIONS) {
            errors.add(at + ": at most " + MAX_MATCH_CONDITIONS + " match conditions are allowed, got " + out.size());
        }
        for (int i = 0; i < out.size(); i++) {
            if (!LabelSyntax.isQualifiedName(out.get(i).name())) {
                errors.add(at + "[" + i + "].name: '" + out.get(i).name() + "' must be a qualified name");
            }
        }
        return out;
    }

    /** variables: unique names that are CEL identifiers (not reserved words), each with an expression. */
    public static List<NamedExpression> variables(JsonNode node, String at, List<String> errors) {
        List<NamedExpression> out = named(node, at, errors);
        for (int i = 0; i < out.size(); i++) {
            String n = out.get(i).name();
            if (!CEL_IDENTIFIER.matcher(n).matches() || RESERVED.contains(n.toLowerCase(Locale.ROOT))) {
                errors.add(at + "[" + i + "].name: '" + n + "' must be a CEL identifier and not a reserved word");
            }
        }
        return out;
    }

    private static List<NamedExpression> named(JsonNode node, String at, List<String> errors) {
        List<NamedExpression> out = new ArrayList<>();
        if (node == null || node.isNull()) {
            return out;
        }
        if (!node.isArray()) {
            errors.add(at + ": expected an array");
            return out;
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode e = node.get(i);
            String name = e.path("name").asText("");
            String expression = e.path("expression").asText("");
            if (name.isEmpty()) {
                errors.add(at + "[" + i + "].name: required");
            } else if (!names.add(name)) {
                errors.add(at + "[" + i + "].name: duplicate name '" + name + "'");
            }
            if (expression.isBlank()) {
                errors.add(at + "[" + i + "].expression: required");
            }
            out.add(new NamedExpression(name, expression));
        }
        return out;
    }

    /** Reads a required non-blank string field, adding an error when it is missing. */
    public static String requiredText(JsonNode parent, String field, String at, List<String> errors) {
        JsonNode n = parent.get(field);
        if (n == null || n.isNull() || !n.isTextual() || n.textValue().isBlank()) {
            errors.add(at + "." + field + ": required");
            return "";
        }
        return n.textValue();
    }
}
