package dev.tollgate.cel.admission;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cel.common.types.CelType;
import dev.tollgate.admission.GroupVersionKind;
import dev.tollgate.cel.CelCompileException;
import dev.tollgate.cel.DeclaredTypes;
import dev.tollgate.cel.ExpressionSet;
import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.NamedExpression;
import dev.tollgate.cel.ResultType;
import dev.tollgate.cel.SchemaTypes;

/**
 * Checks every CEL expression of a ValidatingAdmissionPolicy or MutatingAdmissionPolicy before any request, as the
 * API server does when the policy is created and afterwards:
 *
 * <ul>
 * <li>{@link Severity#ERROR}: the expression does not compile in the admission environment ({@code object} dyn),
 * or its result has the wrong type: the API server refuses such a policy (pkg/apis/admissionregistration/validation
 * compiles each expression with admission/plugin/cel/compile.go; the message is its field error,
 * {@code spec.validations[0].expression: Invalid value: "...": compilation failed: ERROR: <input>:1:5: ...}).</li>
 * <li>{@link Severity#WARNING}: the expression compiles, but not with {@code object}/{@code oldObject} (and
 * {@code params}) typed from the OpenAPI schema of a kind the policy matches: a misspelled field
 * ({@code object.spec.containres}: "undefined field 'containres'"), an operator applied to the wrong types. The API
 * server only reports these, in {@code status.typeChecking.expressionWarnings} (admission/plugin/policy/validating/
 * typechecking.go: the kinds come from {@code matchConstraints.resourceRules} without wildcards, at most 10, each
 * checked against its schema, {@code common.SchemaDeclType}; the warning is {@code <group>/<version>,
 * Kind=<kind>: <issues>} per kind).</li>
 * </ul>
 *
 * <p>Upstream type-checks the validations and their messageExpressions; this checks the variables, matchConditions
 * and auditAnnotations the same way, and a MutatingAdmissionPolicy's mutations with their {@code Object{...}} and
 * {@code JSONPatch{...}} values as maps ({@link StructLiterals}: the expressions inside are checked, positions as
 * written; a value's type is not checked against the field it is given to).
 */
public final class PolicyTypeChecker {

    /** typechecking.go maxTypesToCheck. */
    static final int MAX_TYPES_TO_CHECK = 10;

    public enum Severity { ERROR, WARNING }

    /**
     * One problem: {@code source} names the document ({@code file#2}), {@code policy} the policy, {@code fieldRef}
     * the expression ({@code spec.validations[0].expression}); {@code message} is the API server's.
     */
    public record Finding(Severity severity, String source, String policy, String fieldRef, String message) {
        @Override
        public String toString() {
            return severity + " " + source + " " + policy + " " + fieldRef + ": " + message;
        }
    }

    /**
     * One expression; {@code literals} is its struct-literal rewrite (a mutation's), else null; {@code rewriteError}
     * why a mutation could not be rewritten (a literal of an unknown type, a JSONPatch field that does not exist).
     */
    private record Expr(String fieldRef, String source, ResultType type, StructLiterals.Rewritten literals,
            String rewriteError) {

        Expr(String fieldRef, String source, ResultType type) {
            this(fieldRef, source, type, null, null);
        }

        /** The compiler's details as they read on the expression as written. */
        String details(CelCompileException e) {
            return literals == null ? e.details() : literals.remap(e.details());
        }

        /** compile.go's text for the error, positions as written. */
        String compilationError(CelCompileException e) {
            return literals == null ? e.compilationError() : e.compilationError(literals::remap);
        }

        String written() {
            return literals == null ? source : literals.original();
        }
    }

    /**
     * A policy the API server would refuse (an {@link Severity#ERROR} finding), found when a function starts: the
     * message is one line per {@link #line} of each error, joined by {@code "; "}.
     */
    public static final class RefusedPolicyException extends IllegalArgumentException {
        private final transient List<Finding> errors;

        RefusedPolicyException(List<Finding> errors) {
            super(String.join("; ", errors.stream().map(PolicyTypeChecker::line).toList()));
            this.errors = List.copyOf(errors);
        }

        public List<Finding> errors() {
            return errors;
        }
    }

    /**
     * What a function does with its configuration when it starts: every policy among {@code documents} checked
     * against the built-in kinds' schemas ({@link KubernetesSchemas}) and the CustomResourceDefinitions among the
     * documents. Returns the warnings, each as one {@link #line}.
     *
     * @throws RefusedPolicyException when the API server would refuse a policy
     */
    public static List<String> checkAtStartup(KubeCel cel, List<ConfigFiles.Document> documents) {
        List<Finding> findings = new PolicyTypeChecker(cel, KubernetesSchemas.with(documents)).check(documents);
        List<Finding> errors = findings.stream().filter(f -> f.severity() == Severity.ERROR).toList();
        if (!errors.isEmpty()) {
            throw new RefusedPolicyException(errors);
        }
        return findings.stream().map(PolicyTypeChecker::line).toList();
    }

