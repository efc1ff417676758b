package dev.tollgate.cel;

/** What an expression must produce; checked when compiling (a dyn result is checked again when evaluating). */
public enum ResultType {
    /** validations[].expression, matchConditions[].expression. */
    BOOL,
    /** validations[].messageExpression. */
    STRING,
    /** auditAnnotations[].valueExpression: a string, or null for "no annotation". */
    STRING_OR_NULL,
    /** variables[].expression and anything else: no constraint. */
    ANY
}
