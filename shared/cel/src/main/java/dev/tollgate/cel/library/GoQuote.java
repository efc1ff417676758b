package dev.tollgate.cel.library;

/**
 * Go's {@code strconv.Quote} (and {@code fmt}'s {@code %q} of a string): double quotes, with backslash escapes for
 * {@code "}, {@code \}, the C escapes ({@code \a \b \f \n \r \t \v}), other control characters as {@code \xNN}, and
 * code points Go does not count as printable ({@code unicode.IsPrint}: not a letter, mark, number, punctuation or
 * symbol, other than the ASCII space) as {@code \\uNNNN} or {@code \UNNNNNNNN}.
 */
final class GoQuote {

    private GoQuote() {
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        s.codePoints().forEach(cp -> {
            switch (cp) {
                case 0x07 -> sb.append("\\a");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case 0x0b -> sb.append("\\v");
                case '\\' -> sb.append("\\\\");
                case '"' -> sb.append("\\\"");
                default -> {
                    if (cp == ' ' || printable(cp)) {
                        sb.appendCodePoint(cp);
                    } else if (cp < 0x20 || cp == 0x7f) {
                        sb.append(String.format("\\x%02x", cp));
                    } else if (cp < 0x10000) {
                        sb.append(String.format("\\u%04x", cp));
                    } else {
                        sb.append(String.format("\\U%08x", cp));
                    }
                }
            }
        });
        return sb.append('"').toString();
    }

    private static boolean printable(int cp) {
        return switch (Character.getType(cp)) {
            case Character.UNASSIGNED, Character.CONTROL, Character.FORMAT, Character.PRIVATE_USE,
                    Character.SURROGATE, Character.SPACE_SEPARATOR, Character.LINE_SEPARATOR,
                    Character.PARAGRAPH_SEPARATOR -> false;
            default -> true;
        };
    }
}
