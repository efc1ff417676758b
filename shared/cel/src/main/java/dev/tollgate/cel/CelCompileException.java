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
    private final boolean celIssues;

    /** An error that is not a cel-go issue: a result type, a program that cannot be built, a variable's name. */
    public CelCompileException(String expression, List<Issue> issues, String details) {
        this(expression, issues, details, false);
    }

    private CelCompileException(String expression, List<Issue> issues, String details, boolean celIssues) {
        super("compilation failed for expression '" + expression + "': " + details);
        this.expression = expression;
        this.issues = List.copyOf(issues);
        this.details = details;
        this.celIssues = celIssues;
    }

    /** Parse, check or validator errors: {@code details} is cel-go's {@code Issues.String()} of them. */
    public static CelCompileException ofIssues(String expression, List<Issue> issues, String details) {
        return new CelCompileException(expression, issues, details, true);
    }

    /**
     * The error as the API server words it when an expression does not compile (k8s.io/apiserver
     * pkg/admission/plugin/cel/compile.go {@code CompileCELExpression}, the {@code Detail} of its error):
     * {@code compilation failed: } and cel-go's issues for parse and check errors
     * ({@code compilation failed: ERROR: <input>:1:5: undeclared reference to 'x' (in container '')} and the excerpt),
     * the result-type message ({@code must evaluate to bool but got string}) or
     * {@code program instantiation failed: ...} as they are. Callers put their context's words around it: the
     * admission filter's {@code compilation error: } (admission/plugin/cel/filter.go), field validation's
     * {@code <field>: Invalid value: "<expression>": } (apis/admissionregistration/validation).
     */
    public String compilationError() {
        return compilationError(java.util.function.UnaryOperator.identity());
    }

    /**
     * {@link #compilationError()} with cel-go's issues passed through {@code asWritten} first: for an expression
     * compiled from a rewritten text, to give positions and excerpts of the text as written.
     */
    public String compilationError(java.util.function.UnaryOperator<String> asWritten) {
        return celIssues ? "compilation failed: " + asWritten.apply(details) : details;
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