    /**
     * {@link #checkAtStartup} for a CEL function: the type-checking warnings of its configuration, each on one line.
     *
     * @param compileErrors what the function's own compilation of the same policies refused
     * @throws IllegalArgumentException one line, {@code <function>: the API server would refuse this configuration:
     *                                  ...}, for an expression the API server would refuse, including one that only
     *                                  the function's own compilation catches
     */
    public static List<String> checkFunctionConfiguration(String function, KubeCel cel,
            List<ConfigFiles.Document> documents, List<String> compileErrors) {
        String refused = function + ": the API server would refuse this configuration: ";
        List<String> warnings;
        try {
            warnings = checkAtStartup(cel, documents);
        } catch (RefusedPolicyException e) {
            throw new IllegalArgumentException(refused + e.getMessage(), e);
        }
        if (!compileErrors.isEmpty()) {
            throw new IllegalArgumentException(refused + String.join("; ", compileErrors));
        }
        List<String> all = new ArrayList<>(BakedPolicies.warnings(function));
        all.addAll(warnings);
        return all;
    }

    /**
     * A finding on one line: {@code <Kind 'name' (file#n)>: <field>: <the API server's message>}, the message's
     * lines (one result per kind for a warning) joined by {@code "; "} and cel-go's source excerpts and carets
     * (the {@code " | "} lines) left out, as the position is in the message.
     */
    public static String line(Finding f) {
        List<String> lines = f.message().strip().lines().filter(l -> !l.startsWith(" |") && !l.isBlank()).toList();
        return f.source() + ": " + f.fieldRef() + ": " + String.join("; ", lines);
    }

    private final KubeCel cel;
    private final SchemaResolver schemas;
    /**
     * The typed environments of policies without variables, by kind, undeclared variables and paramKind: they are
     * the same for every such policy, and building one (a CEL environment with every library declared) costs more
     * than checking a policy's expressions in it, so a start with many policies builds each once, not per policy.
     */
    private final Map<String, ExpressionSet> typedWithoutVariables = new java.util.HashMap<>();

    public PolicyTypeChecker(KubeCel cel, SchemaResolver schemas) {
        this.cel = cel;
        this.schemas = schemas;
    }

    /** Checks every ValidatingAdmissionPolicy and MutatingAdmissionPolicy among the documents; others are skipped. */
    public List<Finding> check(List<ConfigFiles.Document> documents) {
        List<Finding> all = new ArrayList<>();
        for (ConfigFiles.Document d : documents) {
            String kind = d.kind();
            // A baked policy was checked when the function was built (BakedPolicies); its warnings were kept.
            if (d.apiVersion().startsWith("admissionregistration.k8s.io/") && !BakedPolicies.isBaked(d)
                    && (kind.equals("ValidatingAdmissionPolicy") || kind.equals("MutatingAdmissionPolicy"))) {
                all.addAll(check(d.object(), d.describe()));
            }
        }
        return all;
    }

