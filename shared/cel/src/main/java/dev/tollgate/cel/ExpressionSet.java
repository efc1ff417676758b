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

    ExpressionSet(KubeCel env, List<NamedExpression> variables, List<CompiledExpression> compiledVariables) {
        this(env, variables, compiledVariables, Set.of());
    }

    ExpressionSet(KubeCel env, List<NamedExpression> variables, List<CompiledExpression> compiledVariables,
            Set<String> unavailable) {
        this.env = env;
        this.unavailable = unavailable;
        this.variables = variables;
        this.compiledVariables = compiledVariables;
        this.variableNames = new HashSet<>();
        variables.forEach(v -> variableNames.add(v.name()));
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
        try {
            CelValidationResult parsed = env.cel.parse(expression);
            if (parsed.hasError()) {
                throw compileError(expression, parsed.getSource(), parsed.getErrors());
            }
            CelAbstractSyntaxTree ast = unescapePropertyNames(parsed.getAst());
            CelValidationResult checked = env.cel.check(ast);
            if (checked.hasError()) {
                throw compileError(expression, checked.getSource(),
                        NullBranchHint.explain(checked.getErrors(), type));
            }
            CelAbstractSyntaxTree checkedAst = checked.getAst();
            CelAbstractSyntaxTree withOptionalSelects = selectInsideOptionals(ast, checkedAst);
            if (withOptionalSelects != ast) {
                checked = env.cel.check(withOptionalSelects);
                if (checked.hasError()) {
                    throw compileError(expression, checked.getSource(), checked.getErrors());
                }
                checkedAst = checked.getAst();
            }
            List<CelIssue> issues = validate(checkedAst, type);
            if (!issues.isEmpty()) {
                throw compileError(expression, checkedAst.getSource(), issues);
            }
            String wrongType = ResultTypes.compileTimeError(checkedAst.getResultType(), type);
            if (wrongType != null) {
                throw new CelCompileException(expression, List.of(new CelCompileException.Issue(0, 0, wrongType)),
                        wrongType);
            }
            return new CompiledExpression(this, expression, type, checkedAst.getResultType(),
                    env.cel.createProgram(checkedAst));
        } catch (CelValidationException e) {
            throw compileError(expression, e.getSource(), e.getErrors());
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
        LiteralValidators.validate(env.cel, ast, (id, message) -> issues.add(issue(source, id, message)));
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
                issues.add(issue(source, e.id(), "undeclared reference to '" + e.ident().name()
                        + "' (not available here)"));
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

    private static CelIssue issue(CelSource source, long exprId, String message) {
        Integer offset = source.getPositionsMap().get(exprId);
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
        return new CelCompileException(expression, issues, CelIssue.toDisplayString(errors, source));
    }
}
