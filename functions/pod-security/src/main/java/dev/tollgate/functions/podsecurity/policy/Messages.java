package dev.tollgate.functions.podsecurity.policy;

import java.util.Collection;

/** The wording helpers upstream's messages are built with, so details read exactly as the built-in plugin's. */
final class Messages {

    private Messages() {
    }

    static String pluralize(String singular, String plural, int count) {
        return count == 1 ? singular : plural;
    }

    /** {@code "a", "b", "c"}: each item in double quotes, unescaped, as upstream's joinQuote. */
    static String joinQuote(Collection<String> items) {
        if (items.isEmpty()) {
            return "";
        }
        return "\"" + String.join("\", \"", items) + "\"";
    }

    /** Go's {@code %q} of a string: double-quoted, with backslash escapes for quotes, backslashes and controls. */
    static String goQuote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        b.append(String.format("\\x%02x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /** {@code container "a"} or {@code containers "a", "b"}. */
    static String containers(Collection<String> names) {
        return pluralize("container", "containers", names.size()) + " " + joinQuote(names);
    }
}
