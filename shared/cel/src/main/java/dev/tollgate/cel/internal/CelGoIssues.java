package dev.tollgate.cel.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.cel.common.CelIssue;

/**
 * cel-java's parse and check errors in cel-go's words, where the two differ:
 *
 * <ul>
 * <li>an ANTLR syntax error is prefixed "Syntax error: " (cel-go parser/errors.go {@code syntaxError});</li>
 * <li>a reserved word or literal after a dot ({@code self.true}) is "mismatched input 'true' expecting IDENTIFIER",
 * where cel-java's grammar says "no viable alternative at input '.true'" (cel-go parser/parser_test.go, the case
 * {@code self.true == 1}, which cel-java's own parser test keeps as a known difference);</li>
 * <li>"found no matching overload for 'f' applied to '(T)'" has no " (candidates: ...)" tail (cel-go
 * checker/errors.go {@code noMatchingOverload}).</li>
 * </ul>
 */
public final class CelGoIssues {

    private static final Pattern ANTLR = Pattern.compile(
            "^(mismatched input|no viable alternative|extraneous input|missing |token recognition error)");
    private static final Pattern DOT_KEYWORD = Pattern.compile("^no viable alternative at input '\\.([A-Za-z_]\\w*)'$");
    private static final Pattern CANDIDATES = Pattern.compile(
            "^(found no matching overload for '.*' applied to '.*') \\(candidates: .*\\)$", Pattern.DOTALL);

    private CelGoIssues() {
    }

    /** Parse errors, reworded. */
    public static List<CelIssue> parseErrors(List<CelIssue> issues) {
        List<CelIssue> out = new ArrayList<>();
        for (CelIssue i : issues) {
            String m = i.getMessage();
            Matcher k = DOT_KEYWORD.matcher(m);
            if (k.matches()) {
                m = "mismatched input '" + k.group(1) + "' expecting IDENTIFIER";
            }
            if (ANTLR.matcher(m).find()) {
                m = "Syntax error: " + m;
            }
            out.add(m.equals(i.getMessage()) ? i : CelIssue.formatError(i.getSourceLocation(), m));
        }
        return out;
    }

    /** Check errors, reworded. */
    public static List<CelIssue> checkErrors(List<CelIssue> issues) {
        List<CelIssue> out = new ArrayList<>();
        for (CelIssue i : issues) {
            Matcher c = CANDIDATES.matcher(i.getMessage());
            out.add(c.matches() ? CelIssue.formatError(i.getSourceLocation(), c.group(1)) : i);
        }
        return out;
    }
}
