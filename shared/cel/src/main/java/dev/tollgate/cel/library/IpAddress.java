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

    /** Parses an address; the message explains what is wrong, the way Go's parser words it. */
    public static IpAddress parse(String s) {
        String why = problem(s);
        if (why != null) {
            throw new IllegalArgumentException("IP Address \"" + s + "\" parse error during conversion from string: "
                    + "ParseAddr(\"" + s + "\"): " + why);
        }
        IpAddress ip = new IpAddress(s.indexOf(':') >= 0 ? parse6(s) : parse4(s, 0, s.length()));
        if (ip.bytes.length == 16 && isMapped(ip.bytes)) {
            throw new IllegalArgumentException("IPv4-mapped IPv6 address \"" + s + "\" is not allowed");
        }
        return ip;
    }

    public static boolean isValid(String s) {
        if (problem(s) != null) {
            return false;
        }
        return s.indexOf(':') < 0 || !isMapped(parse6(s));
    }

    private static boolean isMapped(byte[] b) {
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
    }

    /** Null when the text is a valid address, else what is wrong with it. */
    private static String problem(String s) {
        if (s.isEmpty()) {
            return "unable to parse IP";
        }
        if (s.indexOf('%') >= 0) {
            return "IPv6 zones are not allowed";
        }
        try {
            if (s.indexOf(':') >= 0) {
                parse6(s);
            } else {
                parse4(s, 0, s.length());
            }
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    private static byte[] parse4(String s, int from, int to) {
        byte[] out = new byte[4];
        int field = 0;
        int value = 0;
        int digits = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                if (digits == 1 && value == 0) {
                    throw new IllegalArgumentException("IPv4 field has octet with leading zero");
                }
                value = value * 10 + (c - '0');
                digits++;
                if (value > 255) {
                    throw new IllegalArgumentException("IPv4 field has value >255");
                }
            } else if (c == '.') {
                if (digits == 0) {
                    throw new IllegalArgumentException("IPv4 field must have at least one digit (at \""
                            + s.substring(i) + "\")");
                }
                if (field == 3) {
                    throw new IllegalArgumentException("IPv4 address too long");
                }
                out[field++] = (byte) value;
                value = 0;
                digits = 0;
            } else {
                throw new IllegalArgumentException("unexpected character (at \"" + s.substring(i) + "\")");
            }
        }
        if (digits == 0) {
            throw new IllegalArgumentException("IPv4 field must have at least one digit");
        }
        if (field < 3) {
            throw new IllegalArgumentException("IPv4 address too short");
        }
        out[field] = (byte) value;
        return out;
    }

    private static byte[] parse6(String s) {
        byte[] out = new byte[16];
        int ellipsis = -1;
        int i = 0;
        int n = 0; // bytes written
        if (s.startsWith("::")) {
            ellipsis = 0;
            i = 2;
            if (i == s.length()) {
                return out;
            }
        }
        while (i < s.length()) {
            int start = i;
            int value = 0;
            int digits = 0;
            while (i < s.length() && Character.digit(s.charAt(i), 16) >= 0) {
                value = value * 16 + Character.digit(s.charAt(i), 16);
                digits++;
                i++;
                if (digits > 4) {
                    throw new IllegalArgumentException("IPv6 field has value >=2^16");
                }
            }
            if (digits == 0) {
                throw new IllegalArgumentException("each colon-separated field must have at least one digit (at \""
                        + s.substring(start) + "\")");
            }
            if (i < s.length() && s.charAt(i) == '.') {
                if (ellipsis < 0 && n != 12) {
                    throw new IllegalArgumentException("embedded IPv4 address must replace the final 2 fields of"
                            + " the address");
                }
                if (n + 4 > 16) {
                    throw new IllegalArgumentException("too many hex fields to fit an embedded IPv4 at the end of the"
                            + " address");
                }
                byte[] v4 = parse4(s, start, s.length());
                System.arraycopy(v4, 0, out, n, 4);
                n += 4;
                i = s.length();
                break;
            }
            if (n + 2 > 16) {
                throw new IllegalArgumentException("too many hex fields");
            }
            out[n++] = (byte) (value >> 8);
            out[n++] = (byte) value;
            if (i == s.length()) {
                break;
            }
            if (s.charAt(i) != ':') {
                throw new IllegalArgumentException("unexpected character, want colon (at \"" + s.substring(i)
                        + "\")");
            }
            i++;
            if (i < s.length() && s.charAt(i) == ':') {
                if (ellipsis >= 0) {
                    throw new IllegalArgumentException("multiple :: in address");
                }
                ellipsis = n;
                i++;
                if (i == s.length()) {
                    break;
                }
            } else if (i == s.length()) {
                throw new IllegalArgumentException("trailing colon in address");
            }
        }
        if (n < 16) {
            if (ellipsis < 0) {
                throw new IllegalArgumentException("address string too short");
            }
            int tail = n - ellipsis;
            System.arraycopy(out, ellipsis, out, 16 - tail, tail);
            Arrays.fill(out, ellipsis, 16 - tail, (byte) 0);
        } else if (ellipsis >= 0) {
            throw new IllegalArgumentException("the :: must expand to at least one field of zeros");
        }
        return out;
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
