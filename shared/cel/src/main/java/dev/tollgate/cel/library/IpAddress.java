package dev.tollgate.cel.library;

import java.util.Arrays;

/**
 * An IP address as Kubernetes' CEL ip library accepts it (Go's netip.ParseAddr, without zones and without
 * IPv4-mapped IPv6 addresses). Immutable; equal when the bytes are equal.
 */
public final class IpAddress {

    final byte[] bytes;

    IpAddress(byte[] bytes) {
        this.bytes = bytes;
    }

    public int family() {
        return bytes.length == 4 ? 4 : 6;
    }

    /**
     * Parses an address as Kubernetes' ip library does (k8s.io/apiserver pkg/cel/library/ip.go parseIPAddr): Go's
     * netip.ParseAddr, whose error it puts after {@code IP Address "<s>" parse error during conversion from string: };
     * then an address with a zone and an IPv4-mapped IPv6 address are refused in their own words. ip(), ip.isCanonical()
     * and containsIP(string) pass the message on unchanged (their callers add nothing: "Don't add context").
     */
    public static IpAddress parse(String s) {
        GoNetip.Addr a;
        try {
            a = GoNetip.parseAddr(s);
        } catch (GoNetip.ParseError e) {
            throw new IllegalArgumentException("IP Address " + GoQuote.quote(s)
                    + " parse error during conversion from string: " + e.getMessage());
        }
        if (!a.zone().isEmpty()) {
            throw new IllegalArgumentException("IP address " + GoQuote.quote(s) + " with zone value is not allowed");
        }
        if (a.is4In6()) {
            throw new IllegalArgumentException("IPv4-mapped IPv6 address " + GoQuote.quote(s) + " is not allowed");
        }
        return new IpAddress(a.bytes());
    }

    public static boolean isValid(String s) {
        try {
            GoNetip.Addr a = GoNetip.parseAddr(s);
            return a.zone().isEmpty() && !a.is4In6();
        } catch (GoNetip.ParseError e) {
            return false;
        }
    }

    private int u16(int i) {
        return ((bytes[2 * i] & 0xff) << 8) | (bytes[2 * i + 1] & 0xff);
    }

    public boolean isUnspecified() {
        for (byte b : bytes) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    public boolean isLoopback() {
        if (bytes.length == 4) {
            return (bytes[0] & 0xff) == 127;
        }
        for (int i = 0; i < 15; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return bytes[15] == 1;
    }

    public boolean isMulticast() {
        return bytes.length == 4 ? (bytes[0] & 0xf0) == 0xe0 : (bytes[0] & 0xff) == 0xff;
    }

    public boolean isLinkLocalMulticast() {
        if (bytes.length == 4) {
            return (bytes[0] & 0xff) == 224 && bytes[1] == 0 && bytes[2] == 0;
        }
        return (u16(0) & 0xff0f) == 0xff02;
    }

    public boolean isLinkLocalUnicast() {
        if (bytes.length == 4) {
            return (bytes[0] & 0xff) == 169 && (bytes[1] & 0xff) == 254;
        }
        return (u16(0) & 0xffc0) == 0xfe80;
    }

    public boolean isGlobalUnicast() {
        if (bytes.length == 4 && Arrays.equals(bytes, new byte[] {-1, -1, -1, -1})) {
            return false;
        }
        return !isUnspecified() && !isLoopback() && !isMulticast() && !isLinkLocalUnicast();
    }

    /** The address with all bits past {@code prefix} cleared. */
    IpAddress masked(int prefix) {
        byte[] b = bytes.clone();
        for (int bit = prefix; bit < b.length * 8; bit++) {
            b[bit / 8] &= (byte) ~(0x80 >> (bit % 8));
        }
        return new IpAddress(b);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IpAddress other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    /** The canonical text: dotted decimal, or RFC 5952 for IPv6 (lower case, longest zero run as ::). */
    @Override
    public String toString() {
        if (bytes.length == 4) {
            return (bytes[0] & 0xff) + "." + (bytes[1] & 0xff) + "." + (bytes[2] & 0xff) + "." + (bytes[3] & 0xff);
        }
        int bestStart = -1;
        int bestLen = 0;
        for (int i = 0; i < 8; ) {
            if (u16(i) == 0) {
                int j = i;
                while (j < 8 && u16(j) == 0) {
                    j++;
                }
                if (j - i > bestLen && j - i >= 2) {
                    bestStart = i;
                    bestLen = j - i;
                }
                i = j;
            } else {
                i++;
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLen - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(u16(i)));
        }
        return sb.toString();
    }
}
