package dev.tollgate.cel;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.NullValue;

import dev.cel.common.ast.CelExpr;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelEvaluationListener;
import dev.cel.runtime.CelVariableResolver;
import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.KubeObject;
import dev.tollgate.cel.library.AuthzLibrary;

/**
 * The evaluation of one expression set for one request: binds the admission variables, evaluates composition
 * variables lazily (at most once each, in the context of the expression that first needs them) and meters cost.
 * Each expression may cost at most {@link KubeCel#costLimitPerExpression()}, and all expressions evaluated through
 * this object together at most {@link KubeCel#costBudgetPerEvaluation()}. Not thread-safe: one per request.
 */
public final class Evaluation implements CelVariableResolver {

    private final ExpressionSet set;
    private final KubeCel env;
    private final AdmissionInput input;
    private final Map<String, Object> custom;
    private final CostMeter meter = new CostMeter();
    private final Object[] variableValues;
    private final CelEvaluationError[] variableErrors;
    private final VariablesMap variablesMap = new VariablesMap();
    private Object request;
    private Object object;
    private Object oldObject;
    private Object authorizer;
    private Object requestResource;

    Evaluation(ExpressionSet set, AdmissionInput input, Map<String, ?> bindings) {
        this.set = set;
        this.env = set.environment();
        this.input = input;
        if (bindings != null) {
            custom = new LinkedHashMap<>();
            bindings.forEach((k, v) -> custom.put(k, v instanceof JsonNode j ? CelValues.fromJson(j)
                    : v == null ? NullValue.NULL_VALUE : v));
        } else {
            custom = null;
        }
        this.variableValues = new Object[set.compiledVariables.size()];
        this.variableErrors = new CelEvaluationError[set.compiledVariables.size()];
    }

    /**
     * Evaluates an expression compiled by this evaluation's set (or by the environment without variables).
     *
     * @return the CEL value: Boolean, Long, Double, String, List, Map, Optional, a library value, or null for CEL null
     */
    public Object evaluate(CompiledExpression expression) throws CelEvaluationError {
        if (expression.owner != set && !(expression.owner.variables().isEmpty()
                && expression.owner.environment() == env)) {
            throw new IllegalArgumentException("expression '" + expression.source()
                    + "' was compiled by another expression set; evaluate it with an Evaluation of that set");
        }
        Object value = run(expression);
        return value instanceof NullValue ? null : value;
    }

    /** Evaluates an expression that must produce a bool. */
    public boolean evaluateBool(CompiledExpression expression) throws CelEvaluationError {
        Object v = evaluate(expression);
        if (v instanceof Boolean b) {
            return b;
        }
        throw wrongType(expression, v);
    }

    /** Evaluates an expression that must produce a string (or null, for {@link ResultType#STRING_OR_NULL}). */
    public String evaluateString(CompiledExpression expression) throws CelEvaluationError {
        Object v = evaluate(expression);
        if (v instanceof String s) {
            return s;
        }
        if (v == null && expression.resultType() == ResultType.STRING_OR_NULL) {
            return null;
        }
        throw wrongType(expression, v);
    }

    /** The value of a composition variable (evaluated now if no expression needed it yet). */
    public Object variable(String name) throws CelEvaluationError {
        for (int i = 0; i < set.variables().size(); i++) {
            if (set.variables().get(i).name().equals(name)) {
                Object v = variableValue(i);
                return v instanceof NullValue ? null : v;
            }
        }
        throw new IllegalArgumentException("no variable named '" + name + "'");
    }

    /** The cost of everything evaluated so far through this object. */
    public long costUsed() {
        return meter.used;
    }

    private static CelEvaluationError wrongType(CompiledExpression e, Object v) {
        return new CelEvaluationError(CelEvaluationError.Kind.RUNTIME, e.source(),
                ResultTypes.runTimeError(e.source(), e.resultType(), v), null);
    }

    private Object run(CompiledExpression expression) throws CelEvaluationError {
        long outerStart = meter.callStart;
        meter.callStart = meter.used;
        try {
            return expression.program.trace(this, meter);
        } catch (CelEvaluationException e) {
            throw translate(expression, e);
        } catch (CostExceeded e) {
            throw new CelEvaluationError(CelEvaluationError.Kind.COST_LIMIT, expression.source(), e.getMessage(), e);
        } catch (VariableFailed e) {
            throw e.in(expression);
        } catch (RuntimeException e) {
            throw new CelEvaluationError(CelEvaluationError.Kind.RUNTIME, expression.source(),
                    String.valueOf(e.getMessage()), e);
        } finally {
            meter.callStart = outerStart;
        }
    }

