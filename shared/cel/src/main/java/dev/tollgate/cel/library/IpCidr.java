package dev.tollgate.cel.library;

import java.util.Objects;

/** An IP prefix (address and prefix length) as Kubernetes' CEL cidr library accepts it. */
public final class IpCidr {

    final IpAddress ip;
    final int prefix;

    IpCidr(IpAddress ip, int prefix) {
        this.ip = ip;
        this.prefix = prefix;
    }

    /** What Kubernetes' cidr library puts before a conversion failure, once in parseCIDR and again in cidr(). */
    static final String CONVERSION_ERROR = "network address parse error during conversion from string: ";

    /**
     * Parses a prefix as cidr() and containsCIDR(string) do (k8s.io/apiserver pkg/cel/library/cidr.go
     * stringToCIDR): parseCIDR's error, prefixed with {@link #CONVERSION_ERROR}. parseCIDR itself prefixes Go's
     * netip.ParsePrefix error with the same words, so a malformed prefix reads
     * {@code network address parse error during conversion from string: network address parse error during
     * conversion from string: netip.ParsePrefix("10.0.0.0/"): bad bits after slash: ""}; an IPv4-mapped IPv6
     * address gets the outer prefix only.
     */
    public static IpCidr parse(String s) {
        try {
            return parseCidr(s);
        } catch (GoNetip.ParseError e) {
            throw new IllegalArgumentException(CONVERSION_ERROR + e.getMessage());
        }
    }

    /** cidr.go parseCIDR: netip.ParsePrefix, then no IPv4-mapped IPv6 address. */
    private static IpCidr parseCidr(String s) throws GoNetip.ParseError {
        GoNetip.Prefix p;
        try {
            p = GoNetip.parsePrefix(s);
        } catch (GoNetip.ParseError e) {
            throw new GoNetip.ParseError(CONVERSION_ERROR + e.getMessage());
        }
        if (p.addr().is4In6()) {
            throw new GoNetip.ParseError("IPv4-mapped IPv6 address " + GoQuote.quote(s) + " is not allowed");
        }
        return new IpCidr(new IpAddress(p.addr().bytes()), p.bits());
    }

    public static boolean isValid(String s) {
        try {
            parseCidr(s);
            return true;
        } catch (GoNetip.ParseError e) {
            return false;
        }
    }

    public boolean containsIp(IpAddress other) {
        return other.family() == ip.family() && other.masked(prefix).equals(ip.masked(prefix));
    }

    public boolean containsCidr(IpCidr other) {
        return other.ip.family() == ip.family() && other.prefix >= prefix && containsIp(other.ip);
    }

    public IpCidr masked() {
        return new IpCidr(ip.masked(prefix), prefix);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IpCidr c && c.prefix == prefix && c.ip.equals(ip);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ip, prefix);
    }

    @Override
    public String toString() {
        return ip + "/" + prefix;
    }
}
