package dev.tollgate.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.node.NullNode;

/**
 * The ip and cidr libraries' parse errors, word for word, for every way a string is parsed: ip(), ip.isCanonical(),
 * cidr(), containsIP(string), containsCIDR(string). The words are Kubernetes' (k8s.io/apiserver pkg/cel/library/ip.go
 * parseIPAddr and stringToIP; cidr.go parseCIDR, stringToCIDR, cidrContainsIPString, cidrContainsCIDRString) around
 * Go's net/netip errors (src/net/netip/netip.go ParseAddr, parseIPv4Fields, parseIPv6, ParsePrefix). cidr() wraps
 * the conversion message twice (cidr_test.go "parse invalid ipv4": {@code network address parse error during
 * conversion from string: network address parse error during conversion from string: netip.ParsePrefix(...)}).
 */
class NetParseMessagesTest {

    static final KubeCel CEL = KubeCel.builder().variables("self").build();
    static final String IP = "IP Address \"%s\" parse error during conversion from string: ParseAddr(\"%s\"): ";
    static final String CIDR = "network address parse error during conversion from string: "
            + "network address parse error during conversion from string: netip.ParsePrefix(\"%s\"): ";

    static Object eval(String expr) throws Exception {
        return CEL.newEvaluation(Map.of("self", NullNode.getInstance())).evaluate(CEL.compile(expr, ResultType.ANY));
    }

    static String runtimeError(String expr) throws Exception {
        CompiledExpression e = CEL.compile(expr, ResultType.ANY);
        return assertThrows(CelEvaluationError.class,
                () -> CEL.newEvaluation(Map.of("self", NullNode.getInstance())).evaluate(e), expr).getMessage();
    }

    /** Go's ParseAddr failures, each kind, inside ip.go's "IP Address %q parse error during conversion" words. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "``                                 | unable to parse IP",
        "localhost                          | unable to parse IP",
        "%eth0                              | missing IPv6 address",
        "1.2.3                              | IPv4 address too short",
        "1.2.3.4.5                          | IPv4 address too long",
        "1.2.3.                             | IPv4 field must have at least one digit (at \".\")",
        "1..2.3                             | IPv4 field must have at least one digit (at \".2.3\")",
        ".1.2.3                             | IPv4 field must have at least one digit (at \".1.2.3\")",
        "01.2.3.4                           | IPv4 field has octet with leading zero",
        "256.1.1.1                          | IPv4 field has value >255",
        "1.2.3.4:80                         | unexpected character (at \":80\")",
        "1.2.3.4%eth0                       | unexpected character (at \"%eth0\")",
        "fe80::1%                           | zone must be a non-empty string",
        "2001:db8::12345                    | each group must have 4 or less digits (at \"12345\")",
        "2001:db8:::68                      | each colon-separated field must have at least one digit (at \":68\")",
        "1:2:3:4:5:6:7                      | address string too short",
        "1:2:3:4:5:6:7:8:9                  | trailing garbage after address (at \"9\")",
        "1:2:3:4:5:6:7:8::                  | the :: must expand to at least one field of zeros",
        "1::2::3                            | multiple :: in address (at \":3\")",
        "1:2:                               | colon must be followed by more characters (at \":\")",
        "1:2x                               | unexpected character, want colon (at \"x\")",
        "1:2:3:1.2.3.4                      | embedded IPv4 address must replace the final 2 fields of the address (at \"1.2.3.4\")",
        "1::2:3:4:5:6:7:1.2.3.4             | too many hex fields to fit an embedded IPv4 at the end of the address (at \"1.2.3.4\")",
        "::1.2.3                            | IPv4 address too short",
        "::ffff:1.2.3.04                    | IPv4 field has octet with leading zero",
    })
    void ipParseFailure(String text, String goMessage) throws Exception {
        String want = String.format(IP, text, text) + goMessage;
        assertEquals(want, runtimeError("ip('" + text + "')"));
        assertEquals(want, runtimeError("ip.isCanonical('" + text + "')"));
        assertEquals(false, eval("isIP('" + text + "')"));
    }

    /** ip.go parseIPAddr's own refusals, after netip accepted the text: zones, IPv4-mapped IPv6 addresses. */
    @Test
    void ipRefusalsOfItsOwn() throws Exception {
        assertEquals("IP address \"fe80::1%eth0\" with zone value is not allowed", runtimeError("ip('fe80::1%eth0')"));
        assertEquals("IP address \"fe80::1%eth0\" with zone value is not allowed",
                runtimeError("ip.isCanonical('fe80::1%eth0')"));
        assertEquals("IPv4-mapped IPv6 address \"::ffff:1.2.3.4\" is not allowed", runtimeError("ip('::ffff:1.2.3.4')"));
        assertEquals("IPv4-mapped IPv6 address \"::FFFF:102:304\" is not allowed",
                runtimeError("ip.isCanonical('::FFFF:102:304')"));
        assertEquals(false, eval("isIP('fe80::1%eth0') || isIP('::ffff:1.2.3.4')"));
    }

