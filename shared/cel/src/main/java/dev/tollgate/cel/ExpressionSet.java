package dev.tollgate.cel;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelIssue;
import dev.cel.common.CelMutableAst;
import dev.cel.common.CelSource;
import dev.cel.common.CelSourceLocation;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelMutableExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.navigation.CelNavigableMutableAst;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.tollgate.cel.internal.CelGoIssues;
import dev.tollgate.cel.internal.CelGoSemantics;
import dev.tollgate.cel.internal.CheckedCall;
import dev.tollgate.cel.internal.LiteralValidators;
import dev.tollgate.cel.internal.KubeLibrary;
import dev.tollgate.cel.internal.NullBranchHint;
import dev.tollgate.cel.internal.PropertyNames;

/**
 * Composition variables (possibly none) and everything compiled against them. Compile each expression once, at
 * startup; then, per request, {@link #newEvaluation} and evaluate. Thread-safe.
 */
public final class ExpressionSet {

    private final KubeCel env;
    private final List<NamedExpression> variables;
    final List<CompiledExpression> compiledVariables;
    private final Set<String> variableNames;
    /** Admission variables this set's expressions may not use (matchConditions have no params, for instance). */
    private final Set<String> unavailable;

    /** Static types of some variables (typed composition variables, schema types); the rest are dyn. */
    private final DeclaredTypes declared;
    /** env.cel with the declared types, built on first use; env.cel itself when nothing is declared. */
    private volatile dev.cel.bundle.Cel typedCel;
    /**
     * The start of this set's keys in {@link PrecompiledExpressions}: everything a check in it depends on but the
     * expression and its result type; null when schema types are declared (the type check's sets, never precompiled).
     */
    private final String precompiledKey;

    ExpressionSet(KubeCel env, List<NamedExpression> variables, List<CompiledExpression> compiledVariables) {
        this(env, variables, compiledVariables, Set.of(), DeclaredTypes.none());
    }

    ExpressionSet(KubeCel env, List<NamedExpression> variables, List<CompiledExpression> compiledVariables,
            Set<String> unavailable) {
        this(env, variables, compiledVariables, unavailable, DeclaredTypes.none());
    }

    /**
     * The compile error of each variable that failed to compile ({@link KubeCel#compileVariablesKeepingErrors}), by
     * index; empty when every variable compiled. A failed variable's {@code compiledVariables} entry is null.
     */
    final Map<Integer, CelCompileException> variableCompileErrors;

    ExpressionSet(KubeCel env, List<NamedExpression> variables, List<CompiledExpression> compiledVariables,
            Set<String> unavailable, DeclaredTypes declared) {
        this(env, variables, compiledVariables, unavailable, declared, Map.of());
    }

    ExpressionSet(KubeCel env, List<NamedExpression> variables, List<CompiledExpression> compiledVariables,
            Set<String> unavailable, DeclaredTypes declared, Map<Integer, CelCompileException> variableCompileErrors) {
        this.variableCompileErrors = Map.copyOf(variableCompileErrors);
        this.env = env;
        this.declared = withVariableTypes(env, env.baseTypes.and(declared), variables, compiledVariables);
        this.unavailable = unavailable;
        this.variables = variables;
        this.compiledVariables = compiledVariables;
        this.variableNames = new HashSet<>();
        variables.forEach(v -> variableNames.add(v.name()));
        this.precompiledKey = declared.isEmpty() ? precompiledKey(env, variables, unavailable, variableCompileErrors)
                : null;
    }

    /**
     * The environment (admission or custom variables, extras), the admission variables left out, and the
     * composition variables with their expressions (whose checked types are the {@code variables} type), in order.
     */
    private static String precompiledKey(KubeCel env, List<NamedExpression> variables, Set<String> unavailable,
            Map<Integer, CelCompileException> failed) {
        StringBuilder k = new StringBuilder(env.admissionScope ? "admission" : "custom" + env.customVariables)
                .append(env.admissionExtras).append(new java.util.TreeSet<>(unavailable));
        for (int i = 0; i < variables.size(); i++) {
            k.append('\n').append(variables.get(i).name()).append(failed.containsKey(i) ? "!=" : "=")
                    .append(variables.get(i).expression());
        }
        return k.append('\n').toString();
    }

