package dev.tollgate.cel.admission;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.tollgate.cel.CelCompileException;
import dev.tollgate.cel.CelEvaluationError;
import dev.tollgate.cel.CompiledExpression;
import dev.tollgate.cel.DeclaredTypes;
import dev.tollgate.cel.Evaluation;
import dev.tollgate.cel.ExpressionSet;
import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.NamedExpression;
import dev.tollgate.cel.ResultType;

/**
 * A policy's expressions compiled once at startup: its composition variables and matchConditions, and any further
 * expression of the policy compiled against those variables. A compile error is kept, not thrown: as in the API
 * server the policy still exists, and each request it matches reports the error and is handled by its
 * failurePolicy. {@link #compileErrors()} lists every error for the startup report.
 */
public final class PolicyExpressions {

    /**
     * An expression compiled, or the error that prevented it: {@code error} is what a request evaluating it reports
     * (admission/plugin/cel/filter.go: {@code compilation error: } and the compile error), {@code compileError}
     * the compile error alone, as k8s.io/apiserver admission/plugin/cel/compile.go words it
     * ({@link CelCompileException#compilationError()}), for contexts that put other words around it.
     */
    public record Compiled(CompiledExpression expression, String error, String compileError) {

        public Compiled(CompiledExpression expression, String error) {
            this(expression, error, error);
        }

        public boolean failed() {
            return expression == null;
        }
    }

    /** The outcome of a policy's matchConditions for one request. */
    public record ConditionResult(boolean matches, String error) {

        static final ConditionResult MATCH = new ConditionResult(true, null);
        static final ConditionResult NO_MATCH = new ConditionResult(false, null);

        public boolean failed() {
            return error != null;
        }
    }

    private final String policyName;
    private final ExpressionSet set;
    private final String variablesError;
    private final List<NamedExpression> conditionSources;
    private final List<Compiled> conditions = new ArrayList<>();
    private final List<String> compileErrors = new ArrayList<>();

    /** Compiles the policy's variables (in order) and matchConditions. */
    public PolicyExpressions(KubeCel cel, PolicySpec spec) {
        this.policyName = spec.name();
        ExpressionSet compiled;
        String error = null;
        try {
            // as the API server's composition: a variable that does not compile fails only what reads it
            compiled = cel.compileVariablesKeepingErrors(spec.variables(), DeclaredTypes.none(), undeclared(spec));
            compiled.variableCompileErrors().forEach((name, e) -> compileErrors.add(
                    "compilation error: variables[" + name + "]: " + e.compilationError()));
        } catch (CelCompileException e) {
            // a variable name that is not a CEL identifier, or a repeated one: nothing can be evaluated
            compiled = null;
            error = "compilation error: variables: " + e.compilationError();
            compileErrors.add(error);
        }
        this.set = compiled;
        this.variablesError = error;
        this.conditionSources = spec.matchConditions();
        for (NamedExpression c : spec.matchConditions()) {
            conditions.add(compile(c.expression(), ResultType.BOOL, "matchConditions[" + c.name() + "]"));
        }
    }

    /**
     * The admission variables a policy's expressions may not use: {@code params} without a paramKind, as the API
     * server compiles them (pkg/admission/plugin/policy/validating/plugin.go compilePolicy and
     * .../policy/mutating/compilation.go: {@code HasParams: policy.Spec.ParamKind != nil}).
     */
    public static Set<String> undeclared(PolicySpec spec) {
        return spec.paramKind() == null ? Set.of("params") : Set.of();
    }

    /**
     * Compiles one more expression of the policy against its variables.
     *
     * @param what names the field in the error, e.g. {@code validations[0].expression}
     */
    public Compiled compile(String expression, ResultType type, String what) {
        return compile(expression, type, what, java.util.function.UnaryOperator.identity());
    }

