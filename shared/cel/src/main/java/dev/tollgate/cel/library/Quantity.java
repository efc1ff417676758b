package dev.tollgate.cel.library;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;

/**
 * A Kubernetes resource quantity ({@code 500m}, {@code 1.5Gi}, {@code 2e3}): an exact decimal value. Equal when the
 * values are equal ({@code 200M == 0.2G}), whatever the notation.
 */
public final class Quantity implements Comparable<Quantity> {

    private static final Map<String, BigDecimal> SUFFIXES = Map.ofEntries(
            Map.entry("n", new BigDecimal("1e-9")), Map.entry("u", new BigDecimal("1e-6")),
            Map.entry("m", new BigDecimal("1e-3")), Map.entry("", BigDecimal.ONE),
            Map.entry("k", new BigDecimal("1e3")), Map.entry("M", new BigDecimal("1e6")),
            Map.entry("G", new BigDecimal("1e9")), Map.entry("T", new BigDecimal("1e12")),
            Map.entry("P", new BigDecimal("1e15")), Map.entry("E", new BigDecimal("1e18")),
            Map.entry("Ki", new BigDecimal(BigInteger.TWO.pow(10))),
            Map.entry("Mi", new BigDecimal(BigInteger.TWO.pow(20))),
            Map.entry("Gi", new BigDecimal(BigInteger.TWO.pow(30))),
            Map.entry("Ti", new BigDecimal(BigInteger.TWO.pow(40))),
            Map.entry("Pi", new BigDecimal(BigInteger.TWO.pow(50))),
            Map.entry("Ei", new BigDecimal(BigInteger.TWO.pow(60))));

    // k8s.io/apimachinery/pkg/api/resource/quantity.go: ErrFormatWrong, ErrNumeric, ErrSuffix
    private static final String FORMAT_ERROR =
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    private static final String NUMERIC_ERROR = "unable to parse numeric part of quantity";
    private static final String SUFFIX_ERROR = "unable to parse quantity's suffix";
    private static final String SUFFIX_CHARS = "eEinumkKMGTP";
    /** Decimal exponents beyond this are refused (Go accepts any int32 exponent; BigDecimal arithmetic would not end). */
    private static final int MAX_EXPONENT = 1000;
    private static final BigDecimal NANO = new BigDecimal("1e-9");
    private static final BigDecimal MAX_INT64 = BigDecimal.valueOf(Long.MAX_VALUE);

    final BigDecimal value;

    Quantity(BigDecimal value) {
        this.value = value;
    }

    /**
     * Go's {@code resource.ParseQuantity}, its scanner ({@code parseQuantityString}) step by step: sign, digits,
     * {@code .}digits, then a suffix of {@code eEinumkKMGTP} letters with an optional signed exponent; a suffix that
     * is none of the known ones is "unable to parse quantity's suffix", anything else malformed the regular
     * expression message. Values round up to the nearest nano (non-zero values stay non-zero), binary-suffixed ones
     * are capped at 2^63-1, as upstream.
     */
    public static Quantity parse(String s) {
        if (s.isEmpty()) {
            throw new IllegalArgumentException(FORMAT_ERROR);
        }
        int end = s.length();
        int pos = 0;
        boolean positive = true;
        if (s.charAt(0) == '-' || s.charAt(0) == '+') {
            positive = s.charAt(0) == '+';
            pos++;
        }
        while (pos < end && s.charAt(pos) == '0') {
            pos++;
        }
        if (pos >= end) {
            return new Quantity(BigDecimal.ZERO);
        }
        int numStart = pos;
        while (pos < end && isDigit(s.charAt(pos))) {
            pos++;
        }
        String num = s.substring(numStart, pos);
        String denom = "";
        if (pos < end && s.charAt(pos) == '.') {
            pos++;
            int denomStart = pos;
            while (pos < end && isDigit(s.charAt(pos))) {
                pos++;
            }
            denom = s.substring(denomStart, pos);
        }
        String suffix = "";
        if (pos < end) {
            int suffixStart = pos;
            while (pos < end && SUFFIX_CHARS.indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
            if (pos < end && (s.charAt(pos) == '-' || s.charAt(pos) == '+')) {
                pos++;
            }
            while (pos < end && isDigit(s.charAt(pos))) {
                pos++;
            }
            if (pos < end) {
                throw new IllegalArgumentException(FORMAT_ERROR);
            }
            suffix = s.substring(suffixStart);
        }
        BigDecimal multiplier = SUFFIXES.get(suffix);
        boolean binary = suffix.endsWith("i");
        if (multiplier == null) {
            multiplier = exponent(suffix);
        }
        BigDecimal amount;
        try {
            amount = new BigDecimal((num.isEmpty() ? "0" : num) + (denom.isEmpty() ? "" : "." + denom));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(NUMERIC_ERROR);
        }
        amount = amount.multiply(multiplier);
        if (amount.signum() != 0) {
            amount = amount.divide(NANO).setScale(0, java.math.RoundingMode.UP).multiply(NANO);   // inf.RoundUp
        }
        if (binary && amount.compareTo(MAX_INT64) > 0) {
            amount = MAX_INT64;
        }
        return new Quantity(positive ? amount : amount.negate());
    }

    /** quantitySuffixer.interpret's last case: {@code e<int>} / {@code E<int>}. */
    private static BigDecimal exponent(String suffix) {
        if (suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')) {
            long exp;
            try {
                exp = Long.parseLong(suffix.substring(1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(SUFFIX_ERROR);
            }
            if (Math.abs(exp) > MAX_EXPONENT) {
                throw new IllegalArgumentException("quantity exponent out of range: " + suffix);
            }
            return BigDecimal.ONE.scaleByPowerOfTen((int) exp);
        }
        throw new IllegalArgumentException(SUFFIX_ERROR);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    public static boolean isValid(String s) {
        try {
            parse(s);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    public long sign() {
        return value.signum();
    }

    public boolean isInteger() {
        if (value.signum() != 0 && value.stripTrailingZeros().scale() > 0) {
            return false;
        }
        return value.toBigInteger().bitLength() < 64;
    }

    public long asInteger() {
        if (!isInteger()) {
            throw new IllegalArgumentException("cannot convert value to integer");
        }
        return value.longValueExact();
    }

    public double asApproximateFloat() {
        return value.doubleValue();
    }

    public Quantity add(Quantity other) {
        return new Quantity(value.add(other.value));
    }

    public Quantity sub(Quantity other) {
        return new Quantity(value.subtract(other.value));
    }

    @Override
    public int compareTo(Quantity o) {
        return value.compareTo(o.value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Quantity q && q.value.compareTo(value) == 0;
    }

    @Override
    public int hashCode() {
        return value.signum() == 0 ? 0 : value.stripTrailingZeros().hashCode();
    }

    @Override
    public String toString() {
        return value.stripTrailingZeros().toPlainString();
    }
}