    /**
     * {@code variables} as the API server's composition environment declares it (admission/plugin/cel/composition.go:
     * an object type {@code kubernetes.variables} whose fields have the types of the variables' expressions), so
     * that {@code variables.flag} is a {@code bool} where its expression is.
     */
    private static DeclaredTypes withVariableTypes(KubeCel env, DeclaredTypes declared,
            List<NamedExpression> variables, List<CompiledExpression> compiled) {
        if (!env.admissionScope || variables.isEmpty()) {
            return declared;
        }
        Map<String, dev.cel.common.types.CelType> fields = new java.util.LinkedHashMap<>();
        for (int i = 0; i < variables.size(); i++) {
            // composition.go: a variable that failed to compile is declared dyn (no output type)
            fields.put(variables.get(i).name(), compiled.get(i) == null ? SimpleType.DYN : compiled.get(i).checkedType);
        }
        return declared.with("variables", dev.cel.common.types.StructType.create("kubernetes.variables",
                com.google.common.collect.ImmutableSet.copyOf(fields.keySet()),
                name -> Optional.ofNullable(fields.get(name))));
    }

    /** The environment expressions are checked and planned in. */
    dev.cel.bundle.Cel cel() {
        if (declared.equals(env.baseTypes)) {
            return env.cel;
        }
        dev.cel.bundle.Cel c = typedCel;
        if (c == null) {
            c = env.buildCel(declared);
            typedCel = c;
        }
        return c;
    }

    /** The variables that failed to compile, by name, in order (see {@link KubeCel#compileVariablesKeepingErrors}). */
    public Map<String, CelCompileException> variableCompileErrors() {
        Map<String, CelCompileException> out = new java.util.LinkedHashMap<>();
        for (int i = 0; i < variables.size(); i++) {
            if (variableCompileErrors.containsKey(i)) {
                out.put(variables.get(i).name(), variableCompileErrors.get(i));
            }
        }
        return out;
    }

    /** The composition variables, in order. */
    public List<NamedExpression> variables() {
        return variables;
    }

    public KubeCel environment() {
        return env;
    }

    /** A fresh per-request evaluation: variables are evaluated lazily, at most once, and share one cost budget. */
    public Evaluation newEvaluation(AdmissionInput input) {
        if (!env.admissionScope) {
            throw new IllegalStateException("this environment declares custom variables " + env.customVariables
                    + "; evaluate with newEvaluation(Map)");
        }
        return new Evaluation(this, input, null);
    }

    /** A fresh evaluation for an environment with custom variables; values may be JSON trees or CEL values. */
    public Evaluation newEvaluation(Map<String, ?> bindings) {
        if (env.admissionScope) {
            throw new IllegalStateException("this environment declares the admission variables; evaluate with"
                    + " newEvaluation(AdmissionInput)");
        }
        return new Evaluation(this, null, bindings);
    }

