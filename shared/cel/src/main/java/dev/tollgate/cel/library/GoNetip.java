package dev.tollgate.cel.library;

/**
 * Go's {@code net/netip} text parsers, {@code ParseAddr} and {@code ParsePrefix}, with their error messages word
 * for word (Go src/net/netip/netip.go: {@code parseAddrError.Error()} is {@code ParseAddr("<in>"): <msg>} with an
 * optional {@code (at "<rest>")}, {@code parsePrefixError.Error()} is {@code netip.ParsePrefix("<in>"): <msg>}).
 * Kubernetes' ip and cidr CEL libraries put their own words around these messages (see {@link IpAddress#parse} and
 * {@link IpCidr#parse}). Go parses bytes; every check here is on ASCII characters, so a Java string index gives the
 * same unparsed rest as Go's byte index.
 */
final class GoNetip {

    /** A parse failure; the message is Go's {@code err.Error()}. */
    static final class ParseError extends Exception {
        ParseError(String message) {
            super(message, null, false, false);
        }
    }

    /** An address: 4 or 16 bytes, and the IPv6 zone ({@code ""} when none). */
    record Addr(byte[] bytes, String zone) {
        boolean is4In6() {
            if (bytes.length != 16) {
                return false;
            }
            for (int i = 0; i < 10; i++) {
                if (bytes[i] != 0) {
                    return false;
                }
            }
            return (bytes[10] & 0xff) == 0xff && (bytes[11] & 0xff) == 0xff;
        }
    }

    /** A prefix as ParsePrefix returns it: the address (no zone) and the prefix length. */
    record Prefix(Addr addr, int bits) {
    }

    private GoNetip() {
    }

    private static ParseError addrError(String in, String msg, String at) {
        return new ParseError("ParseAddr(" + GoQuote.quote(in) + "): " + msg
                + (at == null || at.isEmpty() ? "" : " (at " + GoQuote.quote(at) + ")"));
    }

    /** netip.ParseAddr: the first '.', ':' or '%' decides how the text is read. */
    static Addr parseAddr(String s) throws ParseError {
        for (int i = 0; i < s.length(); i++) {
            switch (s.charAt(i)) {
                case '.':
                    return new Addr(parseIPv4(s, 0, s.length()), "");
                case ':':
                    return parseIPv6(s);
                case '%':
                    throw addrError(s, "missing IPv6 address", null);
                default:
                    break;
            }
        }
        throw addrError(s, "unable to parse IP", null);
    }

