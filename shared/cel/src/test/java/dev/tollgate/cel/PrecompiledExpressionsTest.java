package dev.tollgate.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.tollgate.admission.Operation;

class PrecompiledExpressionsTest {

    static final List<NamedExpression> VARIABLES = List.of(
            new NamedExpression("containers", "object.spec.containers"),
            new NamedExpression("images", "variables.containers.map(c, c.image)"),
            new NamedExpression("trusted", "variables.images.all(i, i.startsWith('registry.example.com/'))"));

    /** Expressions of every shape the rewriting in ExpressionSet.compile touches, and their result types. */
    static final Map<String, ResultType> EXPRESSIONS = Map.of(
            "variables.trusted", ResultType.BOOL,
            "object.metadata.annotations.x__dash__y == '1'", ResultType.BOOL,
            "object.?spec.?replicas.orValue(1) > 2", ResultType.BOOL,
            "'images: ' + variables.images.join(', ')", ResultType.STRING,
            "size(variables.containers) > 1 ? 'many' : 'one'", ResultType.STRING_OR_NULL,
            "object.spec.containers.exists(c, c.name == 'd') && request.operation == 'CREATE'", ResultType.BOOL);

    final AdmissionInput pod = AdmissionInput.of(Requests.pod(Operation.CREATE, KubeCelTest.POD, null));

    @AfterEach
    void uninstall() {
        PrecompiledExpressions.install(Map.of());
    }

    List<Object> compileAndEvaluate(KubeCel cel) throws Exception {
        ExpressionSet set = cel.compileVariables(VARIABLES);
        List<Object> out = new ArrayList<>();
        for (var e : EXPRESSIONS.entrySet()) {
            CompiledExpression compiled = set.compile(e.getKey(), e.getValue());
            out.add(e.getKey() + " -> " + compiled.checkedType() + " = " + set.newEvaluation(pod).evaluate(compiled));
        }
        return out;
    }

    /** The variables and expressions compiled once, recorded, with what they evaluated to. */
    PrecompiledExpressions.Recorded<List<Object>> recordExamples() {
        return PrecompiledExpressions.record(() -> {
            try {
                return compileAndEvaluate(KubeCel.builder().build());
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }

    @Test
    void anInstalledExpressionIsPlannedWithoutCheckingAndEvaluatesAlike() throws Exception {
        var recorded = recordExamples();
        // every variable and every expression
        assertEquals(VARIABLES.size() + EXPRESSIONS.size(), recorded.checked().size());

        PrecompiledExpressions.install(recorded.checked());
        List<Object> again = compileAndEvaluate(KubeCel.builder().build());
        assertEquals(VARIABLES.size() + EXPRESSIONS.size(), PrecompiledExpressions.usedCount());
        assertEquals(recorded.result(), again, "checked types and values of the precompiled expressions");
    }

    @Test
    void anotherEnvironmentMissesAndIsCheckedAsUsual() throws Exception {
        var recorded = recordExamples();
        PrecompiledExpressions.install(recorded.checked());

        // other composition variables: the same source means something else
        ExpressionSet other = KubeCel.builder().build().compileVariables(
                List.of(new NamedExpression("trusted", "object.metadata.name == 'web'")));
        assertEquals(true, other.newEvaluation(pod).evaluate(other.compile("variables.trusted", ResultType.BOOL)));
        // without params declared, params is refused rather than taken from an environment that had it
        ExpressionSet noParams = KubeCel.builder().build().compileVariables(List.of(), DeclaredTypes.none(),
                java.util.Set.of("params"));
        assertThrows(CelCompileException.class, () -> noParams.compile("params == null", ResultType.BOOL));
        assertEquals(0, PrecompiledExpressions.usedCount());
        // the same variables hit; another result type for the same source misses (and is refused)
        ExpressionSet same = KubeCel.builder().build().compileVariables(VARIABLES);
        assertEquals(VARIABLES.size(), PrecompiledExpressions.usedCount());
        assertThrows(CelCompileException.class, () -> same.compile("variables.trusted", ResultType.STRING));
        assertEquals(VARIABLES.size(), PrecompiledExpressions.usedCount());
    }

    @Test
    void anExpressionThatFailsIsNotRecorded() {
        var recorded = PrecompiledExpressions.record(() -> {
            try {
                return KubeCel.standard().compile("object.spec.replicas +", ResultType.BOOL);
            } catch (CelCompileException e) {
                return e.getMessage();
            }
        });
        assertTrue(recorded.result() instanceof String, "the syntax error is reported");
        assertTrue(recorded.checked().isEmpty());
        assertFalse(PrecompiledExpressions.installedCount() > 0);
    }
}
