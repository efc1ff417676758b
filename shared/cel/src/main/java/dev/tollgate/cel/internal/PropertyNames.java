package dev.tollgate.cel.internal;

import java.util.Set;

/**
 * Kubernetes' escaping of object property names in CEL field selections: {@code __underscores__} for {@code __},
 * {@code __dot__} for {@code .}, {@code __dash__} for {@code -}, {@code __slash__} for {@code /}, and
 * {@code __<keyword>__} for a property named like a CEL reserved word. Only names made of
 * {@code [a-zA-Z_.-/][a-zA-Z0-9_.-/]*} can be escaped; other names are reachable by index ({@code obj['a b']}).
 */
public final class PropertyNames {

    /** CEL's reserved words, which must be escaped as property names. */
    public static final Set<String> RESERVED = Set.of("true", "false", "null", "in", "as", "break", "const",
            "continue", "else", "for", "function", "if", "import", "let", "loop", "package", "namespace", "return",
            "var", "void", "while");

    private PropertyNames() {
    }

    /** The property name a field selection refers to; names without escapes come back unchanged. */
    public static String unescape(String field) {
        if (field.indexOf("__") < 0) {
            return field;
        }
        if (field.length() > 4 && field.startsWith("__") && field.endsWith("__")) {
            String inner = field.substring(2, field.length() - 2);
            if (RESERVED.contains(inner)) {
                return inner;
            }
        }
        StringBuilder out = new StringBuilder(field.length());
        int i = 0;
        while (i < field.length()) {
            if (field.startsWith("__", i)) {
                if (field.startsWith("__underscores__", i)) {
                    out.append("__");
                    i += "__underscores__".length();
                    continue;
                }
                if (field.startsWith("__dot__", i)) {
                    out.append('.');
                    i += "__dot__".length();
                    continue;
                }
                if (field.startsWith("__dash__", i)) {
                    out.append('-');
                    i += "__dash__".length();
                    continue;
                }
                if (field.startsWith("__slash__", i)) {
                    out.append('/');
                    i += "__slash__".length();
                    continue;
                }
            }
            out.append(field.charAt(i));
            i++;
        }
        return out.toString();
    }

    /** The escaped form of a property name, or null when the name cannot be escaped (use index access). */
    public static String escape(String name) {
        if (name.isEmpty() || !name.matches("[a-zA-Z_.\\-/][a-zA-Z0-9_.\\-/]*")) {
            return null;
        }
        if (RESERVED.contains(name)) {
            return "__" + name + "__";
        }
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < name.length()) {
            char c = name.charAt(i);
            if (c == '_' && name.startsWith("__", i)) {
                out.append("__underscores__");
                i += 2;
                continue;
            }
            switch (c) {
                case '.' -> out.append("__dot__");
                case '-' -> out.append("__dash__");
                case '/' -> out.append("__slash__");
                default -> out.append(c);
            }
            i++;
        }
        return out.toString();
    }
}