    /** Checks one policy object. */
    public List<Finding> check(JsonNode policy, String source) {
        String name = policy.path("metadata").path("name").asText();
        JsonNode spec = policy.path("spec");
        List<Finding> findings = new ArrayList<>();

        // 1. the API server's own compilation: errors refuse the policy
        List<NamedExpression> variables = new ArrayList<>();
        List<String> variableRefs = new ArrayList<>();
        JsonNode vars = spec.path("variables");
        for (int i = 0; i < vars.size(); i++) {
            variables.add(new NamedExpression(vars.get(i).path("name").asText(),
                    vars.get(i).path("expression").asText()));
            variableRefs.add("spec.variables[" + i + "].expression");
        }
        List<NamedExpression> usable = new ArrayList<>(variables);
        // No paramKind, no params: the API server's validation compiles with HasParams: paramKind != nil
        // (pkg/apis/admissionregistration/validation/validation.go), so an expression using params is refused.
        Set<String> undeclared = spec.path("paramKind").isObject() ? Set.of() : Set.of("params");
        ExpressionSet set = compileVariables(usable, variableRefs, DeclaredTypes.none(), undeclared, (ref, e) ->
                findings.add(new Finding(Severity.ERROR, source, name, ref,
                        invalid(e.expression(), e.compilationError()))));
        List<Expr> expressions = expressions(policy);
        List<Expr> compiled = new ArrayList<>();
        for (Expr x : expressions) {
            if (x.rewriteError() != null) {
                findings.add(new Finding(Severity.ERROR, source, name, x.fieldRef(), invalid(x.written(),
                        "compilation failed: " + x.rewriteError())));
                continue;
            }
            try {
                set.compile(x.source(), x.type());
                compiled.add(x);
            } catch (CelCompileException e) {
                findings.add(new Finding(Severity.ERROR, source, name, x.fieldRef(), invalid(x.written(),
                        x.compilationError(e))));
            }
        }

        // 2. type checking against the schemas of the matched kinds: warnings
        Map<String, StringBuilder> warnings = new LinkedHashMap<>();
        Optional<CelType> params = paramsType(spec.path("paramKind"));
        for (GroupVersionKind gvk : typesToCheck(spec.path("matchConstraints"))) {
            Optional<SchemaResolver.Schema> schema = schemas.schema(gvk);
            if (schema.isEmpty()) {
                continue;   // as upstream: a kind without a schema is not checked
            }
            String key = usable.isEmpty() ? gvk + "|" + undeclared + "|" + spec.path("paramKind") : null;
            ExpressionSet typed = key == null ? null : typedWithoutVariables.get(key);
            if (typed == null) {
                CelType object = SchemaTypes.ofResource(schema.get().node(), gvk.kind(), schema.get().refs());
                DeclaredTypes types = DeclaredTypes.none().with("object", object).with("oldObject", object);
                if (params.isPresent()) {
                    types = types.with("params", params.get());
                }
                List<NamedExpression> typedVariables = new ArrayList<>(usable);
                typed = compileVariables(typedVariables, variableRefs, types, undeclared,
                        (ref, e) -> warn(warnings, ref, gvk, e.details()));
                if (key != null) {
                    typedWithoutVariables.put(key, typed);
                }
            }
            for (Expr x : compiled) {
                try {
                    typed.compile(x.source(), ResultType.ANY);   // typechecking.go: the result type is not enforced
                } catch (CelCompileException e) {
                    warn(warnings, x.fieldRef(), gvk, x.details(e));
                }
            }
        }
        warnings.forEach((ref, text) -> findings.add(new Finding(Severity.WARNING, source, name, ref,
                text.toString())));
        return findings;
    }

    /**
     * Compiles the variables in order; one that fails is reported and replaced by a {@code dyn} one (the API
     * server's composition declares a failed variable as dyn), so the rest are still checked.
     */
    private ExpressionSet compileVariables(List<NamedExpression> variables, List<String> refs, DeclaredTypes types,
            Set<String> undeclared, java.util.function.BiConsumer<String, CelCompileException> report) {
        while (true) {
            try {
                return cel.compileVariables(variables, types, undeclared);
            } catch (CelCompileException e) {
                int failed = failedVariable(variables, types, undeclared, e);
                report.accept(refs.get(failed), e);
                variables.set(failed, new NamedExpression(variables.get(failed).name(), "dyn(null)"));
            }
        }
    }

    private int failedVariable(List<NamedExpression> variables, DeclaredTypes types, Set<String> undeclared,
            CelCompileException e) {
        for (int i = 0; i < variables.size(); i++) {
            if (variables.get(i).expression().equals(e.expression())) {
                try {
                    cel.compileVariables(variables.subList(0, i + 1), types, undeclared);
                } catch (CelCompileException inner) {
                    return i;
                }
            }
        }
        throw new IllegalStateException("no variable failed: " + e.getMessage());
    }

    private static void warn(Map<String, StringBuilder> warnings, String ref, GroupVersionKind gvk,
            String details) {
        StringBuilder sb = warnings.computeIfAbsent(ref, r -> new StringBuilder());
        if (sb.length() > 0) {
            sb.append('\n');    // TypeCheckingResults.String(): one result per kind, joined by newlines
        }
        // TypeCheckingResult.String(): "%v: %s\n" of the GroupVersionKind and the issues
        sb.append(gvk.group()).append('/').append(gvk.version()).append(", Kind=").append(gvk.kind()).append(": ")
                .append(details).append('\n');
    }

    /**
     * The field error the API server refuses the policy with (apis/admissionregistration/validation
     * convertCELErrorToValidationError: field.Invalid of the expression, with compile.go's error as the detail).
     */
    private static String invalid(String expression, String compileError) {
        return "Invalid value: " + goQuote(expression) + ": " + compileError;
    }

