package dev.tollgate.cel.internal;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.common.primitives.UnsignedLong;
import com.google.protobuf.ByteString;
import com.google.protobuf.Duration;
import com.google.protobuf.NullValue;
import com.google.protobuf.Timestamp;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.MapType;
import dev.cel.common.types.OptionalType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeParamType;
import dev.cel.extensions.CelExtensionLibrary;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelMacro;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelStandardFunctions;
import dev.cel.runtime.CelStandardFunctions.StandardFunction.Overload.Conversions;

/**
 * Where cel-java and cel-go (the API server's CEL) disagree, this library gives cel-go's answer. Each difference is
 * small and named after the cel-go source that defines it:
 *
 * <ul>
 * <li>{@code string(double)} formats as Go's {@code %g} ({@code 10.0 -> "10"}, {@code 1e6 -> "1e+06"}):
 * cel-go common/types/double.go ConvertToType.</li>
 * <li>{@code timestamp(string)} parses Go's RFC 3339 ({@code time.Parse(time.RFC3339, ...)}: real calendar fields,
 * upper-case {@code T}/{@code Z}) and refuses instants outside 0001-01-01..9999-12-31: cel-go common/types/string.go
 * ConvertToType and common/types/timestamp.go (minUnixTime, maxUnixTime).</li>
 * <li>{@code optional.ofNonZeroValue(x)} is none exactly for cel-go's zero values (null, false, 0, 0u, 0.0, '',
 * b'', [], {}, duration 0, the zero time 0001-01-01T00:00:00Z, an empty optional), not for the Unix epoch:
 * cel-go common/types/optional.go and the {@code IsZeroValue} methods of common/types/*.go.</li>
 * <li>{@code x.?f} on an optional operand selects inside it (none stays none), on a dyn operand that turns out to
 * be an optional too: cel-go interpreter/attributes.go (optional field selection) and ext/../optional support in
 * cel/library.go.</li>
 * <li>{@code existsOne(k, v, p)}, the two-variable name cel-go gives {@code exists_one}: cel-go ext/comprehensions.go
 * (TwoVarComprehensions, which Kubernetes enables).</li>
 * </ul>
 */
public final class CelGoSemantics implements KubeLibrary {

    /** Function that {@code optional.ofNonZeroValue(x)} is rewritten to (see {@link #macros()}). */
    static final String OF_NON_ZERO_VALUE = "optional.@ofNonZeroValue";
    /** Functions that {@code x.?f} is rewritten to when {@code x} is optional or dyn (see ExpressionSet). */
    public static final String SELECT_IN_OPTIONAL = "@selectOptionalFieldOfOptional";
    public static final String SELECT_IN_DYN = "@selectOptionalFieldOfDyn";

    // cel-go's valid timestamp range: 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59.999999999Z
    static final long MIN_UNIX_SECONDS = -62_135_596_800L;
    static final long MAX_UNIX_SECONDS = 253_402_300_799L;

    private static final Pattern RFC3339 = Pattern.compile(
            "(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d+))?(Z|([+-])(\\d{2}):(\\d{2}))");

    /** The standard runtime functions, without the overloads this library replaces. */
    public static CelStandardFunctions standardFunctions() {
        return CelStandardFunctions.newBuilder()
                .filterFunctions((function, overload) -> overload != Conversions.DOUBLE_TO_STRING
                        && overload != Conversions.STRING_TO_TIMESTAMP
                        // list[i]: dev.tollgate.cel.ListIndex, with cel-go's errors
                        && overload != CelStandardFunctions.StandardFunction.Overload.Index.INDEX_LIST)
                .build();
    }

    @Override
    public List<CelFunctionDecl> functions() {
        TypeParamType v = TypeParamType.create("V");
        return List.of(
                newFunctionDeclaration(OF_NON_ZERO_VALUE, newGlobalOverload("tollgate_of_non_zero_value",
                        OptionalType.create(v), v)),
                newFunctionDeclaration(SELECT_IN_OPTIONAL, newGlobalOverload("tollgate_select_optional_of_optional",
                        OptionalType.create(v), OptionalType.create(MapType.create(SimpleType.STRING, v)),
                        SimpleType.STRING)),
                newFunctionDeclaration(SELECT_IN_DYN, newGlobalOverload("tollgate_select_optional_of_dyn",
                        OptionalType.create(SimpleType.DYN), SimpleType.DYN, SimpleType.STRING)));
    }

    @Override
    public List<CelFunctionBinding> bindings() {
        return List.of(
                // the overload ids of the standard functions they replace
                CelFunctionBinding.from("double_to_string", Double.class, CelGoSemantics::formatDouble),
                CelFunctionBinding.from("string_to_timestamp", String.class, CelGoSemantics::parseTimestamp),
                CelFunctionBinding.from("tollgate_of_non_zero_value", Object.class,
                        x -> isZeroValue(x) ? Optional.empty() : Optional.of(x)),
                CelFunctionBinding.from("tollgate_select_optional_of_optional", Optional.class, String.class,
                        CelGoSemantics::selectOptional),
                CelFunctionBinding.from("tollgate_select_optional_of_dyn", Object.class, String.class,
                        CelGoSemantics::selectOptional));
    }

    @Override
    public List<CelMacro> macros() {
        CelMacro existsOne = ((CelExtensionLibrary.FeatureSet) CelExtensions.comprehensions()).macros().stream()
                .filter(m -> m.getFunction().equals("exists_one") && m.getArgumentCount() == 3)
                .findFirst().orElseThrow();
        return List.of(
                CelMacro.newReceiverMacro("existsOne", 3, existsOne.getExpander()),
                // optional.ofNonZeroValue(x) parses as a receiver call on the identifier 'optional'
                CelMacro.newReceiverMacro("ofNonZeroValue", 1, (factory, target, args) -> {
                    if (target.getKind() == CelExpr.ExprKind.Kind.IDENT && target.ident().name().equals("optional")) {
                        return Optional.of(factory.newGlobalCall(OF_NON_ZERO_VALUE, args.get(0)));
                    }
                    return Optional.empty();
                }));
    }

