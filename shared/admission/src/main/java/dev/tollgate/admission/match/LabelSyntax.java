package dev.tollgate.admission.match;

import java.util.regex.Pattern;

/** The syntax of label keys, values and qualified names, as the API server validates them. */
public final class LabelSyntax {

    private static final Pattern NAME_PART = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
    private static final Pattern DNS1123_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern DNS1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    private LabelSyntax() {
    }

    /** A qualified name: an optional DNS subdomain prefix and '/', then a name part of at most 63 characters. */
    public static boolean isQualifiedName(String s) {
        if (s == null || s.isEmpty()) {
            return false;
        }
        int slash = s.indexOf('/');
        String name = s;
        if (slash >= 0) {
            String prefix = s.substring(0, slash);
            name = s.substring(slash + 1);
            if (!isDnsSubdomain(prefix)) {
                return false;
            }
        }
        return name.length() <= 63 && NAME_PART.matcher(name).matches();
    }

    /** A label value: empty, or at most 63 characters of a name part. */
    public static boolean isLabelValue(String s) {
        return s.isEmpty() || (s.length() <= 63 && NAME_PART.matcher(s).matches());
    }

    public static boolean isDnsSubdomain(String s) {
        return s != null && !s.isEmpty() && s.length() <= 253 && DNS1123_SUBDOMAIN.matcher(s).matches();
    }

    public static boolean isDnsLabel(String s) {
        return s != null && !s.isEmpty() && s.length() <= 63 && DNS1123_LABEL.matcher(s).matches();
    }

    static void requireLabelKey(String key, String path) {
        if (!isQualifiedName(key)) {
            throw new IllegalArgumentException(path + ": '" + key + "' is not a valid label key");
        }
    }

    static void requireLabelValue(String value, String path) {
        if (!isLabelValue(value)) {
            throw new IllegalArgumentException(path + ": '" + value + "' is not a valid label value");
        }
    }
}
