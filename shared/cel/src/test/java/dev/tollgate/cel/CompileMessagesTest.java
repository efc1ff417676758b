package dev.tollgate.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Compile errors as the API server words them: cel-go's {@code Issues.String()} (common/errors.go
 * {@code Errors.ToDisplayString}: sorted by position, joined by newlines; common/error.go {@code Error.ToDisplayString}:
 * {@code ERROR: <input>:line:column: message}, the source line, dots and a caret) inside Kubernetes'
 * {@code compilation failed: } (k8s.io/apiserver pkg/admission/plugin/cel/compile.go {@code CompileCELExpression}).
 */
class CompileMessagesTest {

    static final KubeCel CEL = KubeCel.builder().variables("self").build();

    static CelCompileException error(String expr, ResultType type) {
        return assertThrows(CelCompileException.class, () -> CEL.compile(expr, type), expr);
    }

    static String details(String expr) {
        return error(expr, ResultType.ANY).details();
    }

    @Test
    void oneErrorAtItsPosition() {
        assertEquals("ERROR: <input>:1:1: undeclared reference to 'x' (in container '')\n | x.y\n | ^", details("x.y"));
        assertEquals("ERROR: <input>:1:11: undeclared reference to 'y' (in container '')\n | self.a && y\n"
                + " | ..........^", details("self.a && y"));
        assertEquals("ERROR: <input>:1:7: found no matching overload for '_+_' applied to '(int, string)'\n"
                + " | 1 + 2 + 'a'\n | ......^", details("1 + 2 + 'a'"));
    }

    @Test
    void everyErrorInSourceOrderOnItsOwnLines() {
        assertEquals("ERROR: <input>:1:1: undeclared reference to 'x' (in container '')\n | x + y\n | ^\n"
                + "ERROR: <input>:1:5: undeclared reference to 'y' (in container '')\n | x + y\n | ....^",
                details("x + y"));
        assertEquals("ERROR: <input>:1:1: undeclared reference to 'a' (in container '')\n | a.exists(e, b)\n | ^\n"
                + "ERROR: <input>:1:13: undeclared reference to 'b' (in container '')\n | a.exists(e, b)\n"
                + " | ............^", details("a.exists(e, b)"));
    }

    @Test
    void laterLinesShowTheirOwnSourceLine() {
        assertEquals("ERROR: <input>:1:1: undeclared reference to 'a' (in container '')\n | a &&\n | ^\n"
                + "ERROR: <input>:3:3: undeclared reference to 'b' (in container '')\n |   b\n | ..^",
                details("a &&\n\n  b"));
    }

    /** common/error.go: tabs shown as spaces; a character of more than one UTF-8 byte gets a full-width dot. */
    @Test
    void tabsAndWideCharacters() {
        assertEquals("ERROR: <input>:1:2: undeclared reference to 'x' (in container '')\n |  x\n | .^", details("\tx"));
        assertEquals("ERROR: <input>:1:7: undeclared reference to 'x' (in container '')\n | 'é' + x\n"
                + " | .\uff0e....^", details("'é' + x"));
        // the caret itself under a wide character
        assertEquals("ERROR: <input>:1:5: Syntax error: token recognition error at: 'é'\n | 1 + é\n | ....\uff3e",
                details("1 + é").lines().limit(3).reduce((a, b) -> a + "\n" + b).orElseThrow());
    }

    @Test
    void syntaxErrors() {
        assertEquals("ERROR: <input>:1:4: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-',"
                + " '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n"
                + " | 1 +\n | ...^", details("1 +"));
    }

    /** compile.go: issues after "compilation failed: "; the result-type and program errors as they are. */
    @Test
    void compilationErrorAsTheApiServerWordsIt() {
        assertEquals("compilation failed: ERROR: <input>:1:1: undeclared reference to 'x' (in container '')\n"
                + " | x.y\n | ^", error("x.y", ResultType.ANY).compilationError());
        assertEquals("must evaluate to bool but got string", error("'text'", ResultType.BOOL).compilationError());
        assertEquals("must evaluate to one of [string null_type] but got int",
                error("1", ResultType.STRING_OR_NULL).compilationError());
        assertEquals("program instantiation failed: error parsing regexp: unexpected ): `)`",
                error("'a'.findAll(')')", ResultType.ANY).compilationError());
        assertEquals("compilation failed: ERROR: <input>:1:13: invalid matches argument\n | 'a'.matches('x++')\n"
                + " | ............^", error("'a'.matches('x++')", ResultType.BOOL).compilationError());
    }

