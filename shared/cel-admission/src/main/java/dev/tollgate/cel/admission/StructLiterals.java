package dev.tollgate.cel.admission;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The object types of MutatingAdmissionPolicy expressions, {@code JSONPatch{op: ..., path: ..., value: ...}} and
 * {@code Object{spec: Object.spec{...}}}, for the shared Kubernetes CEL environment, which has no such types: each
 * literal of those types is rewritten into a map literal with the same fields, in place ({@code Object.spec{replicas:
 * x}} becomes {@code            {"replicas": dyn(x)}}: the type name blanked, the field names quoted, each value,
 * optional ones too, wrapped in {@code dyn()} so that fields of different types share one map, as shared/cel checks
 * literals for one value type as cel-go does). The result is read back as JSON. A JSONPatch field other than op,
 * path, from and value, or a literal of another type, is a compile error, as upstream.
 *
 * <p>Only characters are inserted around the literals' fields and none elsewhere, so every position in the rewritten
 * text maps back to the original: {@link Rewritten#remap} gives compile errors the position and source excerpt of
 * the expression as written, as the API server would report them. A cel-mutate function evaluates the rewritten
 * text; {@link PolicyTypeChecker} type-checks it. This adapter goes away if shared/cel declares these types.
 */
public final class StructLiterals {

    public static final String JSON_PATCH = "JSONPatch";
    public static final String OBJECT = "Object";
    private static final Set<String> JSON_PATCH_FIELDS = Set.of("op", "path", "from", "value");
    private static final Pattern ERROR = Pattern.compile("ERROR: <input>:(\\d+):(\\d+): (.*)");

    /** A literal of an unknown type, or a JSONPatch with an unknown field. */
    public static final class RewriteException extends Exception {
        public RewriteException(String message) {
            super(message);
        }
    }

    /**
     * An expression and its rewritten text; {@code origin[i]} is the offset in {@code original} of the rewritten
     * text's character {@code i} (an inserted one: of the character it precedes).
     */
    public record Rewritten(String original, String text, int[] origin) {

        /** Whether the expression had literals to rewrite. */
        public boolean changed() {
            return !original.equals(text);
        }

        /**
         * cel-go style compile errors on the rewritten text ({@code ERROR: <input>:L:C: message} and the excerpt
         * lines {@code " | "}) as they read on the original: each position mapped back, each excerpt redrawn.
         */
        public String remap(String errors) {
            if (!changed()) {
                return errors;
            }
            StringBuilder out = new StringBuilder();
            String[] lines = errors.split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                Matcher m = ERROR.matcher(lines[i]);
                if (!m.matches()) {
                    out.append(lines[i]);
                } else {
                    int at = origin[Math.min(offset(text, Integer.parseInt(m.group(1)),
                            Integer.parseInt(m.group(2))), text.length())];
                    int line = 1;
                    int lineStart = 0;
                    for (int k = 0; k < at; k++) {
                        if (original.charAt(k) == '\n') {
                            line++;
                            lineStart = k + 1;
                        }
                    }
                    int lineEnd = original.indexOf('\n', lineStart);
                    out.append("ERROR: <input>:").append(line).append(':').append(at - lineStart + 1).append(": ")
                            .append(m.group(3)).append("\n | ")
                            .append(original, lineStart, lineEnd < 0 ? original.length() : lineEnd)
                            .append("\n | ").append(".".repeat(at - lineStart)).append('^');
                    while (i + 1 < lines.length && lines[i + 1].startsWith(" |")) {
                        i++;    // the excerpt of the rewritten text
                    }
                }
                if (i + 1 < lines.length) {
                    out.append('\n');
                }
            }
            return out.toString();
        }

        private static int offset(String s, int line, int column) {
            int at = 0;
            for (int l = 1; l < line && at >= 0; l++) {
                at = s.indexOf('\n', at) + 1;
            }
            return Math.max(0, at) + column - 1;
        }
    }

    private record Insertion(int at, String text) {
    }

    private StructLiterals() {
    }

    /**
     * The expression with every JSONPatch and Object literal replaced by a map literal; the expression itself when
     * it has none. Text this cannot follow (a syntax error) is left as it is for the compiler to report.
     */
    public static Rewritten rewrite(String e) throws RewriteException {
        List<Insertion> insertions = new ArrayList<>();
        char[] chars = e.toCharArray();
        int n = e.length();
        for (int i = 0; i < n; i++) {
            char c = e.charAt(i);
            if (c == '/' && i + 1 < n && e.charAt(i + 1) == '/') {
                i = endOfLine(e, i) - 1;
            } else if (c == '\'' || c == '"') {
                i = endOfString(e, i) - 1;
            } else if (c == '{') {
                int typeEnd = i;
                while (typeEnd > 0 && Character.isWhitespace(e.charAt(typeEnd - 1))) {
                    typeEnd--;
                }
                int typeStart = typeEnd;
                while (typeStart > 0 && (identifierPart(e.charAt(typeStart - 1)) || e.charAt(typeStart - 1) == '.')) {
                    typeStart--;
                }
                String type = e.substring(typeStart, typeEnd);
                type = type.startsWith(".") ? type.substring(1) : type;
                if (type.isEmpty() || type.equals("in") || !Character.isJavaIdentifierStart(type.charAt(0))) {
                    continue;   // a map literal
                }
                if (!type.equals(JSON_PATCH) && !type.equals(OBJECT) && !type.startsWith(OBJECT + ".")) {
                    throw new RewriteException("unknown type '" + type
                            + "': expected JSONPatch, Object or Object.<field path>");
                }
                List<Insertion> fields = fields(e, i, type.equals(JSON_PATCH));
                if (fields == null) {
                    return new Rewritten(e, e, identity(n));
                }
                insertions.addAll(fields);
                for (int k = typeStart; k < typeEnd; k++) {
                    chars[k] = ' ';
                }
            }
        }
        if (insertions.isEmpty()) {
            return new Rewritten(e, e, identity(n));
        }
        insertions.sort(java.util.Comparator.comparingInt(Insertion::at));   // stable: same offset, in order found
        StringBuilder text = new StringBuilder();
        List<Integer> origin = new ArrayList<>();
        int next = 0;
        for (int k = 0; k <= n; k++) {
            while (next < insertions.size() && insertions.get(next).at() == k) {
                for (char ch : insertions.get(next++).text().toCharArray()) {
                    text.append(ch);
                    origin.add(k);
                }
            }
            if (k < n) {
                text.append(chars[k]);
                origin.add(k);
            }
        }
        origin.add(n);
        return new Rewritten(e, text.toString(), origin.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The insertions of one literal's fields ({@code open} at its brace), or null when the text is not followed. */
    private static List<Insertion> fields(String e, int open, boolean patch) throws RewriteException {
        List<Insertion> out = new ArrayList<>();
        int n = e.length();
        int p = open + 1;
        while (true) {
            p = skipSpace(e, p);
            if (p >= n) {
                return null;
            }
            if (e.charAt(p) == '}') {
                return out;
            }
            if (e.charAt(p) == '?') {
                p = skipSpace(e, p + 1);
            }
            int keyStart = p;
            while (p < n && identifierPart(e.charAt(p))) {
                p++;
            }
            if (p == keyStart) {
                return null;
            }
            String key = e.substring(keyStart, p);
            if (patch && !JSON_PATCH_FIELDS.contains(key)) {
                throw new RewriteException("JSONPatch has no field '" + key + "' (op, path, from, value)");
            }
            int keyEnd = p;
            p = skipSpace(e, p);
            if (p >= n || e.charAt(p) != ':') {
                return null;
            }
            int valueStart = skipSpace(e, p + 1);
            int end = endOfValue(e, valueStart);
            if (end >= n) {
                return null;
            }
            int valueEnd = end;
            while (valueEnd > valueStart && Character.isWhitespace(e.charAt(valueEnd - 1))) {
                valueEnd--;
            }
            out.add(new Insertion(keyStart, "\""));
            out.add(new Insertion(keyEnd, "\""));
            out.add(new Insertion(valueStart, "dyn("));
            out.add(new Insertion(valueEnd, ")"));
            p = e.charAt(end) == ',' ? end + 1 : end;
        }
    }

    /** The offset of the ',' or '}' that ends a field's value (brackets and strings skipped); n when none. */
    private static int endOfValue(String e, int from) {
        int depth = 0;
        for (int i = from; i < e.length(); i++) {
            char c = e.charAt(i);
            if (c == '/' && i + 1 < e.length() && e.charAt(i + 1) == '/') {
                i = endOfLine(e, i) - 1;
            } else if (c == '\'' || c == '"') {
                i = endOfString(e, i) - 1;
            } else if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if (c == ')' || c == ']' || c == '}') {
                if (depth == 0) {
                    return c == '}' ? i : e.length();
                }
                depth--;
            } else if (c == ',' && depth == 0) {
                return i;
            }
        }
        return e.length();
    }

    /** The offset after a string literal starting at {@code quote} (raw, triple-quoted and escapes as CEL's lexer). */
    private static int endOfString(String e, int quote) {
        char q = e.charAt(quote);
        boolean raw = quote > 0 && (e.charAt(quote - 1) == 'r' || e.charAt(quote - 1) == 'R'
                || quote > 1 && (e.charAt(quote - 2) == 'r' || e.charAt(quote - 2) == 'R')
                        && (e.charAt(quote - 1) == 'b' || e.charAt(quote - 1) == 'B'));
        boolean triple = e.startsWith(String.valueOf(q).repeat(3), quote);
        int i = quote + (triple ? 3 : 1);
        while (i < e.length()) {
            char c = e.charAt(i);
            if (c == '\\' && !raw) {
                i += 2;
            } else if (c == q && (!triple || e.startsWith(String.valueOf(q).repeat(3), i))) {
                return i + (triple ? 3 : 1);
            } else {
                i++;
            }
        }
        return e.length();
    }

    private static int endOfLine(String e, int from) {
        int nl = e.indexOf('\n', from);
        return nl < 0 ? e.length() : nl;
    }

    private static int skipSpace(String e, int from) {
        int p = from;
        while (p < e.length()) {
            if (Character.isWhitespace(e.charAt(p))) {
                p++;
            } else if (e.startsWith("//", p)) {
                p = endOfLine(e, p);
            } else {
                break;
            }
        }
        return p;
    }

    private static boolean identifierPart(char c) {
        return c == '_' || Character.isLetterOrDigit(c);
    }

    private static int[] identity(int n) {
        int[] o = new int[n + 1];
        for (int i = 0; i <= n; i++) {
            o[i] = i;
        }
        return o;
    }
}