    /** Go's %q for the expression (field.Error's ErrorBody). */
    static String goQuote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                default -> sb.append(c);
            }
        }
        return sb.append('"').toString();
    }

    private static List<Expr> expressions(JsonNode policy) {
        JsonNode spec = policy.path("spec");
        List<Expr> out = new ArrayList<>();
        JsonNode conditions = spec.path("matchConditions");
        for (int i = 0; i < conditions.size(); i++) {
            out.add(new Expr("spec.matchConditions[" + i + "].expression",
                    conditions.get(i).path("expression").asText(), ResultType.BOOL));
        }
        JsonNode validations = spec.path("validations");
        for (int i = 0; i < validations.size(); i++) {
            JsonNode v = validations.get(i);
            out.add(new Expr("spec.validations[" + i + "].expression", v.path("expression").asText(),
                    ResultType.BOOL));
            if (!v.path("messageExpression").asText().isEmpty()) {
                out.add(new Expr("spec.validations[" + i + "].messageExpression",
                        v.path("messageExpression").asText(), ResultType.STRING));
            }
        }
        JsonNode audit = spec.path("auditAnnotations");
        for (int i = 0; i < audit.size(); i++) {
            out.add(new Expr("spec.auditAnnotations[" + i + "].valueExpression",
                    audit.get(i).path("valueExpression").asText(), ResultType.STRING_OR_NULL));
        }
        JsonNode mutations = spec.path("mutations");
        for (int i = 0; i < mutations.size(); i++) {
            JsonNode m = mutations.get(i);
            String field = m.has("jsonPatch") ? "jsonPatch" : "applyConfiguration";
            String expression = m.path(field).path("expression").asText();
            try {
                StructLiterals.Rewritten r = StructLiterals.rewrite(expression);
                out.add(new Expr("spec.mutations[" + i + "]." + field + ".expression", r.text(), ResultType.ANY,
                        r, null));
            } catch (StructLiterals.RewriteException e) {
                out.add(new Expr("spec.mutations[" + i + "]." + field + ".expression", expression, ResultType.ANY,
                        null, e.getMessage()));
            }
        }
        return out;
    }

    private Optional<CelType> paramsType(JsonNode paramKind) {
        if (!paramKind.isObject()) {
            return Optional.empty();
        }
        String apiVersion = paramKind.path("apiVersion").asText();
        int slash = apiVersion.indexOf('/');
        GroupVersionKind gvk = GroupVersionKind.of(slash < 0 ? "" : apiVersion.substring(0, slash),
                apiVersion.substring(slash + 1), paramKind.path("kind").asText());
        return schemas.schema(gvk).map(s -> SchemaTypes.ofResource(s.node(), gvk.kind(), s.refs()));
    }

    /**
     * typechecking.go typesToCheck: every group x version x resource of matchConstraints.resourceRules, rules with a
     * wildcard group or version skipped, wildcard and subresource names skipped, sorted; the kinds they map to,
     * at most {@link #MAX_TYPES_TO_CHECK}, sorted by group, version, kind.
     */
    List<GroupVersionKind> typesToCheck(JsonNode matchConstraints) {
        TreeSet<GroupVersionKind> gvks = new TreeSet<>(java.util.Comparator.comparing(GroupVersionKind::group)
                .thenComparing(GroupVersionKind::version).thenComparing(GroupVersionKind::kind));
        int count = 0;
        for (JsonNode rule : matchConstraints.path("resourceRules")) {
            List<String> groups = names(rule.path("apiGroups"), true);
            List<String> versions = names(rule.path("apiVersions"), true);
            List<String> resources = new ArrayList<>();
            for (JsonNode r : rule.path("resources")) {
                if (!r.asText().contains("*") && !r.asText().contains("/")) {
                    resources.add(r.asText());
                }
            }
            if (groups == null || versions == null || groups.isEmpty() || versions.isEmpty() || resources.isEmpty()) {
                continue;
            }
            java.util.Collections.sort(resources);
            for (String g : groups) {
                for (String v : versions) {
                    for (String r : resources) {
                        for (GroupVersionKind gvk : schemas.kindsFor(g, v, r)) {
                            gvks.add(gvk);
                            if (++count == MAX_TYPES_TO_CHECK) {
                                return new ArrayList<>(gvks);
                            }
                        }
                    }
                }
            }
        }
        return new ArrayList<>(gvks);
    }

    /** The sorted names, or null when one is a wildcard (extractGroups / extractVersions give up). */
    private static List<String> names(JsonNode list, boolean giveUpOnWildcard) {
        List<String> out = new ArrayList<>();
        for (JsonNode n : list) {
            if (giveUpOnWildcard && n.asText().contains("*")) {
                return null;
            }
            out.add(n.asText());
        }
        java.util.Collections.sort(out);
        return out;
    }
}
