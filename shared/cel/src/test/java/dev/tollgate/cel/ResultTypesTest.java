package dev.tollgate.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The declared result types of admission expressions, as the API server enforces them (Kubernetes
 * staging/src/k8s.io/apiserver/pkg/admission/plugin/cel/compile.go for compile time, policy/validating/validator.go
 * for an audit annotation's run-time message): validation and matchCondition bool, messageExpression string,
 * auditAnnotation valueExpression string or null. A type the checker knows is checked when compiling; a dyn result
 * when evaluating.
 */
class ResultTypesTest {

    static final KubeCel CEL = KubeCel.builder().variables("self").build();

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        // validation expression, matchCondition
        "BOOL | 'a' + 'b' | must evaluate to bool but got string",
        "BOOL | 1 | must evaluate to bool but got int",
        "BOOL | [true] | must evaluate to bool but got list(bool)",
        "BOOL | null | must evaluate to bool but got null_type",
        "BOOL | optional.of(true) | must evaluate to bool but got optional_type(bool)",
        // messageExpression
        "STRING | 1 == 1 | must evaluate to string but got bool",
        "STRING | null | must evaluate to string but got null_type",
        "STRING | {'a': 'b'} | must evaluate to string but got map(string, string)",
        // auditAnnotations valueExpression
        "STRING_OR_NULL | 42 | must evaluate to one of [string null_type] but got int",
        "STRING_OR_NULL | ['x'] | must evaluate to one of [string null_type] but got list(string)",
    })
    void aKnownWrongTypeIsACompileErrorInTheApiServersWords(ResultType type, String expr, String message) {
        CelCompileException e = assertThrows(CelCompileException.class, () -> CEL.compile(expr, type));
        assertEquals(message, e.issues().get(0).message());
        assertEquals(expr, e.expression());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "BOOL | 1 == 1",
        "BOOL | self.x",
        "STRING | 'a' + 'b'",
        "STRING | self.x",
        "STRING_OR_NULL | 'a'",
        "STRING_OR_NULL | null",
        "STRING_OR_NULL | self.x",
        "ANY | [1, 2]",
    })
    void theRightTypeOrDynCompiles(ResultType type, String expr) throws Exception {
        assertEquals(expr, CEL.compile(expr, type).source());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "BOOL | \"text\" | must evaluate to bool but got string",
        "BOOL | null | must evaluate to bool but got null_type",
        "BOOL | [true] | must evaluate to bool but got list",
        "STRING | 3 | must evaluate to string but got int",
        "STRING | null | must evaluate to string but got null_type",
        "STRING | {\"a\": 1} | must evaluate to string but got map",
        "STRING_OR_NULL | 3.5 | valueExpression 'self.x' resulted in unsupported return type: double. Return type must be either string or null.",
        "STRING_OR_NULL | true | valueExpression 'self.x' resulted in unsupported return type: bool. Return type must be either string or null.",
    })
    void aDynResultOfTheWrongTypeFailsWhenEvaluated(ResultType type, String xJson, String message) throws Exception {
        CompiledExpression e = CEL.compile("self.x", type);
        Evaluation ev = CEL.newEvaluation(Map.of("self", Requests.json("{\"x\": " + xJson + "}")));
        CelEvaluationError err = assertThrows(CelEvaluationError.class,
                () -> {
                    if (type == ResultType.BOOL) {
                        ev.evaluateBool(e);
                    } else {
                        ev.evaluateString(e);
                    }
                });
        assertEquals(message, err.getMessage());
        assertEquals(CelEvaluationError.Kind.RUNTIME, err.kind());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "BOOL | true",
        "STRING | \"text\"",
        "STRING_OR_NULL | \"text\"",
        "STRING_OR_NULL | null",
    })
    void aDynResultOfTheRightTypeIsReturned(ResultType type, String xJson) throws Exception {
        CompiledExpression e = CEL.compile("self.x", type);
        Evaluation ev = CEL.newEvaluation(Map.of("self", Requests.json("{\"x\": " + xJson + "}")));
        Object expected = CelValues.fromJson(Requests.json(xJson));
        if (type == ResultType.BOOL) {
            assertEquals(expected, ev.evaluateBool(e));
        } else if (xJson.equals("null")) {
            assertNull(ev.evaluateString(e));
        } else {
            assertEquals(expected, ev.evaluateString(e));
        }
    }
}
