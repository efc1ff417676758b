package dev.tollgate.cel;

import java.util.List;

/**
 * An expression did not compile (syntax, undeclared reference, type, wrong result type, invalid literal regex...).
 * The message names the expression and gives each error with its position, as {@code <input>:line:column: message}
 * followed by the source line and a caret, the way the API server reports it.
 */
public final class CelCompileException extends Exception {

    /** One compile error: 1-based line and column ({@code 0} when unknown) and the message. */
    public record Issue(int line, int column, String message) {
        @Override
        public String toString() {
            return "<input>:" + line + ":" + column + ": " + message;
        }
    }

    private final String expression;
    private final List<Issue> issues;
    private final String details;

    public CelCompileException(String expression, List<Issue> issues, String details) {
        super("compilation failed for expression '" + expression + "': " + details);
        this.expression = expression;
        this.issues = List.copyOf(issues);
        this.details = details;
    }

    /**
     * The errors as cel-go prints them ({@code Issues.String()}: {@code ERROR: <input>:1:5: message}, the source line
     * and a caret, per issue), or the API server's own text where the error is not an issue (a result type, a
     * program that cannot be built); {@link #getMessage()} is this text after the expression.
     */
    public String details() {
        return details;
    }

    /** The expression's source text. */
    public String expression() {
        return expression;
    }

    /** The errors, in source order; never empty. */
    public List<Issue> issues() {
        return issues;
    }
}
