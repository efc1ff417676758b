package dev.tollgate.admission;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * Field readers for review bodies (AdmissionReview, ConversionReview): each names the JSON path and the type found
 * when a field is missing or of the wrong type, so every decoder reports bad input the same way.
 */
public final class JsonFields {

    private JsonFields() {
    }

    public static String requiredString(JsonNode parent, String field, String path) throws ReviewDecodeException {
        JsonNode node = parent.get(field);
        if (node == null || node.isNull()) {
            throw new ReviewDecodeException(path + ": required");
        }
        if (!node.isTextual()) {
            throw new ReviewDecodeException(path + ": expected a string, got " + type(node));
        }
        return node.textValue();
    }

    /** The string at {@code field}, or "" when it is absent or null. */
    public static String optionalString(JsonNode parent, String field, String path) throws ReviewDecodeException {
        JsonNode node = parent.get(field);
        if (node == null || node.isNull()) {
            return "";
        }
        if (!node.isTextual()) {
            throw new ReviewDecodeException(path + ": expected a string, got " + type(node));
        }
        return node.textValue();
    }

    /** "an array", "a string", ...: for messages. */
    public static String type(JsonNode node) {
        return switch (node.getNodeType()) {
            case ARRAY -> "an array";
            case OBJECT, POJO -> "an object";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> node.getNodeType().name().toLowerCase();
        };
    }

    /** Cuts a value quoted in a message to 200 characters. */
    public static String truncate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }

    static String location(JsonProcessingException e) {
        return location(e.getLocation());
    }

    static String location(com.fasterxml.jackson.core.JsonLocation at) {
        return at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    }

    /**
     * The first line of a parser's message, without the text of the input it quotes: Jackson quotes the token it
     * could not read ("Unrecognized token '...'", "Duplicate field '...'") and a number out of range
     * ("Numeric value (...)"),
     * and a refused request's text is never echoed into an answer or a log (it may be a token sent in the wrong
     * place). A quoted single character and the JSON literals Jackson names as expected stay.
     */
    static String firstLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        // Jackson names the (redacted) source inside nested locations; only the line and column help the caller.
        String line = (nl < 0 ? s : s.substring(0, nl)).replaceAll("Source: REDACTED \\([^)]*\\); ", "");
        return truncate(withoutInput(line));
    }

    private static final Pattern QUOTED = Pattern.compile("'([^']*)'");
    private static final Pattern OUT_OF_RANGE = Pattern.compile("(?<=Numeric value )\\([^)]*\\)");

    static String withoutInput(String message) {
        String unquoted = QUOTED.matcher(message).replaceAll(m -> {
            String quoted = m.group(1);
            return quoted.length() <= 1 || quoted.equals("null") || quoted.equals("true") || quoted.equals("false")
                    ? Matcher.quoteReplacement(m.group()) : "'...'";
        });
        return OUT_OF_RANGE.matcher(unquoted).replaceAll("(...)");
    }
}
