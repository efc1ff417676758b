package dev.tollgate.cel.library;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import java.util.List;
import java.util.Map;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelVarDecl;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeType;
import dev.cel.runtime.CelFunctionBinding;
import dev.tollgate.cel.internal.KubeLibrary;

/**
 * Kubernetes' ip and cidr libraries: {@code ip(s)}, {@code isIP(s)}, {@code ip.isCanonical(s)}, {@code family()},
 * {@code isUnspecified()}, {@code isLoopback()}, {@code isLinkLocalMulticast()}, {@code isLinkLocalUnicast()},
 * {@code isGlobalUnicast()}; {@code cidr(s)}, {@code isCIDR(s)}, {@code containsIP(ip|string)},
 * {@code containsCIDR(cidr|string)}, {@code ip()}, {@code masked()}, {@code prefixLength()}; {@code string()} of
 * both, and the type names {@code net.IP}, {@code net.CIDR}.
 */
public final class NetLibrary implements KubeLibrary {

    public static final OpaqueType IP = OpaqueType.create("net.IP");
    public static final OpaqueType CIDR = OpaqueType.create("net.CIDR");

    @Override
    public List<CelVarDecl> variables() {
        return List.of(CelVarDecl.newVarDeclaration("net.IP", TypeType.create(IP)),
                CelVarDecl.newVarDeclaration("net.CIDR", TypeType.create(CIDR)));
    }

    @Override
    public Map<String, Object> constants() {
        return Map.of("net.IP", IP, "net.CIDR", CIDR);
    }

    @Override
    public List<CelFunctionDecl> functions() {
        dev.cel.common.types.CelType s = SimpleType.STRING;
        dev.cel.common.types.CelType b = SimpleType.BOOL;
        return List.of(
                newFunctionDeclaration("ip", newGlobalOverload("string_to_ip", IP, s),
                        newMemberOverload("cidr_ip", IP, CIDR)),
                newFunctionDeclaration("isIP", newGlobalOverload("is_ip", b, s)),
                newFunctionDeclaration("ip.isCanonical", newGlobalOverload("ip_is_canonical", b, s)),
                newFunctionDeclaration("family", newMemberOverload("ip_family", SimpleType.INT, IP)),
                newFunctionDeclaration("isUnspecified", newMemberOverload("ip_is_unspecified", b, IP)),
                newFunctionDeclaration("isLoopback", newMemberOverload("ip_is_loopback", b, IP)),
                newFunctionDeclaration("isLinkLocalMulticast", newMemberOverload("ip_is_link_local_multicast", b, IP)),
                newFunctionDeclaration("isLinkLocalUnicast", newMemberOverload("ip_is_link_local_unicast", b, IP)),
                newFunctionDeclaration("isGlobalUnicast", newMemberOverload("ip_is_global_unicast", b, IP)),
                newFunctionDeclaration("cidr", newGlobalOverload("string_to_cidr", CIDR, s)),
                newFunctionDeclaration("isCIDR", newGlobalOverload("is_cidr", b, s)),
                newFunctionDeclaration("containsIP", newMemberOverload("cidr_contains_ip_ip", b, CIDR, IP),
                        newMemberOverload("cidr_contains_ip_string", b, CIDR, s)),
                newFunctionDeclaration("containsCIDR", newMemberOverload("cidr_contains_cidr", b, CIDR, CIDR),
                        newMemberOverload("cidr_contains_cidr_string", b, CIDR, s)),
                newFunctionDeclaration("masked", newMemberOverload("cidr_masked", CIDR, CIDR)),
                newFunctionDeclaration("prefixLength", newMemberOverload("cidr_prefix_length", SimpleType.INT, CIDR)),
                newFunctionDeclaration("string", newGlobalOverload("ip_to_string", s, IP),
                        newGlobalOverload("cidr_to_string", s, CIDR)));
    }

    @Override
    public List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_to_ip", String.class, IpAddress::parse),
                CelFunctionBinding.from("cidr_ip", IpCidr.class, c -> c.ip),
                CelFunctionBinding.from("is_ip", String.class, IpAddress::isValid),
                CelFunctionBinding.from("ip_is_canonical", String.class,
                        str -> IpAddress.parse(str).toString().equals(str)),
                CelFunctionBinding.from("ip_family", IpAddress.class, ip -> (long) ip.family()),
                CelFunctionBinding.from("ip_is_unspecified", IpAddress.class, IpAddress::isUnspecified),
                CelFunctionBinding.from("ip_is_loopback", IpAddress.class, IpAddress::isLoopback),
                CelFunctionBinding.from("ip_is_link_local_multicast", IpAddress.class,
                        IpAddress::isLinkLocalMulticast),
                CelFunctionBinding.from("ip_is_link_local_unicast", IpAddress.class, IpAddress::isLinkLocalUnicast),
                CelFunctionBinding.from("ip_is_global_unicast", IpAddress.class, IpAddress::isGlobalUnicast),
                CelFunctionBinding.from("string_to_cidr", String.class, IpCidr::parse),
                CelFunctionBinding.from("is_cidr", String.class, IpCidr::isValid),
                CelFunctionBinding.from("cidr_contains_ip_ip", IpCidr.class, IpAddress.class, IpCidr::containsIp),
                CelFunctionBinding.from("cidr_contains_ip_string", IpCidr.class, String.class,
                        NetLibrary::containsIpString),
                CelFunctionBinding.from("cidr_contains_cidr", IpCidr.class, IpCidr.class, IpCidr::containsCidr),
                CelFunctionBinding.from("cidr_contains_cidr_string", IpCidr.class, String.class,
                        (c, str) -> c.containsCidr(IpCidr.parse(str))),
                CelFunctionBinding.from("cidr_masked", IpCidr.class, IpCidr::masked),
                CelFunctionBinding.from("cidr_prefix_length", IpCidr.class, c -> (long) c.prefix),
                CelFunctionBinding.from("ip_to_string", IpAddress.class, IpAddress::toString),
                CelFunctionBinding.from("cidr_to_string", IpCidr.class, IpCidr::toString));
    }

    /**
     * containsIP(string): upstream (k8s.io/apiserver pkg/cel/library/cidr.go cidrContainsIPString) passes ip()'s
     * result to cidrContainsIP, which answers a value that is not an IP with types.MaybeNoSuchOverloadErr of the
     * CIDR argument (not of the failed IP), so an unparsable address reads "no such overload", not the parse error.
     * containsCIDR(string) passes its own argument's error on, and reads as cidr() does.
     */
    private static boolean containsIpString(IpCidr cidr, String address) {
        if (!IpAddress.isValid(address)) {
            throw new IllegalArgumentException("no such overload");
        }
        return cidr.containsIp(IpAddress.parse(address));
    }
}
