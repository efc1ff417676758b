package dev.tollgate.cel.library;

import java.util.ArrayList;
import java.util.List;

/**
 * A semantic version (semver 2.0.0): major.minor.patch, optional pre-release and build metadata. Ordered and
 * compared as the specification says (build metadata ignored).
 */
public final class Semver implements Comparable<Semver> {

    final long major;
    final long minor;
    final long patch;
    final List<String> pre;
    final String build;

    private Semver(long major, long minor, long patch, List<String> pre, String build) {
        this.major = major;
        this.minor = minor;
        this.patch = patch;
        this.pre = pre;
        this.build = build;
    }

    /**
     * Parses strictly; with {@code normalize}, a leading "v", missing minor/patch and leading zeros are accepted
     * first ("v1.2" reads as 1.2.0).
     */
    public static Semver parse(String s, boolean normalize) {
        String text = normalize ? normalize(s) : s;
        if (text.isEmpty()) {
            throw new IllegalArgumentException("Version string empty");
        }
        int plus = text.indexOf('+');
        String build = "";
        if (plus >= 0) {
            build = text.substring(plus + 1);
            text = text.substring(0, plus);
            if (build.isEmpty() || !build.matches("[0-9A-Za-z-]+(\\.[0-9A-Za-z-]+)*")) {
                throw new IllegalArgumentException("Invalid build metadata: " + build);
            }
        }
        int dash = text.indexOf('-');
        List<String> pre = new ArrayList<>();
        if (dash >= 0) {
            String p = text.substring(dash + 1);
            text = text.substring(0, dash);
            for (String id : p.split("\\.", -1)) {
                if (id.isEmpty() || !id.matches("[0-9A-Za-z-]+")) {
                    throw new IllegalArgumentException("Invalid Prerelease identifier: '" + id + "'");
                }
                if (id.matches("[0-9]+") && id.length() > 1 && id.startsWith("0")) {
                    throw new IllegalArgumentException("Numeric PreRelease version must not contain leading zeroes");
                }
                pre.add(id);
            }
        }
        String[] parts = text.split("\\.", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException("No Major.Minor.Patch elements found");
        }
        long[] nums = new long[3];
        String[] names = {"Major", "Minor", "Patch"};
        for (int i = 0; i < 3; i++) {
            String p = parts[i];
            if (p.isEmpty() || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException("Invalid character(s) found in " + names[i].toLowerCase()
                        + " number \"" + p + "\"");
            }
            if (p.length() > 1 && p.startsWith("0")) {
                throw new IllegalArgumentException(names[i] + " number must not contain leading zeroes \"" + p + "\"");
            }
            try {
                nums[i] = Long.parseLong(p);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(names[i] + " number is too large \"" + p + "\"");
            }
        }
        return new Semver(nums[0], nums[1], nums[2], List.copyOf(pre), build);
    }

    private static String normalize(String s) {
        String t = s.startsWith("v") ? s.substring(1) : s;
        int end = t.length();
        for (int i = 0; i < t.length(); i++) {
            if (t.charAt(i) == '-' || t.charAt(i) == '+') {
                end = i;
                break;
            }
        }
        String core = t.substring(0, end);
        String rest = t.substring(end);
        String[] parts = core.split("\\.", -1);
        if (parts.length > 3) {
            return s;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            String p = i < parts.length ? parts[i] : "0";
            if (p.length() > 1 && p.chars().allMatch(Character::isDigit)) {
                p = p.replaceFirst("^0+(?=.)", "");
            }
            sb.append(i > 0 ? "." : "").append(p);
        }
        return sb + rest;
    }

    public static boolean isValid(String s, boolean normalize) {
        try {
            parse(s, normalize);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    @Override
    public int compareTo(Semver o) {
        int c = Long.compare(major, o.major);
        if (c == 0) {
            c = Long.compare(minor, o.minor);
        }
        if (c == 0) {
            c = Long.compare(patch, o.patch);
        }
        if (c != 0) {
            return c;
        }
        if (pre.isEmpty() || o.pre.isEmpty()) {
            return Boolean.compare(pre.isEmpty(), o.pre.isEmpty());
        }
        for (int i = 0; i < Math.min(pre.size(), o.pre.size()); i++) {
            String a = pre.get(i);
            String b = o.pre.get(i);
            boolean na = a.matches("[0-9]+");
            boolean nb = b.matches("[0-9]+");
            int d = na && nb ? new java.math.BigInteger(a).compareTo(new java.math.BigInteger(b))
                    : na ? -1 : nb ? 1 : a.compareTo(b);
            if (d != 0) {
                return d;
            }
        }
        return Integer.compare(pre.size(), o.pre.size());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Semver v && compareTo(v) == 0;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(major, minor, patch, pre);
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch + (pre.isEmpty() ? "" : "-" + String.join(".", pre))
                + (build.isEmpty() ? "" : "+" + build);
    }
}
