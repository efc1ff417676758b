package dev.tollgate.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.tollgate.cel.internal.PropertyNames;

/** Library behaviour beyond the conformance fixture (which is a subset of upstream's cases). */
class LibrariesTest {

    static final KubeCel CEL = KubeCel.builder().variables("self").build();

    static Object eval(String expr) throws Exception {
        return CEL.newEvaluation(Map.of()).evaluate(CEL.compile(expr, ResultType.ANY));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "jsonpatch.escapeKey('app.kubernetes.io/name') == 'app.kubernetes.io~1name'",
        "jsonpatch.escapeKey('a~b/c') == 'a~0b~1c'",
        "strings.quote('a\"b') == '\"a\\\\\"b\"'",
        "'abc'.reverse() == 'cba'",
        "'%s is %d years, %.2f%%'.format([dyn('x'), dyn(3), dyn(1.005)]) == 'x is 3 years, 1.00%'",
        "'%x %X'.format([dyn(255), dyn('hi')]) == 'ff 6869'",
        "format.named('dns1123Label').hasValue()",
        "format.dns1123Label().validate('Not_Valid').hasValue()",
        "format.labelValue().validate('').hasValue() == false",
        "format.qualifiedName().validate('example.com/a/b').hasValue()",
        "format.uuid().validate('123e4567-e89b-12d3-a456-426614174000') == optional.none()",
        "quantity('1Gi').asInteger() == 1073741824",
        "quantity('500m').isInteger() == false && quantity('500m').sign() == 1",
        "quantity('1.5').asApproximateFloat() == 1.5",
        "quantity('-1k').sign() == -1",
        "semver('1.0.0-alpha').isLessThan(semver('1.0.0'))",
        "semver('1.0.0-alpha.1').isLessThan(semver('1.0.0-alpha.beta'))",
        "semver('v1.2', true).minor() == 2",
        "isCIDR('10.0.0.0/8') && !isCIDR('10.0.0.0/33') && !isCIDR('10.0.0.0')",
        "string(cidr('10.1.2.3/8').masked()) == '10.0.0.0/8'",
        "string(ip('2001:0db8:0000:0000:0000:0000:0000:0001')) == '2001:db8::1'",
        "!isIP('::ffff:1.2.3.4') && !isIP('fe80::1%eth0') && !isIP('01.2.3.4')",
        "isIP('::1.2.3.4')",
        "[3, 1, 2].isSorted() == false && [1.5, 2.5].max() == 2.5 && ['b', 'a'].min() == 'a'",
        "[1, 2, 3].sum() == 6 && [1.5, 2.5].sum() == 4.0",
        "'a1b22c333'.findAll('[0-9]+', 2) == ['1', '22']",
        "url('https://example.com:8443/a%20b?x=1').getPort() == '8443'",
        "url('https://example.com/a%20b').getEscapedPath() == '/a%20b'",
        "!isURL('example.com/path') && !isURL('https://exa mple.com:x/')",
        "sets.contains([1, 2, 3], [2, 3]) && sets.intersects([1], [1, 4])",
        "{'a': 1, 'b': 2}.all(k, v, v > 0) && [10, 20].exists(i, v, i == 1 && v == 20)",
        "optional.of(1).orValue(2) == 1 && optional.none().orValue(2) == 2",
        "'  x '.trim() == 'x' && 'a,b'.split(',') == ['a', 'b']",
    })
    void expressionHolds(String expr) throws Exception {
        assertEquals(true, eval(expr), expr);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "quantity('1.5.5')",
        "semver('1.0.0-01')",
        "url('../relative')",
        "cidr('10.0.0.0/08')",
        "ip('::ffff:1.2.3.4')",
        "[1, 2].sortBy(x, {'k': x})",
        "'%d'.format(['x'])",
        "dyn(['a', 'b']).sum()",
    })
    void failsAtRunTime(String expr) {
        assertThrows(CelEvaluationError.class, () -> eval(expr), expr);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "'abc'.find('(')",
        "[true].sum()",
        "[[1]].max()",
    })
    void failsAtCompileTime(String expr) {
        assertThrows(CelCompileException.class, () -> CEL.compile(expr, ResultType.ANY), expr);
    }

    @ParameterizedTest
    @CsvSource({
        "x-y, x__dash__y", "a.b/c, a__dot__b__slash__c", "a__b, a__underscores__b", "namespace, __namespace__",
        "if, __if__", "plain, plain",
    })
    void propertyNamesRoundTrip(String name, String escaped) {
        assertEquals(escaped, PropertyNames.escape(name));
        assertEquals(name, PropertyNames.unescape(escaped));
    }
}
