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
 *
 * <p>and the issues shown as cel-go shows them ({@link #displayString}).
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

    /** common/errors.go: at most this many issues are shown, then a count of the rest. */
    static final int MAX_ERRORS_TO_REPORT = 100;
    /** common/error.go maxSnippetLength: a longer source line (in UTF-8 bytes) is not shown. */
    static final int MAX_SNIPPET_LENGTH = 16384;

    /**
     * The issues as cel-go's {@code Issues.String()} prints them (common/errors.go {@code Errors.ToDisplayString}
     * and common/error.go {@code Error.ToDisplayString}): sorted by line, then column (a stable sort, so issues at
     * one position keep their order; nothing is de-duplicated), at most 100 and then "N more errors were
     * truncated", joined by newlines. Each is {@code ERROR: <input>:line:column: message} (column 1-based), then
     * the source line with tabs as spaces and a line of dots up to a caret under the column, a full-width dot and
     * caret (U+FF0E, U+FF3E) for each character that takes more than one byte in UTF-8.
     */
    public static String displayString(List<CelIssue> issues, dev.cel.common.CelSource source) {
        List<CelIssue> sorted = new ArrayList<>(issues);
        sorted.sort(java.util.Comparator.comparingInt((CelIssue i) -> i.getSourceLocation().getLine())
                .thenComparingInt(i -> i.getSourceLocation().getColumn()));
        List<String> shown = new ArrayList<>();
        for (int n = 0; n < sorted.size() && n < MAX_ERRORS_TO_REPORT; n++) {
            shown.add(displayString(sorted.get(n), source));
        }
        if (sorted.size() > MAX_ERRORS_TO_REPORT) {
            shown.add((sorted.size() - MAX_ERRORS_TO_REPORT) + " more errors were truncated");
        }
        return String.join("\n", shown);
    }

    private static String displayString(CelIssue issue, dev.cel.common.CelSource source) {
        int line = issue.getSourceLocation().getLine();
        int column = issue.getSourceLocation().getColumn();
        StringBuilder sb = new StringBuilder("ERROR: ").append(source.getDescription()).append(':').append(line)
                .append(':').append(column + 1).append(": ").append(issue.getMessage());
        java.util.Optional<String> snippet = line < 1 ? java.util.Optional.empty() : source.getSnippet(line);
        if (snippet.isPresent()
                && snippet.get().getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= MAX_SNIPPET_LENGTH) {
            String text = snippet.get().replace('\t', ' ');
            sb.append("\n | ").append(text).append("\n | ");
            int[] codePoints = text.codePoints().toArray();
            int i = 0;
            for (; i < column && i < codePoints.length; i++) {
                sb.append(codePoints[i] > 0x7f ? '\uff0e' : '.');
            }
            sb.append(i < codePoints.length && codePoints[i] > 0x7f ? '\uff3e' : '^');
        }
        return sb.toString();
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
