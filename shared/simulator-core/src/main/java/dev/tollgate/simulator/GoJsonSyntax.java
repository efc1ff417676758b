package dev.tollgate.simulator;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Go's JSON syntax check, with Go's words: what {@code json.Unmarshal} reports before it decodes anything
 * ({@code encoding/json/scanner.go}: {@code invalid character 'x' looking for beginning of value},
 * {@code unexpected end of JSON input}, ...). The API server's webhook client reports these for an answer that
 * starts like JSON and is not; Jackson's messages say the same things differently.
 */
final class GoJsonSyntax {

    /** encoding/json's limit on nesting. */
    private static final int MAX_NESTING_DEPTH = 10000;

    private enum Container { OBJECT_KEY, OBJECT_VALUE, ARRAY_VALUE }

    private enum State {
        BEGIN_VALUE, BEGIN_VALUE_OR_EMPTY, BEGIN_STRING_OR_EMPTY, BEGIN_STRING, END_VALUE, END_TOP,
        IN_STRING, IN_STRING_ESC, IN_STRING_ESC_U, IN_STRING_ESC_U1, IN_STRING_ESC_U12, IN_STRING_ESC_U123,
        NEG, ONE, ZERO, DOT, DOT0, E, E_SIGN, E0,
        T, TR, TRU, F, FA, FAL, FALS, N, NU, NUL
    }

    private final Deque<Container> stack = new ArrayDeque<>();
    private State state = State.BEGIN_VALUE;
    private String error;

    private GoJsonSyntax() {
    }

    /** Go's syntax error for these bytes, or null when Go reads them as one JSON value. */
    static String error(byte[] data) {
        GoJsonSyntax s = new GoJsonSyntax();
        for (byte b : data) {
            s.step(b & 0xFF);
            if (s.error != null) {
                return s.error;
            }
        }
        // scanner.eof: a space ends a number or closes nothing; whatever is still open is an unexpected end.
        if (s.state == State.END_TOP) {
            return null;
        }
        s.step(' ');
        if (s.state == State.END_TOP) {
            return null;
        }
        return s.error != null ? s.error : "unexpected end of JSON input";
    }

