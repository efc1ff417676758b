package dev.tollgate.cel.library;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.google.common.primitives.UnsignedLong;
import com.google.protobuf.ByteString;
import com.google.protobuf.NullValue;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import dev.tollgate.cel.internal.KubeLibrary;

/**
 * The parts of cel-go's strings extension (the version Kubernetes enables) that cel-java's strings extension lacks:
 * {@code '<fmt>'.format([args])}, {@code strings.quote(s)} and {@code s.reverse()}.
 */
public final class StringsExtras implements KubeLibrary {

    private static final String SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹";

    @Override
    public List<CelFunctionDecl> functions() {
        return List.of(
                newFunctionDeclaration("format", newMemberOverload("string_format_list", SimpleType.STRING,
                        SimpleType.STRING, ListType.create(SimpleType.DYN))),
                newFunctionDeclaration("strings.quote",
                        newGlobalOverload("strings_quote", SimpleType.STRING, SimpleType.STRING)),
                newFunctionDeclaration("reverse",
                        newMemberOverload("string_reverse", SimpleType.STRING, SimpleType.STRING)));
    }

    @Override
    public List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_format_list", String.class, List.class, StringsExtras::format),
                CelFunctionBinding.from("strings_quote", String.class, StringsExtras::quote),
                CelFunctionBinding.from("string_reverse", String.class,
                        s -> new StringBuilder(s).reverse().toString()));
    }

    static String format(String fmt, List<?> args) {
        StringBuilder out = new StringBuilder();
        int next = 0;
        for (int i = 0; i < fmt.length(); i++) {
            char c = fmt.charAt(i);
            if (c != '%') {
                out.append(c);
                continue;
            }
            if (++i >= fmt.length()) {
                throw new IllegalArgumentException("format: expected a verb after '%' at the end of the string");
            }
            if (fmt.charAt(i) == '%') {
                out.append('%');
                continue;
            }
            Integer precision = null;
            if (fmt.charAt(i) == '.') {
                int start = ++i;
                while (i < fmt.length() && Character.isDigit(fmt.charAt(i))) {
                    i++;
                }
                if (start == i || i >= fmt.length()) {
                    throw new IllegalArgumentException("format: malformed precision in '" + fmt + "'");
                }
                precision = Integer.parseInt(fmt.substring(start, i));
            }
            char verb = fmt.charAt(i);
            if (next >= args.size()) {
                throw new IllegalArgumentException("index " + next + " out of range");
            }
            out.append(formatOne(verb, precision, args.get(next++)));
        }
        return out.toString();
    }

    private static String formatOne(char verb, Integer precision, Object arg) {
        switch (verb) {
            case 's':
                return asString(arg);
            case 'd':
                if (arg instanceof Long || arg instanceof UnsignedLong) {
                    return arg.toString();
                }
                throw unsupported(verb, arg, "integer");
            case 'f':
                return fixed(number(verb, arg), precision == null ? 6 : precision);
            case 'e':
                return scientific(number(verb, arg), precision == null ? 6 : precision);
            case 'b':
                return radix(verb, arg, 2);
            case 'o':
                return radix(verb, arg, 8);
            case 'x':
            case 'X': {
                String s;
                if (arg instanceof String str) {
                    s = hex(str.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                } else if (arg instanceof ByteString b) {
                    s = hex(b.toByteArray());
                } else {
                    s = radix(verb, arg, 16);
                }
                return verb == 'X' ? s.toUpperCase(Locale.ROOT) : s;
            }
            default:
                throw new IllegalArgumentException("could not parse formatting clause: unrecognized formatting clause \""
                        + verb + "\"");
        }
    }

    private static IllegalArgumentException unsupported(char verb, Object arg, String wanted) {
        return new IllegalArgumentException("error during formatting: %" + verb + " expects " + wanted
                + ", got " + dev.tollgate.cel.internal.CelCompare.typeName(arg));
    }

    private static double number(char verb, Object arg) {
        if (arg instanceof Double d) {
            return d;
        }
        if (arg instanceof Long l) {
            return l;
        }
        if (arg instanceof UnsignedLong u) {
            return u.doubleValue();
        }
        if (arg instanceof String s && (s.equals("NaN") || s.equals("Infinity") || s.equals("-Infinity"))) {
            return Double.parseDouble(s);
        }
        throw unsupported(verb, arg, "a number");
    }

    private static String fixed(double d, int precision) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return nonFinite(d);
        }
        return new BigDecimal(d).setScale(precision, RoundingMode.HALF_EVEN).toPlainString();
    }

    /** cel-go renders %e as mantissa, "×10" and a superscript exponent of at least two digits. */
    private static String scientific(double d, int precision) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return nonFinite(d);
        }
        String java = String.format(Locale.ROOT, "%." + precision + "e", d);
        int e = java.indexOf('e');
        String mantissa = java.substring(0, e);
        int exp = Integer.parseInt(java.substring(e + 1));
        StringBuilder sup = new StringBuilder();
        if (exp < 0) {
            sup.append('⁻');
        }
        String digits = String.format(Locale.ROOT, "%02d", Math.abs(exp));
        for (char c : digits.toCharArray()) {
            sup.append(SUPERSCRIPT.charAt(c - '0'));
        }
        return mantissa + "×10" + sup;
    }

    private static String nonFinite(double d) {
        return Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity";
    }

    private static String radix(char verb, Object arg, int radix) {
        if (arg instanceof Long l) {
            return l < 0 ? "-" + Long.toString(-l, radix) : Long.toString(l, radix);
        }
        if (arg instanceof UnsignedLong u) {
            return u.bigIntegerValue().toString(radix);
        }
        if (arg instanceof Boolean b && radix == 2) {
            return b ? "1" : "0";
        }
        throw unsupported(verb, arg, "an integer");
    }

    private static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder();
        for (byte b : bytes) {
            sb.append(String.format("%02x", b & 0xff));
        }
        return sb.toString();
    }

    static String asString(Object arg) {
        if (arg == null || arg instanceof NullValue) {
            return "null";
        }
        if (arg instanceof String s) {
            return s;
        }
        if (arg instanceof Double d) {
            if (d == Math.rint(d) && !Double.isInfinite(d) && Math.abs(d) < 1e21) {
                return String.valueOf(d.longValue());
            }
            return String.valueOf(d);
        }
        if (arg instanceof ByteString b) {
            return b.toStringUtf8();
        }
        if (arg instanceof com.google.protobuf.Duration d) {
            return durationString(d);
        }
        if (arg instanceof com.google.protobuf.Timestamp t) {
            return timestampString(t);
        }
        if (arg instanceof List<?> list) {
            StringBuilder sb = new StringBuilder("[");
            for (int i = 0; i < list.size(); i++) {
                sb.append(i > 0 ? ", " : "").append(asString(list.get(i)));
            }
            return sb.append(']').toString();
        }
        if (arg instanceof Map<?, ?> map) {
            StringBuilder sb = new StringBuilder("{");
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                sb.append(first ? "" : ", ").append(asString(e.getKey())).append(": ").append(asString(e.getValue()));
                first = false;
            }
            return sb.append('}').toString();
        }
        return arg.toString();
    }

    /**
     * cel-go's {@code string(duration)}, which {@code %s} uses at any depth of a list or map argument (cel-go
     * common/types/duration.go ConvertToType: {@code strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"}):
     * {@code 3600s}, {@code 1.5s}, {@code 0.000000001s}.
     */
    static String durationString(com.google.protobuf.Duration d) {
        long total = d.getSeconds() * 1_000_000_000L + d.getNanos();   // Go's time.Duration.Seconds()
        double seconds = (double) (total / 1_000_000_000L) + (double) (total % 1_000_000_000L) / 1e9;
        return new BigDecimal(Double.toString(seconds)).stripTrailingZeros().toPlainString() + "s";
    }

    /**
     * cel-go's {@code string(timestamp)} (common/types/timestamp.go ConvertToType: Go's {@code time.RFC3339Nano} in
     * UTC): {@code 2023-01-02T03:04:05Z}, fractional seconds without trailing zeros ({@code .5Z}).
     */
    static String timestampString(com.google.protobuf.Timestamp t) {
        java.time.LocalDateTime dt = java.time.LocalDateTime.ofEpochSecond(t.getSeconds(), 0, java.time.ZoneOffset.UTC);
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%04d-%02d-%02dT%02d:%02d:%02d",
                dt.getYear(), dt.getMonthValue(), dt.getDayOfMonth(), dt.getHour(), dt.getMinute(), dt.getSecond()));
        if (t.getNanos() != 0) {
            sb.append('.').append(String.format(Locale.ROOT, "%09d", t.getNanos()).replaceFirst("0+$", ""));
        }
        return sb.append('Z').toString();
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
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
                default -> sb.appendCodePoint(cp);
            }
        });
        return sb.append('"').toString();
    }
}
