package dev.tollgate.cel.internal;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import com.google.common.primitives.UnsignedLong;
import com.google.protobuf.ByteString;

/** CEL equality (numbers compare across int, uint and double; lists and maps deeply) and ordering. */
public final class CelCompare {

    private CelCompare() {
    }

    public static boolean equal(Object a, Object b) {
        if (a == b) {
            return true;
        }
        if (isNumber(a) && isNumber(b)) {
            return compareNumbers(a, b) == 0;
        }
        if (a instanceof List<?> la && b instanceof List<?> lb) {
            if (la.size() != lb.size()) {
                return false;
            }
            Iterator<?> ia = la.iterator();
            Iterator<?> ib = lb.iterator();
            while (ia.hasNext()) {
                if (!equal(ia.next(), ib.next())) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Map<?, ?> ma && b instanceof Map<?, ?> mb) {
            if (ma.size() != mb.size()) {
                return false;
            }
            for (Map.Entry<?, ?> e : ma.entrySet()) {
                if (!mb.containsKey(e.getKey()) || !equal(e.getValue(), mb.get(e.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        return Objects.equals(a, b);
    }

    public static boolean isNumber(Object o) {
        return o instanceof Long || o instanceof Double || o instanceof UnsignedLong || o instanceof Integer;
    }

    /** Orders two values of the same comparable CEL type (numbers across types); fails on anything else. */
    public static int compare(Object a, Object b) {
        if (isNumber(a) && isNumber(b)) {
            return compareNumbers(a, b);
        }
        if (a instanceof String sa && b instanceof String sb) {
            return compareCodePoints(sa, sb);
        }
        if (a instanceof Boolean ba && b instanceof Boolean bb) {
            return Boolean.compare(ba, bb);
        }
        if (a instanceof ByteString ba && b instanceof ByteString bb) {
            return ByteString.unsignedLexicographicalComparator().compare(ba, bb);
        }
        if (a instanceof com.google.protobuf.Duration da && b instanceof com.google.protobuf.Duration db) {
            int c = Long.compare(da.getSeconds(), db.getSeconds());
            return c != 0 ? c : Integer.compare(da.getNanos(), db.getNanos());
        }
        if (a instanceof com.google.protobuf.Timestamp ta && b instanceof com.google.protobuf.Timestamp tb) {
            int c = Long.compare(ta.getSeconds(), tb.getSeconds());
            return c != 0 ? c : Integer.compare(ta.getNanos(), tb.getNanos());
        }
        if (a instanceof java.time.Duration da && b instanceof java.time.Duration db) {
            return da.compareTo(db);
        }
        if (a instanceof java.time.Instant ia && b instanceof java.time.Instant ib) {
            return ia.compareTo(ib);
        }
        throw new IllegalArgumentException("no such overload: values of type " + typeName(a) + " and "
                + typeName(b) + " cannot be compared");
    }

    public static String typeName(Object o) {
        if (o instanceof Long || o instanceof Integer) {
            return "int";
        }
        if (o instanceof Double) {
            return "double";
        }
        if (o instanceof UnsignedLong) {
            return "uint";
        }
        if (o instanceof String) {
            return "string";
        }
        if (o instanceof Boolean) {
            return "bool";
        }
        if (o instanceof ByteString) {
            return "bytes";
        }
        if (o instanceof List<?>) {
            return "list";
        }
        if (o instanceof Map<?, ?>) {
            return "map";
        }
        return o == null ? "null" : o.getClass().getSimpleName();
    }

    private static int compareNumbers(Object a, Object b) {
        if (a instanceof Integer i) {
            a = i.longValue();
        }
        if (b instanceof Integer i) {
            b = i.longValue();
        }
        if (a instanceof Long la && b instanceof Long lb) {
            return Long.compare(la, lb);
        }
        if (a instanceof UnsignedLong ua && b instanceof UnsignedLong ub) {
            return ua.compareTo(ub);
        }
        return new java.math.BigDecimal(String.valueOf(toDouble(a))).compareTo(
                new java.math.BigDecimal(String.valueOf(toDouble(b))));
    }

    private static double toDouble(Object o) {
        if (o instanceof Long l) {
            return l;
        }
        if (o instanceof UnsignedLong u) {
            return u.doubleValue();
        }
        return (Double) o;
    }

    private static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