    private static boolean isSpace(int c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHex(int c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private void fail(int c, String context) {
        error = "invalid character " + quoteChar(c) + " " + context;
    }

    private void push(int c, Container container, State next) {
        stack.push(container);
        if (stack.size() > MAX_NESTING_DEPTH) {
            fail(c, "exceeded max depth");
        } else {
            state = next;
        }
    }

    private void step(int c) {
        switch (state) {
            case BEGIN_VALUE_OR_EMPTY -> {
                if (isSpace(c)) {
                    return;
                }
                if (c == ']') {
                    endContainer();
                    return;
                }
                beginValue(c);
            }
            case BEGIN_VALUE -> beginValue(c);
            case BEGIN_STRING_OR_EMPTY -> {
                if (isSpace(c)) {
                    return;
                }
                if (c == '}') {
                    stack.pop();
                    stack.push(Container.OBJECT_VALUE);
                    endContainer();
                    return;
                }
                beginString(c);
            }
            case BEGIN_STRING -> beginString(c);
            case END_VALUE -> endValue(c);
            case END_TOP -> {
                if (!isSpace(c)) {
                    fail(c, "after top-level value");
                }
            }
            case IN_STRING -> {
                if (c == '"') {
                    state = State.END_VALUE;
                } else if (c == '\\') {
                    state = State.IN_STRING_ESC;
                } else if (c < 0x20) {
                    fail(c, "in string literal");
                }
            }
            case IN_STRING_ESC -> {
                if ("bfnrt\\/\"".indexOf(c) >= 0) {
                    state = State.IN_STRING;
                } else if (c == 'u') {
                    state = State.IN_STRING_ESC_U;
                } else {
                    fail(c, "in string escape code");
                }
            }
            case IN_STRING_ESC_U, IN_STRING_ESC_U1, IN_STRING_ESC_U12, IN_STRING_ESC_U123 -> {
                if (!isHex(c)) {
                    fail(c, "in \\u hexadecimal character escape");
                    return;
                }
                state = switch (state) {
                    case IN_STRING_ESC_U -> State.IN_STRING_ESC_U1;
                    case IN_STRING_ESC_U1 -> State.IN_STRING_ESC_U12;
                    case IN_STRING_ESC_U12 -> State.IN_STRING_ESC_U123;
                    default -> State.IN_STRING;
                };
            }
            case NEG -> {
                if (c == '0') {
                    state = State.ZERO;
                } else if (c >= '1' && c <= '9') {
                    state = State.ONE;
                } else {
                    fail(c, "in numeric literal");
                }
            }
            case ONE -> {
                if (!isDigit(c)) {
                    zero(c);
                }
            }
            case ZERO -> zero(c);
            case DOT -> {
                if (isDigit(c)) {
                    state = State.DOT0;
                } else {
                    fail(c, "after decimal point in numeric literal");
                }
            }
            case DOT0 -> {
                if (c == 'e' || c == 'E') {
                    state = State.E;
                } else if (!isDigit(c)) {
                    endValue(c);
                }
            }
            case E -> {
                if (c == '+' || c == '-') {
                    state = State.E_SIGN;
                } else {
                    eSign(c);
                }
            }
            case E_SIGN -> eSign(c);
            case E0 -> {
                if (!isDigit(c)) {
                    endValue(c);
                }
            }
            case T -> literal(c, 'r', State.TR, "true");
            case TR -> literal(c, 'u', State.TRU, "true");
            case TRU -> literal(c, 'e', State.END_VALUE, "true");
            case F -> literal(c, 'a', State.FA, "false");
            case FA -> literal(c, 'l', State.FAL, "false");
            case FAL -> literal(c, 's', State.FALS, "false");
            case FALS -> literal(c, 'e', State.END_VALUE, "false");
            case N -> literal(c, 'u', State.NU, "null");
            case NU -> literal(c, 'l', State.NUL, "null");
            case NUL -> literal(c, 'l', State.END_VALUE, "null");
            default -> throw new IllegalStateException(state.name());
        }
    }

    private void beginValue(int c) {
        if (isSpace(c)) {
            return;
        }
        switch (c) {
            case '{' -> push(c, Container.OBJECT_KEY, State.BEGIN_STRING_OR_EMPTY);
            case '[' -> push(c, Container.ARRAY_VALUE, State.BEGIN_VALUE_OR_EMPTY);
            case '"' -> state = State.IN_STRING;
            case '-' -> state = State.NEG;
            case '0' -> state = State.ZERO;
            case 't' -> state = State.T;
            case 'f' -> state = State.F;
            case 'n' -> state = State.N;
            default -> {
                if (c >= '1' && c <= '9') {
                    state = State.ONE;
                } else {
                    fail(c, "looking for beginning of value");
                }
            }
        }
    }

    private void beginString(int c) {
        if (isSpace(c)) {
            return;
        }
        if (c == '"') {
            state = State.IN_STRING;
        } else {
            fail(c, "looking for beginning of object key string");
        }
    }

    private void zero(int c) {
        if (c == '.') {
            state = State.DOT;
        } else if (c == 'e' || c == 'E') {
            state = State.E;
        } else {
            endValue(c);
        }
    }

    private void eSign(int c) {
        if (isDigit(c)) {
            state = State.E0;
        } else {
            fail(c, "in exponent of numeric literal");
        }
    }

    private void literal(int c, char expected, State next, String word) {
        if (c == expected) {
            state = next;
        } else {
            fail(c, "in literal " + word + " (expecting " + quoteChar(expected) + ")");
        }
    }

    /** After a complete value: what the enclosing container allows next. */
    private void endValue(int c) {
        if (stack.isEmpty()) {
            state = State.END_TOP;
            step(c);
            return;
        }
        if (isSpace(c)) {
            state = State.END_VALUE;
            return;
        }
        switch (stack.peek()) {
            case OBJECT_KEY -> {
                if (c == ':') {
                    stack.pop();
                    stack.push(Container.OBJECT_VALUE);
                    state = State.BEGIN_VALUE;
                } else {
                    fail(c, "after object key");
                }
            }
            case OBJECT_VALUE -> {
                if (c == ',') {
                    stack.pop();
                    stack.push(Container.OBJECT_KEY);
                    state = State.BEGIN_STRING;
                } else if (c == '}') {
                    endContainer();
                } else {
                    fail(c, "after object key:value pair");
                }
            }
            case ARRAY_VALUE -> {
                if (c == ',') {
                    state = State.BEGIN_VALUE;
                } else if (c == ']') {
                    endContainer();
                } else {
                    fail(c, "after array element");
                }
            }
            default -> throw new IllegalStateException();
        }
    }

    private void endContainer() {
        stack.pop();
        state = stack.isEmpty() ? State.END_TOP : State.END_VALUE;
    }

    /** Go's quoteChar: the byte in single quotes, escaped as strconv.Quote escapes it. */
    static String quoteChar(int c) {
        if (c == '\'') {
            return "'\\''";
        }
        if (c == '"') {
            return "'\"'";
        }
        String inner = switch (c) {
            case 0x07 -> "\\a";
            case '\b' -> "\\b";
            case '\f' -> "\\f";
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case '\t' -> "\\t";
            case 0x0B -> "\\v";
            case '\\' -> "\\\\";
            default -> {
                if (c < 0x20 || c == 0x7F) {
                    yield String.format("\\x%02x", c);
                }
                if ((c >= 0x80 && c <= 0xA0) || c == 0xAD) {
                    yield String.format("\\u%04x", c); // not printable to Go (unicode.IsPrint)
                }
                yield String.valueOf((char) c);
            }
        };
        return "'" + inner + "'";
    }
}
