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

    private static final String FORMAT_ERROR =
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

    final BigDecimal value;

    Quantity(BigDecimal value) {
        this.value = value;
    }

    public static Quantity parse(String s) {
        if (s.isEmpty()) {
            throw new IllegalArgumentException("quantities must not be empty: " + FORMAT_ERROR);
        }
        int i = 0;
        if (s.charAt(0) == '+' || s.charAt(0) == '-') {
            i++;
        }
        int numStart = i;
        int dots = 0;
        int digits = 0;
        while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
            if (s.charAt(i) == '.') {
                dots++;
            } else {
                digits++;
            }
            i++;
        }
        if (digits == 0 || dots > 1) {
            throw new IllegalArgumentException(FORMAT_ERROR);
        }
        String number = s.substring(0, i);
        String suffix = s.substring(i);
        BigDecimal multiplier = SUFFIXES.get(suffix);
        if (multiplier == null) {
            if (suffix.length() >= 2 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')
                    && suffix.substring(1).matches("[-+]?[0-9]+")) {
                int exp;
                try {
                    exp = Integer.parseInt(suffix.substring(1));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(FORMAT_ERROR);
                }
                if (Math.abs(exp) > 1000) {
                    throw new IllegalArgumentException("quantity exponent out of range: " + s);
                }
                multiplier = BigDecimal.ONE.scaleByPowerOfTen(exp);
            } else {
                throw new IllegalArgumentException(FORMAT_ERROR);
            }
        }
        String n = number.substring(numStart).startsWith(".") ? number.replaceFirst("\\.", "0.") : number;
        if (n.endsWith(".")) {
            n = n + "0";
        }
        return new Quantity(new BigDecimal(n).multiply(multiplier));
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
