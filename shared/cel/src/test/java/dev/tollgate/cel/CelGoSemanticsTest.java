package dev.tollgate.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The places where cel-java on its own would answer differently from cel-go (the API server's CEL), one test per
 * behaviour; each names the upstream source that defines it.
 */
class CelGoSemanticsTest {

    static final KubeCel CEL = KubeCel.builder().variables("self").build();

    static Object eval(String expr) throws Exception {
        return eval(expr, null);
    }

    static Object eval(String expr, String selfJson) throws Exception {
        JsonNode self = selfJson == null ? com.fasterxml.jackson.databind.node.NullNode.getInstance()
                : Requests.JSON.readTree(selfJson);
        return CEL.newEvaluation(Map.of("self", self)).evaluate(CEL.compile(expr, ResultType.ANY));
    }

    static String compileError(String expr) {
        return assertThrows(CelCompileException.class, () -> CEL.compile(expr, ResultType.ANY), expr).getMessage();
    }

    static String runtimeError(String expr) throws Exception {
        CompiledExpression e = CEL.compile(expr, ResultType.ANY);
        return assertThrows(CelEvaluationError.class, () -> CEL.newEvaluation(Map.of()).evaluate(e), expr)
                .getMessage();
    }

    // cel-go cel/validator.go (homogeneousAggregateLiteralValidator) and ext/strings.go (stringFormatValidator):
    // list and map literals must be homogeneous, except inside format()'s argument.
    @Test
    void formatTakesAMixedListLiteralOtherCallsDoNot() throws Exception {
        assertEquals("1 a true", eval("'%s %s %s'.format([1, 'a', true])"));
        assertEquals("[x, 2]", eval("'%s'.format([['x', 2]])"));
        assertTrue(compileError("[1, 'a'].size()").contains("expected type 'int' but found 'string'"));
        assertTrue(compileError("{'a': 1, 'b': 'x'}").contains("expected type 'int' but found 'string'"));
        assertTrue(compileError("size([1, 'a'])").contains("expected type 'int' but found 'string'"));
        // exact types: dyn and int are different element types, as in cel-go
        assertTrue(compileError("[1, self]").contains("expected type 'int' but found 'dyn'"));
        // optional elements count as their value type
        assertEquals(List.of(1L, 2L), eval("[1, ?optional.of(2), ?optional.none()]"));
    }

    // Kubernetes staging/src/k8s.io/apiserver/pkg/cel/library/urls.go: validity by url.ParseRequestURI, parts by
    // url.Parse, which drops the #fragment.
    @Test
    void urlPartsLeaveOutTheFragment() throws Exception {
        assertEquals(Map.of("x", List.of("1"), "y", List.of("2")),
                eval("url('https://example.com/p?x=1&y=2#frag').getQuery()"));
        assertEquals("/docs/home", eval("url('https://example.com/docs/home#top').getEscapedPath()"));
        assertEquals(true, eval("isURL('https://example.com/a#b')"));
    }

    // Kubernetes library/format.go "byte" -> kube-openapi strfmt "byte" -> govalidator.IsBase64 (padded standard
    // base64); Java's decoder alone would accept unpadded and empty input.
    @ParameterizedTest
    @CsvSource({
        "aGVsbG8=, true",
        "aGk=, true",
        "aGVsbG8, false",
        "aGVsbG8==, false",
        "aGVs bG8=, false",
        "aGVsbG8_, false",
    })
    void byteFormatIsPaddedStandardBase64(String value, boolean valid) throws Exception {
        assertEquals(valid, eval("format.byte().validate('" + value + "') == optional.none()"), value);
        assertEquals(false, eval("format.byte().validate('') == optional.none()"));
    }

    // Kubernetes environment/base.go enables cel.ValidateTimestampLiterals / ValidateDurationLiterals
    // (cel-go cel/validator.go): a literal conversion that fails is a compile error at the literal.
    @ParameterizedTest
    @ValueSource(strings = {
        "timestamp('1000-00-00T00:00:00Z')",        // month 00
        "timestamp('2023-02-29T00:00:00Z')",        // no such day
        "timestamp('2000-01-01T24:00:00Z')",
        "timestamp('2000-01-01 00:00:00Z')",
        "timestamp('10000-01-01T00:00:00Z')",
        "timestamp(-62135596801)",                   // before 0001-01-01
        "timestamp(253402300800)",                   // after 9999-12-31T23:59:59
        "duration('1d')",
        "duration('1')",
    })
    void invalidLiteralConversionIsACompileError(String expr) {
        String message = compileError(expr);
        assertTrue(message.contains("invalid " + expr.substring(0, expr.indexOf('(')) + " argument"), message);
        if (expr.charAt(expr.indexOf('(') + 1) != '-') {
            assertTrue(message.contains(":1:" + (expr.indexOf('(') + 2) + ":"), message);   // at the literal
        }
    }

    // cel-go common/types/string.go (time.Parse(time.RFC3339)) and timestamp.go (valid range): the same rules at
    // run time, when the string is not a literal.
    @Test
    void timestampStringsFollowGoRfc3339AndRange() throws Exception {
        assertEquals(true, eval("timestamp(self) == timestamp('2000-01-01T00:00:00.5Z')",
                "\"2000-01-01T01:00:00.5+01:00\""));
        assertEquals(true, eval("timestamp(self).getMilliseconds() == 500", "\"2000-01-01T01:00:00.5+01:00\""));
        assertEquals(true, eval("timestamp(self) == timestamp('0001-01-01T00:00:00Z')",
                "\"0001-01-01T00:00:00Z\""));
        for (String bad : List.of("\"2000-13-01T00:00:00Z\"", "\"2000-01-01t00:00:00z\"", "\"0000-12-31T23:00:00Z\"",
                "\"9999-12-31T23:59:59-01:00\"")) {
            assertThrows(CelEvaluationError.class, () -> eval("timestamp(self)", bad), bad);
        }
    }

    // cel-go common/types/double.go: string(double) is fmt.Sprintf("%g", d).
    @ParameterizedTest
    @CsvSource({
        "10.0, 10",
        "10.49, 10.49",
        "0.1, 0.1",
        "123456.0, 123456",
        "1e6, 1e+06",
        "1234567.0, 1.234567e+06",
        "0.0001, 0.0001",
        "0.00001, 1e-05",
        "-1.5e-7, -1.5e-07",
        "1e100, 1e+100",
        "-0.0, -0",
    })
    void doubleToStringIsGoPercentG(String literal, String expected) throws Exception {
        assertEquals(expected, eval("string(" + literal + ")"));
    }

    // cel-go ext/comprehensions.go (TwoVarComprehensions, enabled by Kubernetes): existsOne and the transforms.
    @Test
    void twoVariableComprehensions() throws Exception {
        assertEquals(true, eval("{'a': 1, 'b': 2}.existsOne(k, v, v == 2)"));
        assertEquals(false, eval("[1, 2, 1].existsOne(i, v, v == 1)"));
        assertEquals(true, eval("[1, 2, 1].exists_one(i, v, i == 1)"));
        assertEquals(true, eval("[1, 2].all(i, v, v == i + 1) && [1, 2].exists(i, v, i == 1 && v == 2)"));
        assertEquals(List.of(1L, 4L), eval("[1, 2].transformList(i, v, v * (i + 1))"));
        assertEquals(List.of(2L), eval("[1, 2].transformList(i, v, i > 0, v)"));
        assertEquals(Map.of("a", 2L), eval("{'a': 1}.transformMap(k, v, v + 1)"));
        assertEquals(Map.of(1L, "a"), eval("{'a': 1}.transformMapEntry(k, v, {v: k})"));
    }

    // cel-go interpreter/attributes.go: x.?f on an optional x selects inside it; none stays none.
    @Test
    void optionalFieldChainingThroughOptionals() throws Exception {
        String self = "{\"presentObj\": {\"presentStr\": \"value\"}, \"n\": null}";
        assertEquals(Optional.of("value"), eval("self.?presentObj.?presentStr", self));
        assertEquals(Optional.empty(), eval("self.?absentObj.?presentStr", self));
        assertEquals(Optional.empty(), eval("self.?presentObj.?absentStr", self));
        assertEquals("dflt", eval("self.?absentObj.?x.?y.orValue('dflt')", self));
        assertEquals(Optional.of(1L), eval("optional.of({'b': {'c': 1}}).?b.?c"));
        assertEquals(Optional.empty(), eval("optional.none().?b"));
        assertTrue(eval("self.?n", self) instanceof Optional<?> o && o.isPresent());   // present, value null
    }

    // cel-go common/types/*.go IsZeroValue: the zero timestamp is Go's time.Time{} (0001-01-01), not the epoch.
    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "null | false",
        "false | false",
        "0 | false",
        "0u | false",
        "0.0 | false",
        "'' | false",
        "b'' | false",
        "[] | false",
        "{} | false",
        "duration('0s') | false",
        "timestamp('0001-01-01T00:00:00Z') | false",
        "optional.none() | false",
        "timestamp(0) | true",
        "timestamp('1970-01-01T00:00:00Z') | true",
        "duration('1ns') | true",
        "' ' | true",
        "[0] | true",
        "quantity('0') | true",
    })
    void ofNonZeroValueUsesCelGoZeroValues(String value, boolean present) throws Exception {
        assertEquals(present, eval("optional.ofNonZeroValue(" + value + ").hasValue()"), value);
    }

    // cel-go common/types/err.go, overflow.go and map.go: the wording the API server's user reads.
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "9223372036854775807 + 1 | integer overflow",
        "-9223372036854775807 - 2 | integer overflow",
        "int(1e30) | integer overflow",
        "uint(-1) | unsigned integer overflow",
        "5 / 0 | division by zero",
        "5 % 0 | modulus by zero",
        "{'a': 1}['x'] | no such key: x",
        "{'a': 1}.x | no such key: x",
        "{'a': {'b': 1}}.a.c | no such key: c",
    })
    void runtimeErrorsInCelGoWords(String expr, String message) throws Exception {
        assertEquals(message, runtimeError(expr));
    }
}
