package dev.tollgate.cel;

/**
 * An expression failed while evaluating: a runtime error (no such key, division by zero, a library function
 * refusing its input, a wrong result type, a failed variable, an authorizer check with no authorizer configured) or
 * the cost budget ran out. Either way there is no result; callers apply their failurePolicy.
 */
public final class CelEvaluationError extends Exception {

    /** Why the evaluation failed. */
    public enum Kind {
        /** The expression itself failed. */
        RUNTIME,
        /** The per-expression cost limit or the per-evaluation cost budget was exceeded. */
        COST_LIMIT
    }

    private final Kind kind;
    private final String expression;

    public CelEvaluationError(Kind kind, String expression, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.expression = expression;
    }

    public Kind kind() {
        return kind;
    }

    /** The source text of the expression that failed. */
    public String expression() {
        return expression;
    }
}
