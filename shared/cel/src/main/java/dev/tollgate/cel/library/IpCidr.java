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

    public static IpCidr parse(String s) {
        int slash = s.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("network address parse error during conversion from string: "
                    + "netip.ParsePrefix(\"" + s + "\"): no '/'");
        }
        IpAddress ip;
        try {
            ip = IpAddress.parse(s.substring(0, slash));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("network address parse error during conversion from string: "
                    + "netip.ParsePrefix(\"" + s + "\"): " + e.getMessage());
        }
        String bits = s.substring(slash + 1);
        int max = ip.bytes.length * 8;
        if (bits.isEmpty() || !bits.chars().allMatch(Character::isDigit) || (bits.length() > 1 && bits.startsWith("0"))
                || bits.length() > 3 || Integer.parseInt(bits) > max) {
            throw new IllegalArgumentException("network address parse error during conversion from string: "
                    + "netip.ParsePrefix(\"" + s + "\"): bad bits after slash: \"" + bits + "\"");
        }
        return new IpCidr(ip, Integer.parseInt(bits));
    }

    public static boolean isValid(String s) {
        try {
            parse(s);
            return true;
        } catch (IllegalArgumentException e) {
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