    /**
     * Parses, checks and plans an expression. It may use the admission variables, {@code variables.<name>} for
     * this set's variables, and all the libraries. Property names may be escaped as Kubernetes defines it
     * ({@code object.metadata.x__dash__y} reads key {@code x-y}).
     *
     * @throws CelCompileException with the expression and each error's position
     */
    public CompiledExpression compile(String expression, ResultType type) throws CelCompileException {
        if (expression == null || expression.isBlank()) {
            throw new CelCompileException(String.valueOf(expression),
                    List.of(new CelCompileException.Issue(0, 0, "expression is empty")), "expression is empty");
        }
        String key = precompiledKey == null ? null : precompiledKey + type + '\n' + expression;
        CelAbstractSyntaxTree precompiled = key == null ? null : PrecompiledExpressions.lookup(key);
        if (precompiled != null) {
            try {
                // Checked when the function was built: planning needs only the base environment's functions, not
                // the declared types, so the typed environment (costly to build) is not built for it.
                return new CompiledExpression(this, expression, type, precompiled.getResultType(),
                        env.cel.createProgram(precompiled));
            } catch (CelEvaluationException e) {
                throw new CelCompileException(expression, List.of(new CelCompileException.Issue(0, 0,
                        e.getMessage())), "program instantiation failed: " + e.getMessage());
            }
        }
        try {
            CelValidationResult parsed = env.cel.parse(expression);
            if (parsed.hasError()) {
                throw compileError(expression, parsed.getSource(), CelGoIssues.parseErrors(parsed.getErrors()));
            }
            CelAbstractSyntaxTree ast = unescapePropertyNames(parsed.getAst());
            dev.cel.bundle.Cel cel = cel();
            CelValidationResult checked = cel.check(ast);
            if (checked.hasError()) {
                throw compileError(expression, checked.getSource(),
                        NullBranchHint.explain(CelGoIssues.checkErrors(checked.getErrors()), type));
            }
            CelAbstractSyntaxTree checkedAst = checked.getAst();
            CelAbstractSyntaxTree withOptionalSelects = selectInsideOptionals(ast, checkedAst);
            if (withOptionalSelects != ast) {
                checked = cel.check(withOptionalSelects);
                if (checked.hasError()) {
                    throw compileError(expression, checked.getSource(), CelGoIssues.checkErrors(checked.getErrors()));
                }
                checkedAst = checked.getAst();
            }
            List<CelIssue> issues = validate(checkedAst, type);
            if (!issues.isEmpty()) {
                throw compileError(expression, checkedAst.getSource(), issues);
            }
            String wrongType = ResultTypes.compileTimeError(checkedAst.getResultType(), type,
                    env.admissionScope);
            if (wrongType != null) {
                throw new CelCompileException(expression, List.of(new CelCompileException.Issue(0, 0, wrongType)),
                        wrongType);
            }
            String programError = programError(checkedAst);
            if (programError != null) {
                // Kubernetes admission/plugin/cel/compile.go: "program instantiation failed: " + err.Error()
                throw new CelCompileException(expression, List.of(new CelCompileException.Issue(0, 0, programError)),
                        "program instantiation failed: " + programError);
            }
            CompiledExpression compiled = new CompiledExpression(this, expression, type, checkedAst.getResultType(),
                    cel.createProgram(checkedAst));
            if (key != null) {
                PrecompiledExpressions.compiled(key, checkedAst);
            }
            return compiled;
        } catch (CelValidationException e) {
            throw compileError(expression, e.getSource(), CelGoIssues.checkErrors(e.getErrors()));
        } catch (CelEvaluationException e) {
            throw new CelCompileException(expression, List.of(new CelCompileException.Issue(0, 0, e.getMessage())),
                    "program instantiation failed: " + e.getMessage());
        }
    }

    /** Field selections use Kubernetes' escaped property names; the map key is the unescaped name. */
    private static CelAbstractSyntaxTree unescapePropertyNames(CelAbstractSyntaxTree ast) {
        CelMutableAst mutable = CelMutableAst.fromCelAst(ast);
        boolean[] changed = {false};
        CelNavigableMutableAst.fromAst(mutable).getRoot().allNodes().forEach(node -> {
            CelMutableExpr e = node.expr();
            if (e.getKind() == CelExpr.ExprKind.Kind.SELECT) {
                String field = e.select().field();
                String unescaped = PropertyNames.unescape(field);
                if (!unescaped.equals(field)) {
                    e.select().setField(unescaped);
                    changed[0] = true;
                }
            }
        });
        return changed[0] ? mutable.toParsedAst() : ast;
    }