    /**
     * Like {@link #compile(String, ResultType, String)} for a text rewritten from what the policy says
     * ({@link StructLiterals}): {@code asWritten} maps its compile errors back to the text as written.
     */
    public Compiled compile(String expression, ResultType type, String what,
            java.util.function.UnaryOperator<String> asWritten) {
        if (set == null) {
            return new Compiled(null, variablesError);
        }
        try {
            return new Compiled(set.compile(expression, type), null, null);
        } catch (CelCompileException e) {
            String compileError = e.compilationError(asWritten);
            compileErrors.add("compilation error: " + what + ": " + compileError);
            return new Compiled(null, FILTER_COMPILATION_ERROR + compileError, compileError);
        }
    }

    /** What the admission filter puts before a compile error when a request evaluates the expression (filter.go). */
    public static final String FILTER_COMPILATION_ERROR = "compilation error: ";

    /** Every compile error found so far, for the startup report: the field, then the API server's text. */
    public List<String> compileErrors() {
        return List.copyOf(compileErrors);
    }

    public String policyName() {
        return policyName;
    }

    /** The compiled variables, or null when they failed to compile. */
    public ExpressionSet set() {
        return set;
    }

    /**
     * The reason nothing can be evaluated (a variable name that is not a CEL identifier, or a repeated one), or
     * null. A variable whose expression does not compile fails only the expressions that read it.
     */
    public String variablesError() {
        return variablesError;
    }

    /**
     * Evaluates the matchConditions as the API server does: any false means no match (even when others erred);
     * otherwise an error (or a condition that failed to compile) is an error for the failurePolicy to handle; all
     * true means match.
     */
    public ConditionResult matchConditions(Evaluation evaluation) {
        List<String> errors = new ArrayList<>();
        for (int i = 0; i < conditions.size(); i++) {
            Compiled c = conditions.get(i);
            if (c.failed()) {
                errors.add(c.error());
                continue;
            }
            try {
                if (!evaluation.evaluateBool(c.expression())) {
                    return ConditionResult.NO_MATCH;
                }
            } catch (CelEvaluationError e) {
                errors.add("matchCondition '" + conditionSources.get(i).name() + "': " + describe(e));
            }
        }
        return errors.isEmpty() ? ConditionResult.MATCH : new ConditionResult(false, String.join("; ", errors));
    }

    /** The API server drops a messageExpression result longer than this (celconfig). */
    public static final int MAX_MESSAGE_EXPRESSION_LENGTH = 5 * 1024;

    /**
     * The message of a failed validation, as the API server's validator builds it (k8s.io/apiserver
     * pkg/admission/plugin/policy/validating/validator.go): a usable messageExpression result, else the message, else
     * {@code failed expression: <expression>}. A messageExpression that errs, is not a string, is blank, longer than
     * 5 KiB or spans lines is not usable.
     *
     * @throws CelEvaluationError only when the messageExpression ran out of cost budget, which upstream turns into
     *                            an evaluation error rather than a fallback
     */
    public static String failureMessage(String expression, String message, Compiled messageExpression,
            Evaluation evaluation) throws CelEvaluationError {
        String result = "";
        if (messageExpression != null && !messageExpression.failed()) {
            try {
                String value = evaluation.evaluateString(messageExpression.expression());
                result = value == null ? "" : value.strip();
                if (result.length() > MAX_MESSAGE_EXPRESSION_LENGTH || result.contains("\n")) {
                    result = "";
                }
            } catch (CelEvaluationError e) {
                if (e.kind() == CelEvaluationError.Kind.COST_LIMIT) {
                    throw e;
                }
                result = "";
            }
        }
        if (result.isEmpty()) {
            result = message.strip();
        }
        if (result.isEmpty()) {
            result = "failed expression: " + expression.strip();
        }
        return result;
    }

    /** The API server's wording for an evaluation error. */
    public static String describe(CelEvaluationError e) {
        if (e.kind() == CelEvaluationError.Kind.COST_LIMIT) {
            return "operation cancelled: actual cost limit exceeded: " + e.getMessage();
        }
        return "expression '" + e.expression() + "' resulted in error: " + e.getMessage();
    }
}