    /** The input is quoted as Go's %q / strconv.Quote does, in both places it appears. */
    @Test
    void inputQuotedAsGoDoes() throws Exception {
        assertEquals("IP Address \"a\\tb\\\"\" parse error during conversion from string: ParseAddr(\"a\\tb\\\"\"): "
                + "unable to parse IP", runtimeError("ip('a\\tb\"')"));
        assertEquals("IP Address \"1.2.3.\\u200b4\" parse error during conversion from string: "
                + "ParseAddr(\"1.2.3.\\u200b4\"): unexpected character (at \"\\u200b4\")", runtimeError("ip('1.2.3.\\u200b4')"));
    }

    /** Go's ParsePrefix failures inside cidr.go's conversion words, twice (parseCIDR, then stringToCIDR). */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "10.0.0.0                       | no '/'",
        "10.0.0.0/                      | bad bits after slash: \"\"",
        "2001:db8::/                    | bad bits after slash: \"\"",
        "10.0.0.0/08                    | bad bits after slash: \"08\"",
        "10.0.0.0/+8                    | bad bits after slash: \"+8\"",
        "10.0.0.0/-1                    | bad bits after slash: \"-1\"",
        "10.0.0.0/8a                    | bad bits after slash: \"8a\"",
        "10.0.0.0/99999999999999999999  | bad bits after slash: \"99999999999999999999\"",
        "10.0.0.0/33                    | prefix length out of range",
        "10.0.0.0/1000                  | prefix length out of range",
        "2001:db8::/129                 | prefix length out of range",
        "fe80::%eth0/64                 | IPv6 zones cannot be present in a prefix",
        "10.0.0/8                       | ParseAddr(\"10.0.0\"): IPv4 address too short",
        "10.0.0.0/8/8                   | ParseAddr(\"10.0.0.0/8\"): unexpected character (at \"/8\")",
        "/8                             | ParseAddr(\"\"): unable to parse IP",
        "2001:db8:::/32                 | ParseAddr(\"2001:db8:::\"): each colon-separated field must have at least one digit (at \":\")",
        "1:2:3:4:5:6:7/64               | ParseAddr(\"1:2:3:4:5:6:7\"): address string too short",
    })
    void cidrParseFailure(String text, String goMessage) throws Exception {
        String want = String.format(CIDR, text) + goMessage;
        assertEquals(want, runtimeError("cidr('" + text + "')"));
        assertEquals(want, runtimeError("cidr('0.0.0.0/0').containsCIDR('" + text + "')"));
        assertEquals(false, eval("isCIDR('" + text + "')"));
    }

    /** cidr.go parseCIDR's own refusal, after netip accepted the prefix: wrapped once only. */
    @Test
    void cidrMappedAddressWrappedOnce() throws Exception {
        String want = "network address parse error during conversion from string: "
                + "IPv4-mapped IPv6 address \"::ffff:1.2.3.4/120\" is not allowed";
        assertEquals(want, runtimeError("cidr('::ffff:1.2.3.4/120')"));
        assertEquals(want, runtimeError("cidr('::/0').containsCIDR('::ffff:1.2.3.4/120')"));
        assertEquals(false, eval("isCIDR('::ffff:1.2.3.4/120')"));
    }

    /**
     * containsIP(string) passes a failed ip() to cidrContainsIP, which answers with types.MaybeNoSuchOverloadErr of
     * its CIDR argument (cidr.go): the parse error is lost and cel-go's "no such overload" is what upstream reports.
     */
    @ParameterizedTest
    @ValueSource(strings = {"10.1.0", "fe80::1%eth0", "::ffff:10.0.0.1", "10.0.0.0/8"})
    void containsIpOfAnUnparsableString(String text) throws Exception {
        assertEquals("no such overload", runtimeError("cidr('10.0.0.0/8').containsIP('" + text + "')"));
    }

    /** What parses still parses, with Go's forms at the edges. */
    @ParameterizedTest
    @ValueSource(strings = {
        "ip('::') == ip('0:0:0:0:0:0:0:0')",
        "string(ip('2001:DB8:0::1')) == '2001:db8::1'",
        "ip('::1.2.3.4').family() == 6",
        "cidr('10.0.0.0/0').prefixLength() == 0",
        "cidr('2001:db8::/128').prefixLength() == 128",
        "cidr('10.0.0.0/8').containsIP('10.1.2.3') && !cidr('10.0.0.0/8').containsIP('::1')",
        "ip.isCanonical('2001:db8::1') && !ip.isCanonical('2001:DB8::1')",
    })
    void validTextParses(String expr) throws Exception {
        assertEquals(true, eval(expr), expr);
    }
}