    /**
     * cel-java's {@code x.?f} selects only in maps; cel-go's also selects inside an optional {@code x} (none stays
     * none), statically optional or dyn (cel-go interpreter/attributes.go). Those selections are rewritten to
     * {@link CelGoSemantics}' functions, which do that; selections on typed maps stay as they are.
     */
    private static CelAbstractSyntaxTree selectInsideOptionals(CelAbstractSyntaxTree parsed,
            CelAbstractSyntaxTree checked) {
        java.util.Map<Long, String> rewrites = new java.util.HashMap<>();
        CelNavigableAst.fromAst(checked).getRoot().allNodes().forEach(node -> {
            CelExpr e = node.expr();
            if (e.getKind() == CelExpr.ExprKind.Kind.CALL && e.call().function().equals("_?._")
                    && e.call().args().size() == 2) {
                CelType operand = checked.getType(e.call().args().get(0).id()).orElse(SimpleType.DYN);
                if (operand instanceof dev.cel.common.types.OptionalType) {
                    rewrites.put(e.id(), CelGoSemantics.SELECT_IN_OPTIONAL);
                } else if (operand.kind() == CelKind.DYN) {
                    rewrites.put(e.id(), CelGoSemantics.SELECT_IN_DYN);
                }
            }
        });
        if (rewrites.isEmpty()) {
            return parsed;
        }
        CelMutableAst mutable = CelMutableAst.fromCelAst(parsed);
        CelNavigableMutableAst.fromAst(mutable).getRoot().allNodes().forEach(node -> {
            String function = rewrites.get(node.expr().id());
            if (function != null) {
                node.expr().call().setFunction(function);
            }
        });
        return mutable.toParsedAst();
    }

    private List<CelIssue> validate(CelAbstractSyntaxTree ast, ResultType type) {
        List<CelIssue> issues = new ArrayList<>();
        CelSource source = ast.getSource();
        Map<Long, CelExpr> byId = new java.util.HashMap<>();
        CelNavigableAst.fromAst(ast).getRoot().allNodes().forEach(n -> byId.put(n.expr().id(), n.expr()));
        List<CelIssue> validatorIssues = new ArrayList<>();
        LiteralValidators.validate(env.cel, ast,
                (id, message) -> validatorIssues.add(issue(source, literalOffset(source, byId.get(id)), message)));
        CelNavigableAst.fromAst(ast).getRoot().allNodes().forEach(node -> {
            CelExpr e = node.expr();
            if (e.getKind() == CelExpr.ExprKind.Kind.SELECT && env.admissionScope) {
                CelExpr operand = e.select().operand();
                if (operand.getKind() == CelExpr.ExprKind.Kind.IDENT && operand.ident().name().equals("variables")
                        && !isShadowed(node, "variables") && !variableNames.contains(e.select().field())) {
                    issues.add(issue(source, e.id(), "undefined field '" + e.select().field() + "' of variables"
                            + (variableNames.isEmpty() ? " (no variables are declared)"
                                    : " (declared before this expression: " + variables.stream()
                                            .map(NamedExpression::name).toList() + ")")));
                }
            }
            if (e.getKind() == CelExpr.ExprKind.Kind.IDENT && unavailable.contains(e.ident().name())
                    && !isShadowed(node, e.ident().name())) {
                // cel-go's wording for a variable the environment does not declare (checker/errors.go
                // undeclaredReference; the container is empty in the API server's environments)
                issues.add(issue(source, e.id(), "undeclared reference to '" + e.ident().name()
                        + "' (in container '')"));
            }
            if (e.getKind() == CelExpr.ExprKind.Kind.CALL) {
                CheckedCall call = new CheckedCall(e.call().function(), e.call().target(), e.call().args(),
                        x -> ast.getType(x.id()).orElse(SimpleType.DYN));
                List<String> errors = new ArrayList<>();
                for (KubeLibrary lib : env.libraries) {
                    lib.validate(call, errors);
                }
                errors.forEach(msg -> issues.add(issue(source, e.id(), msg)));
            }
        });
        // The checks above are cel-go checker errors; cel-go runs the validators only on an expression that
        // type-checked (cel/env.go Check), so their issues are reported only when there is no checker error.
        if (issues.isEmpty()) {
            issues.addAll(validatorIssues);
        }
        issues.sort(Comparator.comparing(CelIssue::getSourceLocation));
        return issues;
    }

