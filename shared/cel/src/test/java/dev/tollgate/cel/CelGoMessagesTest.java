package dev.tollgate.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * cel-java's errors reworded as cel-go's, word for word; each case names the upstream source of the wording.
 */
class CelGoMessagesTest {

    static final KubeCel CEL = KubeCel.builder().variables("self").build();
    static final JsonNode SELF = Requests.json("{'array':[1,2,3],'str':'abc','re':')'}");

    static String runtimeError(String expr) throws Exception {
        CompiledExpression e = CEL.compile(expr, ResultType.ANY);
        return assertThrows(CelEvaluationError.class, () -> CEL.newEvaluation(Map.of("self", SELF)).evaluate(e))
                .getMessage();
    }

    static String compileError(String expr) {
        return assertThrows(CelCompileException.class, () -> CEL.compile(expr, ResultType.ANY)).details();
    }

    /** cel-go ext/lists.go slice() and flatten(). */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "[1,2,3,4].slice(3, 0)   | cannot slice(3, 0), start index must be less than or equal to end index",
        "[1,2,3,4].slice(0, 10)  | cannot slice(0, 10), list is length 4",
        "[1,2,3,4].slice(-5, 10) | cannot slice(-5, 10), negative indexes not supported",
        "[[1],[2]].flatten(-1)   | level must be non-negative"})
    void listsExtension(String expr, String message) throws Exception {
        assertEquals(message, runtimeError(expr));
    }

    @Test
    void listsExtensionStillWorks() throws Exception {
        assertEquals(java.util.List.of(2L, 3L),
                CEL.newEvaluation(Map.of("self", SELF)).evaluate(CEL.compile("[1,2,3,4].slice(1, 3)", ResultType.ANY)));
        assertEquals(java.util.List.of(java.util.List.of(1L), java.util.List.of(2L), java.util.List.of(3L)),
                CEL.newEvaluation(Map.of("self", SELF))
                        .evaluate(CEL.compile("[[[1]],[[2],[3]]].flatten()", ResultType.ANY)));
    }

    /**
     * Index errors: object data (k8s.io/apiserver/pkg/cel/common/values.go unstructuredList.Get) and CEL lists
     * (cel-go common/types/list.go baseList.Get, IndexOrError).
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "self.array[100]       | index out of bounds: 100",
        "[1, 2][5]             | index '5' out of range in list size '2'",
        "[1, 2][dyn(1.5)]      | unsupported index value 1.5 in list"})
    void listIndex(String expr, String message) throws Exception {
        assertEquals(message, runtimeError(expr));
    }

    /**
     * Regular expressions: cel-go cel/validator.go (ValidateRegexLiterals: "invalid matches argument" at the
     * literal), k8s.io/apiserver/pkg/cel/library/regex.go (find/findAll literals compiled with the program;
     * admission/plugin/cel/compile.go "program instantiation failed: "), Go regexp/syntax's wording.
     */
    @Test
    void regularExpressions() throws Exception {
        assertEquals("ERROR: <input>:1:18: invalid matches argument\n | self.str.matches('x++')\n | .................^",
                compileError("self.str.matches('x++')"));
        assertEquals("program instantiation failed: error parsing regexp: unexpected ): `)`",
                compileError("self.str.findAll(')') == []"));
        assertEquals("error parsing regexp: unexpected ): `)`", runtimeError("self.str.find(self.re)"));
        assertEquals("error parsing regexp: missing closing ): `(a`", runtimeError("self.str.find('(' + 'a')"));
    }

    /** cel-go parser/errors.go ("Syntax error: "), parser/parser_test.go (self.true == 1). */
    @Test
    void syntaxErrors() {
        assertEquals("ERROR: <input>:1:6: Syntax error: mismatched input 'true' expecting IDENTIFIER\n"
                + " | self.true == 1\n | .....^", compileError("self.true == 1"));
        assertEquals("ERROR: <input>:1:6: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-',"
                + " '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n"
                + " | 1 == \n | .....^", compileError("1 == ").replace("ESC_IDENTIFIER, ", "")
                .replace(", ESC_IDENTIFIER", ""));
    }

    /** cel-go checker/errors.go noMatchingOverload: no candidates listed. */
    @Test
    void noMatchingOverload() {
        assertEquals("ERROR: <input>:1:5: found no matching overload for 'isIP' applied to '(int)'\n"
                + " | isIP(1)\n | ....^", compileError("isIP(1)"));
    }

    /** cel-go cel/validator.go: the literal's position; a negative literal starts at its sign (parser.go VisitInt). */
    @Test
    void literalPositions() {
        assertEquals("ERROR: <input>:1:11: invalid timestamp argument\n | timestamp(-62135596801)\n | ..........^",
                compileError("timestamp(-62135596801)"));
        assertEquals("ERROR: <input>:1:10: invalid duration argument\n | duration('1d')\n | .........^",
                compileError("duration('1d')"));
    }

    /** k8s.io/apimachinery/pkg/api/resource/quantity.go: ErrFormatWrong, ErrSuffix, the scanner's rules. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "quantity('')      | quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
        "quantity('10Mo')  | quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
        "quantity('1K')    | unable to parse quantity's suffix",
        "quantity('1e')    | unable to parse quantity's suffix",
        "quantity('1iK')   | unable to parse quantity's suffix"})
    void quantityErrors(String expr, String message) throws Exception {
        assertEquals(message, runtimeError(expr));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "quantity('-').isInteger()                          | true",
        "quantity('.5') == quantity('500m')                 | true",
        "quantity('1.0000000001') == quantity('1000000001n') | true",
        "quantity('1e3') == quantity('1k')                  | true"})
    void quantityValuesAsUpstream(String expr, boolean expected) throws Exception {
        assertEquals(expected, CEL.newEvaluation(Map.of("self", SELF)).evaluate(CEL.compile(expr, ResultType.ANY)));
    }

    /**
     * {@code %s} of durations and timestamps, inside a list argument too: cel-go ext/formatting.go (the string
     * conversion), common/types/duration.go and timestamp.go ConvertToType.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "'%s'.format([duration('1h')])                               | 3600s",
        "'%s'.format([[duration('1.5s'), duration('-1ms')]])         | [1.5s, -0.001s]",
        "'%s'.format([timestamp('2023-01-02T03:04:05Z')])            | 2023-01-02T03:04:05Z",
        "'%s'.format([[timestamp('2023-01-02T03:04:05.500Z')]])      | [2023-01-02T03:04:05.5Z]",
        "'%s'.format([{'d': duration('2m')}])                        | {d: 120s}"})
    void formatOfDurationsAndTimestamps(String expr, String expected) throws Exception {
        assertEquals(expected, CEL.newEvaluation(Map.of("self", SELF)).evaluate(CEL.compile(expr, ResultType.ANY)));
    }
}