    /**
     * Errors found by different validators (cel-go cel/validator.go; the API server's base environment runs the
     * regex literal validator before the homogeneous aggregate one) are still shown in source order.
     */
    @Test
    void errorsOfDifferentValidatorsSortedByPosition() {
        assertEquals("ERROR: <input>:1:5: expected type 'int' but found 'string'\n | [1, 'a'] == [] && 'a'.matches('(')\n"
                + " | ....^\n"
                + "ERROR: <input>:1:31: invalid matches argument\n | [1, 'a'] == [] && 'a'.matches('(')\n"
                + " | ..............................^", details("[1, 'a'] == [] && 'a'.matches('(')"));
    }

    /**
     * cel-go runs the validators (literal patterns, durations, homogeneous lists) only on an expression that
     * type-checked (cel/env.go Check): with an undeclared reference, the invalid pattern after it is not reported.
     */
    @Test
    void validatorsOnlyAfterASuccessfulCheck() throws Exception {
        CelCompileException e = assertThrows(CelCompileException.class, () -> KubeCel.standard()
                .compileVariables(java.util.List.of(), DeclaredTypes.none(), java.util.Set.of("params"))
                .compile("params.x == 1 && 'a'.matches('(')", ResultType.BOOL));
        assertEquals("compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n"
                + " | params.x == 1 && 'a'.matches('(')\n | ^", e.compilationError());
    }

    /**
     * A composition variable that does not compile (k8s.io/apiserver pkg/admission/plugin/cel/composition.go):
     * declared dyn, so the rest compile; reading it fails with "composited variable ... fails to compile: " and
     * compile.go's error; expressions that do not read it are unaffected.
     */
    @Test
    void aVariableThatDoesNotCompileFailsOnlyWhatReadsIt() throws Exception {
        ExpressionSet set = KubeCel.standard().compileVariablesKeepingErrors(java.util.List.of(
                new NamedExpression("ok", "object.metadata.name"),
                new NamedExpression("broken", "object.spec.replicas >"),
                new NamedExpression("uses", "variables.broken.size() > 0"),
                new NamedExpression("wrong", "'a' + 1")), DeclaredTypes.none(), java.util.Set.of());
        assertEquals(java.util.List.of("broken", "wrong"), java.util.List.copyOf(set.variableCompileErrors().keySet()));
        Evaluation ev = set.newEvaluation(AdmissionInput.of(Requests.createPod(KubeCelTest.POD)));
        assertEquals(true, ev.evaluateBool(set.compile("variables.ok == 'web'", ResultType.BOOL)));
        CompiledExpression readsBroken = set.compile("variables.broken == true", ResultType.BOOL);
        CelEvaluationError e = assertThrows(CelEvaluationError.class, () -> ev.evaluateBool(readsBroken));
        assertEquals("composited variable \"broken\" fails to compile: compilation failed: ERROR: <input>:1:23: "
                + "Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', "
                + "'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | object.spec.replicas >\n"
                + " | ......................^", e.getMessage());
        assertEquals("variables.broken == true", e.expression());
        // a variable reading the failed one fails to evaluate, with the failure inside
        CelEvaluationError nested = assertThrows(CelEvaluationError.class,
                () -> ev.evaluateBool(set.compile("variables.uses", ResultType.BOOL)));
        assertTrue(nested.getMessage().startsWith("composited variable \"uses\" fails to evaluate: composited "
                + "variable \"broken\" fails to compile: compilation failed: ERROR: <input>:1:23: "), nested.getMessage());
        CelEvaluationError wrong = assertThrows(CelEvaluationError.class,
                () -> ev.evaluate(set.compile("variables.wrong", ResultType.ANY)));
        assertEquals("composited variable \"wrong\" fails to compile: compilation failed: ERROR: <input>:1:5: "
                + "found no matching overload for '_+_' applied to '(string, int)'\n | 'a' + 1\n | ....^",
                wrong.getMessage());
    }
}