    /** Dotted decimal in in[from, to); errors name the whole input {@code in}, as Go's parseIPv4Fields does. */
    private static byte[] parseIPv4(String in, int from, int to) throws ParseError {
        String s = in.substring(from, to);
        byte[] fields = new byte[4];
        int value = 0;
        int pos = 0;
        int digits = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                if (digits == 1 && value == 0) {
                    throw addrError(in, "IPv4 field has octet with leading zero", null);
                }
                value = value * 10 + (c - '0');
                digits++;
                if (value > 255) {
                    throw addrError(in, "IPv4 field has value >255", null);
                }
            } else if (c == '.') {
                if (i == 0 || i == s.length() - 1 || s.charAt(i - 1) == '.') {
                    throw addrError(in, "IPv4 field must have at least one digit", s.substring(i));
                }
                if (pos == 3) {
                    throw addrError(in, "IPv4 address too long", null);
                }
                fields[pos++] = (byte) value;
                value = 0;
                digits = 0;
            } else {
                throw addrError(in, "unexpected character", s.substring(i));
            }
        }
        if (pos < 3) {
            throw addrError(in, "IPv4 address too short", null);
        }
        fields[3] = (byte) value;
        return fields;
    }

    private static Addr parseIPv6(String in) throws ParseError {
        String s = in;
        String zone = "";
        int percent = s.indexOf('%');
        if (percent >= 0) {
            zone = s.substring(percent + 1);
            s = s.substring(0, percent);
            if (zone.isEmpty()) {
                throw addrError(in, "zone must be a non-empty string", null);
            }
        }
        byte[] ip = new byte[16];
        int ellipsis = -1;
        if (s.length() >= 2 && s.charAt(0) == ':' && s.charAt(1) == ':') {
            ellipsis = 0;
            s = s.substring(2);
            if (s.isEmpty()) {
                return new Addr(ip, zone);
            }
        }
        int i = 0;
        while (i < 16) {
            int off = 0;
            int acc = 0;
            for (; off < s.length(); off++) {
                int d = hexDigit(s.charAt(off));
                if (d < 0) {
                    break;
                }
                acc = (acc << 4) + d;
                if (off > 3) {
                    throw addrError(in, "each group must have 4 or less digits", s);
                }
                if (acc > 0xffff) {
                    throw addrError(in, "IPv6 field has value >=2^16", s);
                }
            }
            if (off == 0) {
                throw addrError(in, "each colon-separated field must have at least one digit", s);
            }
            if (off < s.length() && s.charAt(off) == '.') {
                if (ellipsis < 0 && i != 12) {
                    throw addrError(in, "embedded IPv4 address must replace the final 2 fields of the address", s);
                }
                if (i + 4 > 16) {
                    throw addrError(in, "too many hex fields to fit an embedded IPv4 at the end of the address", s);
                }
                int end = in.length() - (zone.isEmpty() ? 0 : zone.length() + 1);
                System.arraycopy(parseIPv4(in, end - s.length(), end), 0, ip, i, 4);
                s = "";
                i += 4;
                break;
            }
            ip[i] = (byte) (acc >> 8);
            ip[i + 1] = (byte) acc;
            i += 2;
            s = s.substring(off);
            if (s.isEmpty()) {
                break;
            }
            if (s.charAt(0) != ':') {
                throw addrError(in, "unexpected character, want colon", s);
            } else if (s.length() == 1) {
                throw addrError(in, "colon must be followed by more characters", s);
            }
            s = s.substring(1);
            if (s.charAt(0) == ':') {
                if (ellipsis >= 0) {
                    throw addrError(in, "multiple :: in address", s);
                }
                ellipsis = i;
                s = s.substring(1);
                if (s.isEmpty()) {
                    break;
                }
            }
        }
        if (!s.isEmpty()) {
            throw addrError(in, "trailing garbage after address", s);
        }
        if (i < 16) {
            if (ellipsis < 0) {
                throw addrError(in, "address string too short", null);
            }
            int n = 16 - i;
            for (int j = i - 1; j >= ellipsis; j--) {
                ip[j + n] = ip[j];
            }
            java.util.Arrays.fill(ip, ellipsis, ellipsis + n, (byte) 0);
        } else if (ellipsis >= 0) {
            throw addrError(in, "the :: must expand to at least one field of zeros", null);
        }
        return new Addr(ip, zone);
    }

    private static int hexDigit(char c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }

    /** netip.ParsePrefix: the address before the last '/', then a decimal prefix length in range for its family. */
    static Prefix parsePrefix(String s) throws ParseError {
        int slash = s.lastIndexOf('/');
        if (slash < 0) {
            throw prefixError(s, "no '/'");
        }
        Addr addr;
        try {
            addr = parseAddr(s.substring(0, slash));
        } catch (ParseError e) {
            throw prefixError(s, e.getMessage());
        }
        if (addr.bytes().length == 16 && !addr.zone().isEmpty()) {
            throw prefixError(s, "IPv6 zones cannot be present in a prefix");
        }
        String bitsText = s.substring(slash + 1);
        // Go refuses a sign or a leading zero before strconv.Atoi would accept them
        if (bitsText.length() > 1 && (bitsText.charAt(0) < '1' || bitsText.charAt(0) > '9')) {
            throw prefixError(s, "bad bits after slash: " + GoQuote.quote(bitsText));
        }
        long bits = atoi(bitsText);
        if (bits == Long.MIN_VALUE) {
            throw prefixError(s, "bad bits after slash: " + GoQuote.quote(bitsText));
        }
        int max = addr.bytes().length * 8;
        if (bits < 0 || bits > max) {
            throw prefixError(s, "prefix length out of range");
        }
        return new Prefix(addr, (int) bits);
    }

    private static ParseError prefixError(String in, String msg) {
        return new ParseError("netip.ParsePrefix(" + GoQuote.quote(in) + "): " + msg);
    }

    /** strconv.Atoi of a 64-bit int: optional sign, ASCII digits, in range; Long.MIN_VALUE when it fails. */
    private static long atoi(String s) {
        int start = !s.isEmpty() && (s.charAt(0) == '+' || s.charAt(0) == '-') ? 1 : 0;
        if (s.length() == start) {
            return Long.MIN_VALUE;
        }
        for (int i = start; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return Long.MIN_VALUE;
            }
        }
        try {
            long v = Long.parseLong(s);
            return v == Long.MIN_VALUE ? -1 : v;    // Go takes -2^63 too; any negative is out of range alike
        } catch (NumberFormatException e) {
            return Long.MIN_VALUE;
        }
    }
}