    private static CelEvaluationError translate(CompiledExpression expression, CelEvaluationException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof CostExceeded c) {
                return new CelEvaluationError(CelEvaluationError.Kind.COST_LIMIT, expression.source(),
                        c.getMessage(), e);
            }
            if (t instanceof VariableFailed v) {
                return v.in(expression);
            }
        }
        return new CelEvaluationError(CelEvaluationError.Kind.RUNTIME, expression.source(), message(expression, e), e);
    }

    /**
     * The message the API server's user would read. cel-java words the common runtime errors differently from cel-go
     * (and wraps a library function's failure as "Function 'x' failed with arg(s) ..."); these are reworded as
     * cel-go common/types (err.go, overflow.go, map.go) states them: "integer overflow", "unsigned integer overflow",
     * "division by zero", "modulus by zero", "no such key: k".
     */
    static String message(CompiledExpression expression, CelEvaluationException e) {
        Throwable cause = e.getCause();
        String detail = cause != null && !(cause instanceof CelEvaluationException) && cause.getMessage() != null
                ? cause.getMessage() : null;
        String celGo = celGoWording(expression.source(), e, detail);
        if (celGo != null) {
            return celGo;
        }
        if (detail != null) {
            return detail;
        }
        String msg = String.valueOf(e.getMessage());
        return msg.replaceFirst("^evaluation error(?: at <input>:\\d+)?: ", "");
    }

    private static String celGoWording(String source, CelEvaluationException e, String detail) {
        if (detail == null) {
            return null;
        }
        return switch (e.getErrorCode()) {
            case NUMERIC_OVERFLOW -> detail.startsWith("unsigned") || detail.contains("uint")
                    ? "unsigned integer overflow" : detail.contains("long overflow") || detail.contains("for int")
                    ? "integer overflow" : null;
            case DIVIDE_BY_ZERO -> operatorAt(source, e.getMessage()) == '%' ? "modulus by zero" : "division by zero";
            case ATTRIBUTE_NOT_FOUND -> {
                if (e.getCause() instanceof IndexOutOfBoundsException) {
                    yield "no such key: " + detail;          // map[key]: cel-java's message is the key alone
                }
                java.util.regex.Matcher m = MISSING_KEY.matcher(detail);
                yield m.matches() ? "no such key: " + m.group(1) : null;
            }
            default -> null;
        };
    }

    private static final java.util.regex.Pattern MISSING_KEY =
            java.util.regex.Pattern.compile("key '(.*)' is not present in map\\.");

    /** The character at the offset cel-java names ("evaluation error at <input>:7: ..."), or 0. */
    private static char operatorAt(String source, String message) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("at <input>:(\\d+):").matcher(
                String.valueOf(message));
        if (m.find()) {
            int offset = Integer.parseInt(m.group(1));
            if (offset >= 0 && offset < source.length()) {
                return source.charAt(offset);
            }
        }
        return 0;
    }

    private Object variableValue(int i) throws CelEvaluationError {
        if (variableErrors[i] != null) {
            throw variableErrors[i];
        }
        if (variableValues[i] == null) {
            // k8s.io/apiserver pkg/admission/plugin/cel/composition.go variableAccessor.Callback: the variable's
            // failure, in these words, is the error of the expression that read it
            String name = set.variables().get(i).name();
            CelCompileException failedToCompile = set.variableCompileErrors.get(i);
            if (failedToCompile != null) {
                variableErrors[i] = new CelEvaluationError(CelEvaluationError.Kind.RUNTIME,
                        set.variables().get(i).expression(), "composited variable \"" + name + "\" fails to compile: "
                        + failedToCompile.compilationError(), null);
                throw variableErrors[i];
            }
            CompiledExpression v = set.compiledVariables.get(i);
            try {
                Object value = run(v);
                variableValues[i] = value == null ? NullValue.NULL_VALUE : value;
            } catch (CelEvaluationError e) {
                CelEvaluationError named = new CelEvaluationError(e.kind(), e.expression(),
                        "composited variable \"" + name + "\" fails to evaluate: " + e.getMessage(), e);
                variableErrors[i] = named;
                throw named;
            }
        }
        return variableValues[i];
    }

    @Override
    public Optional<Object> find(String name) {
        if (custom != null) {
            Object v = custom.get(name);
            if (v != null) {
                return Optional.of(v);
            }
            return Optional.ofNullable(env.constants.get(name));
        }
        AdmissionRequest r = input.request();
        Object v = switch (name) {
            case "object" -> object != null ? object : (object = json(r.object()));
            case "oldObject" -> oldObject != null ? oldObject : (oldObject = json(r.oldObject()));
            case "request" -> request != null ? request : (request = RequestValues.of(r));
            case "params" -> CelValues.fromJson(input.params());
            case "namespaceObject" -> CelValues.fromJson(input.namespaceObject());
            case "variables" -> variablesMap;
            case "authorizer" -> authorizer != null ? authorizer
                    : (authorizer = AuthzLibrary.authorizerFor(env.authorizer, r));
            case "authorizer.requestResource" -> requestResource != null ? requestResource
                    : (requestResource = AuthzLibrary.requestResourceFor(env.authorizer, r));
            default -> input.extras().containsKey(name) ? CelValues.fromJson(input.extras().get(name))
                    : env.constants.get(name);
        };
        return Optional.ofNullable(v);
    }

    private static Object json(KubeObject o) {
        return o == null ? NullValue.NULL_VALUE : CelValues.fromJson(o.json());
    }

    /** {@code variables}: a map whose values are computed on first access. */
    private final class VariablesMap extends AbstractMap<String, Object> {
        @Override
        public Object get(Object key) {
            List<NamedExpression> vars = set.variables();
            for (int i = 0; i < vars.size(); i++) {
                if (vars.get(i).name().equals(key)) {
                    try {
                        return variableValue(i);
                    } catch (CelEvaluationError e) {
                        throw new VariableFailed(e);
                    }
                }
            }
            return null;
        }

        @Override
        public boolean containsKey(Object key) {
            return set.variables().stream().anyMatch(v -> v.name().equals(key));
        }

        @Override
        public Set<Entry<String, Object>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public Iterator<Entry<String, Object>> iterator() {
                    Iterator<NamedExpression> it = set.variables().iterator();
                    return new Iterator<>() {
                        @Override
                        public boolean hasNext() {
                            return it.hasNext();
                        }

                        @Override
                        public Entry<String, Object> next() {
                            String name = it.next().name();
                            return new SimpleImmutableEntry<>(name, get(name));
                        }
                    };
                }

                @Override
                public int size() {
                    return set.variables().size();
                }
            };
        }
    }

    /**
     * Meters cost as the evaluator visits the expression: one unit per evaluated node, plus the size of strings,
     * lists and maps that function calls produce (so loops and growing values are paid for). The API server's
     * figures differ in detail; the guarantee is the same: a runaway expression stops with an error.
     */
    private final class CostMeter implements CelEvaluationListener {
        long used;
        long callStart;

        @Override
        public void callback(CelExpr expr, Object result) {
            long cost = 1;
            if (expr.getKind() == CelExpr.ExprKind.Kind.CALL) {
                if (result instanceof String s) {
                    cost += s.length() / 10;
                } else if (result instanceof java.util.Collection<?> c) {
                    cost += c.size();
                } else if (result instanceof Map<?, ?> m) {
                    cost += m.size();
                }
            }
            used += cost;
            if (used - callStart > env.costLimitPerExpression) {
                throw new CostExceeded("operation cancelled: actual cost limit exceeded (the per-expression limit is "
                        + env.costLimitPerExpression + ")");
            }
            if (used > env.costBudgetPerEvaluation) {
                throw new CostExceeded("validation failed due to running out of cost budget, no further validation"
                        + " rules will be run (the budget per evaluation is " + env.costBudgetPerEvaluation + ")");
            }
        }
    }

    private static final class CostExceeded extends RuntimeException {
        CostExceeded(String message) {
            super(message, null, false, false);
        }
    }

    private static final class VariableFailed extends RuntimeException {
        final CelEvaluationError error;

        VariableFailed(CelEvaluationError error) {
            super(error.getMessage(), null, false, false);
            this.error = error;
        }

        /** The variable's error as the error of the expression that read it (filter.go names that expression). */
        CelEvaluationError in(CompiledExpression reader) {
            return new CelEvaluationError(error.kind(), reader.source(), error.getMessage(), error);
        }
    }
}
