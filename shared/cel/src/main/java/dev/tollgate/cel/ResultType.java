package dev.tollgate.cel;

/** What an expression must produce; checked when compiling (a dyn result is checked again when evaluating). */
public enum ResultType {
    /** validations[].expression, matchConditions[].expression. */
    BOOL,
    /** validations[].messageExpression. */
    STRING,
    /**
     * auditAnnotations[].valueExpression: a string, or null for "no annotation". As in the API server, {@code c ?
     * 'text' : null} does not type-check (a conditional's branches need one type); {@code c ? 'text' : ''} does, and
     * an empty value omits the annotation too.
     */
    STRING_OR_NULL,
    /** variables[].expression and anything else: no constraint. */
    ANY
}
