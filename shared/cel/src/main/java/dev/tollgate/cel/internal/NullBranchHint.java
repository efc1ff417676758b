package dev.tollgate.cel.internal;

import java.util.ArrayList;
import java.util.List;

import dev.cel.common.CelIssue;
import dev.tollgate.cel.ResultType;

/**
 * Explains the type error of a conditional with a {@code null} branch, such as {@code c ? 'text' : null}.
 *
 * <p>CEL types {@code _?_:_} as {@code (bool, A, A) -> A}, and {@code null} unifies only with messages, wrapper
 * types, {@code optional}, {@code timestamp}, {@code duration} and {@code dyn}. cel-go, and so the API server, rejects
 * {@code c ? 'text' : null} exactly as cel-java does ("found no matching overload for '_?_:_' applied to '(bool,
 * string, null)'"), even though the Kubernetes documentation shows that form for auditAnnotations. Accepting it here
 * would let a policy pass in Tollgate that the API server refuses, so the error stays; this adds why, and what to
 * write instead that both accept.
 */
public final class NullBranchHint {

    private static final String CONDITIONAL = "found no matching overload for '_?_:_' applied to '(";

    private NullBranchHint() {
    }

    /** The issues, with the ones about a conditional's null branch extended by an explanation. */
    public static List<CelIssue> explain(List<CelIssue> issues, ResultType wanted) {
        List<CelIssue> out = new ArrayList<>(issues.size());
        for (CelIssue issue : issues) {
            out.add(hasNullBranch(issue.getMessage())
                    ? CelIssue.formatError(issue.getExprId(), issue.getSourceLocation(),
                            issue.getMessage() + hint(wanted))
                    : issue);
        }
        return out;
    }

    /** True for a conditional whose branch types are null and something that null does not unify with. */
    static boolean hasNullBranch(String message) {
        int start = message.indexOf(CONDITIONAL);
        if (start < 0) {
            return false;
        }
        start += CONDITIONAL.length();
        int end = message.indexOf(")'", start);
        if (end < 0) {
            return false;
        }
        List<String> args = topLevelArgs(message.substring(start, end));
        return args.size() == 3 && (args.get(1).equals("null") != args.get(2).equals("null"));
    }

    /** Splits "bool, map(string, int), null" at the commas outside parentheses. */
    private static List<String> topLevelArgs(String list) {
        List<String> args = new ArrayList<>();
        int depth = 0;
        int from = 0;
        for (int i = 0; i < list.length(); i++) {
            char c = list.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                args.add(list.substring(from, i).strip());
                from = i + 1;
            }
        }
        args.add(list.substring(from).strip());
        return args;
    }

    private static String hint(ResultType wanted) {
        String why = "; both branches of a conditional must have one type, and null shares one only with messages,"
                + " wrapper types, optional, timestamp, duration and dyn (the API server's CEL rejects this"
                + " expression too)";
        return why + switch (wanted) {
            case STRING_OR_NULL -> "; write '' instead of null (an empty audit annotation value is omitted, like null)";
            case STRING -> "; write '' instead of null (an empty message falls back to the validation's message)";
            case ANY -> "; wrap the other branch in dyn(...) if the value may be null (c ? dyn('text') : null)";
            case BOOL -> "";
        };
    }
}