    private static boolean isShadowed(CelNavigableExpr node, String name) {
        Optional<CelNavigableExpr> p = node.parent();
        while (p.isPresent()) {
            CelExpr e = p.get().expr();
            if (e.getKind() == CelExpr.ExprKind.Kind.COMPREHENSION
                    && (name.equals(e.comprehension().iterVar()) || name.equals(e.comprehension().iterVar2()))) {
                return true;
            }
            p = p.get().parent();
        }
        return false;
    }

    /** The first program-building error of the libraries, or null. */
    private String programError(CelAbstractSyntaxTree ast) {
        List<String> errors = new ArrayList<>();
        CelNavigableAst.fromAst(ast).getRoot().allNodes().forEach(node -> {
            CelExpr e = node.expr();
            if (e.getKind() == CelExpr.ExprKind.Kind.CALL) {
                CheckedCall call = new CheckedCall(e.call().function(), e.call().target(), e.call().args(),
                        x -> ast.getType(x.id()).orElse(SimpleType.DYN));
                for (KubeLibrary lib : env.libraries) {
                    lib.programErrors(call, errors);
                }
            }
        });
        return errors.isEmpty() ? null : errors.get(0);
    }

    /**
     * The source offset of an expression, as cel-go places it: a negative number literal starts at its minus sign
     * (cel-go's parser folds the sign into the literal, parser/parser.go VisitInt/VisitDouble), where cel-java
     * places the literal at its digits.
     */
    private static Integer literalOffset(CelSource source, CelExpr e) {
        if (e == null) {
            return null;
        }
        Integer offset = source.getPositionsMap().get(e.id());
        if (offset == null || e.getKind() != CelExpr.ExprKind.Kind.CONSTANT) {
            return offset;
        }
        boolean negative = switch (e.constant().getKind()) {
            case INT64_VALUE -> e.constant().int64Value() < 0;
            case DOUBLE_VALUE -> e.constant().doubleValue() < 0;
            default -> false;
        };
        if (!negative) {
            return offset;
        }
        dev.cel.common.internal.CelCodePointArray text = source.getContent();   // offsets count code points
        int i = offset - 1;
        while (i >= 0 && Character.isWhitespace(text.get(i))) {
            i--;
        }
        return i >= 0 && text.get(i) == '-' ? i : offset;
    }

    private static CelIssue issue(CelSource source, long exprId, String message) {
        return issue(source, source.getPositionsMap().get(exprId), message);
    }

    private static CelIssue issue(CelSource source, Integer offset, String message) {
        CelSourceLocation loc = offset == null ? CelSourceLocation.NONE
                : source.getOffsetLocation(offset).orElse(CelSourceLocation.NONE);
        return CelIssue.formatError(loc, message);
    }

    private static CelCompileException compileError(String expression, CelSource source, List<CelIssue> errors) {
        List<CelCompileException.Issue> issues = new ArrayList<>();
        for (CelIssue i : errors) {
            CelSourceLocation loc = i.getSourceLocation();
            issues.add(new CelCompileException.Issue(Math.max(loc.getLine(), 0), Math.max(loc.getColumn(), -1) + 1,
                    i.getMessage()));
        }
        return CelCompileException.ofIssues(expression, issues, CelGoIssues.displayString(errors, source));
    }
}