    /** Go's {@code fmt.Sprintf("%g", d)}: shortest digits, exponent form below 1e-4 and from 1e+06. */
    public static String formatDouble(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "+Inf" : "-Inf";
        }
        if (d == 0) {
            return (1 / d) < 0 ? "-0" : "0";
        }
        BigDecimal shortest = null;
        for (int digits = 1; digits <= 17; digits++) {
            BigDecimal candidate = new BigDecimal(d).round(new MathContext(digits, RoundingMode.HALF_EVEN));
            if (candidate.doubleValue() == d) {
                shortest = candidate;
                break;
            }
        }
        BigDecimal value = shortest.stripTrailingZeros();
        String unscaled = value.unscaledValue().abs().toString();
        int exponent = unscaled.length() - 1 - value.scale();
        String sign = value.signum() < 0 ? "-" : "";
        if (exponent < -4 || exponent >= 6) {
            String mantissa = unscaled.length() == 1 ? unscaled : unscaled.charAt(0) + "." + unscaled.substring(1);
            String exp = String.format("%02d", Math.abs(exponent));
            return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + exp;
        }
        return sign + value.abs().toPlainString();
    }

    /** Go's {@code time.Parse(time.RFC3339, s)}, then cel-go's range check. */
    public static Timestamp parseTimestamp(String s) {
        Matcher m = RFC3339.matcher(s);
        if (!m.matches()) {
            throw new IllegalArgumentException("timestamp '" + s + "' is not RFC 3339 (e.g. 2006-01-02T15:04:05Z)");
        }
        int year = Integer.parseInt(m.group(1));
        int month = Integer.parseInt(m.group(2));
        int day = Integer.parseInt(m.group(3));
        int hour = Integer.parseInt(m.group(4));
        int minute = Integer.parseInt(m.group(5));
        int second = Integer.parseInt(m.group(6));
        String field = month < 1 || month > 12 ? "month"
                : day < 1 || day > LocalDate.of(year, month, 1).lengthOfMonth() ? "day"
                : hour > 23 ? "hour" : minute > 59 ? "minute" : second > 59 ? "second" : null;
        if (field != null) {
            throw new IllegalArgumentException("timestamp '" + s + "': " + field + " out of range");
        }
        String fraction = m.group(7) == null ? "" : m.group(7);
        int nanos = fraction.isEmpty() ? 0
                : Integer.parseInt((fraction.length() > 9 ? fraction.substring(0, 9) : fraction + "000000000")
                        .substring(0, 9));
        int offsetSeconds = 0;
        if (m.group(9) != null) {
            int oh = Integer.parseInt(m.group(10));
            int om = Integer.parseInt(m.group(11));
            if (oh > 24 || om > 59) {
                throw new IllegalArgumentException("timestamp '" + s + "': time zone offset out of range");
            }
            offsetSeconds = (m.group(9).equals("-") ? -1 : 1) * (oh * 3600 + om * 60);
        }
        long seconds = LocalDateTime.of(year, month, day, hour, minute, second).toEpochSecond(ZoneOffset.UTC)
                - offsetSeconds;
        return checkedTimestamp(seconds, nanos);
    }

    static Timestamp checkedTimestamp(long seconds, int nanos) {
        if (seconds < MIN_UNIX_SECONDS || seconds > MAX_UNIX_SECONDS) {
            throw new IllegalArgumentException("timestamp out of range");
        }
        return Timestamp.newBuilder().setSeconds(seconds).setNanos(nanos).build();
    }

    /** cel-go's zero values (the {@code IsZeroValue} methods of common/types). */
    static boolean isZeroValue(Object x) {
        if (x == null || x instanceof NullValue) {
            return true;
        }
        if (x instanceof Boolean b) {
            return !b;
        }
        if (x instanceof Long l) {
            return l == 0;
        }
        if (x instanceof UnsignedLong u) {
            return u.longValue() == 0;
        }
        if (x instanceof Double d) {
            return d == 0;
        }
        if (x instanceof String s) {
            return s.isEmpty();
        }
        if (x instanceof ByteString b) {
            return b.isEmpty();
        }
        if (x instanceof Collection<?> c) {
            return c.isEmpty();
        }
        if (x instanceof Map<?, ?> map) {
            return map.isEmpty();
        }
        if (x instanceof Duration d) {
            return d.getSeconds() == 0 && d.getNanos() == 0;
        }
        if (x instanceof Timestamp t) {
            return t.getSeconds() == MIN_UNIX_SECONDS && t.getNanos() == 0;   // Go's time.Time{}.IsZero()
        }
        if (x instanceof Optional<?> o) {
            return o.isEmpty();
        }
        return false;
    }

    /** {@code x.?field}: none when x is none or lacks the key; else an optional of the value. */
    private static Object selectOptional(Object operand, String field) {
        Object target = operand;
        if (target instanceof Optional<?> o) {
            if (o.isEmpty()) {
                return Optional.empty();
            }
            target = o.get();
        }
        if (target instanceof Map<?, ?> map) {
            return map.containsKey(field) ? Optional.of(map.get(field)) : Optional.empty();
        }
        throw new IllegalArgumentException("no such overload: optional field selection '." + "?" + field
                + "' needs a map, got " + CelCompare.typeName(target));
    }
}
