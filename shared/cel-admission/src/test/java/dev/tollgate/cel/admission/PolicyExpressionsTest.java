package dev.tollgate.cel.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.tollgate.cel.AdmissionInput;
import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.NamedExpression;
import dev.tollgate.cel.ResultType;

/**
 * A policy's variables and matchConditions: compile errors kept for the failurePolicy, and the API server's rule
 * for conditions (any false skips, else an error fails, else match; Kubernetes
 * staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions/matcher.go).
 */
class PolicyExpressionsTest {

    private static final KubeCel CEL = KubeCel.standard();

    private static PolicyExpressions expressions(List<NamedExpression> conditions, List<NamedExpression> variables) {
        return new PolicyExpressions(CEL, new PolicySpec("p", null, MatchResources.EVERYTHING, conditions, variables,
                PolicySpec.FailurePolicy.Fail));
    }

    private static PolicyExpressions.ConditionResult conditions(String... expressions) {
        List<NamedExpression> named = new java.util.ArrayList<>();
        for (int i = 0; i < expressions.length; i++) {
            named.add(new NamedExpression("c" + i, expressions[i]));
        }
        PolicyExpressions p = expressions(named, List.of());
        return p.matchConditions(p.set().newEvaluation(AdmissionInput.of(Requests.createDeployment("shop", 2))));
    }

    @Test
    void anyFalseConditionSkipsEvenWhenAnotherErrs() {
        assertEquals(PolicyExpressions.ConditionResult.NO_MATCH,
                conditions("object.metadata.missing == 'x'", "object.spec.replicas > 5"));
    }

    @Test
    void allTrueMatchesAndAnErrorWithoutFalseIsAnError() {
        assertEquals(PolicyExpressions.ConditionResult.MATCH, conditions("true", "object.spec.replicas == 2"));
        PolicyExpressions.ConditionResult r = conditions("true", "object.metadata.missing == 'x'");
        assertTrue(r.failed());
        assertEquals("matchCondition 'c1': expression 'object.metadata.missing == 'x'' resulted in error:"
                + " no such key: missing", r.error());
    }

    /**
     * A request evaluating an expression that did not compile reports admission/plugin/cel/filter.go's
     * "compilation error: " and compile.go's error; the startup report names the field.
     */
    @Test
    void compileErrorsAreKeptAndReportedNotThrown() {
        PolicyExpressions p = expressions(List.of(new NamedExpression("c", "'not a bool'")), List.of());
        assertEquals(List.of("compilation error: matchConditions[c]: must evaluate to bool but got string"),
                p.compileErrors());
        PolicyExpressions.Compiled wrongType = p.compile("'text'", ResultType.BOOL, "validations[0].expression");
        assertTrue(wrongType.failed());
        assertEquals("compilation error: must evaluate to bool but got string", wrongType.error());
        assertEquals("must evaluate to bool but got string", wrongType.compileError());
        PolicyExpressions.Compiled undeclared = p.compile("x == 1", ResultType.BOOL, "validations[1].expression");
        assertEquals("compilation error: compilation failed: ERROR: <input>:1:1: undeclared reference to 'x' (in"
                + " container '')\n | x == 1\n | ^", undeclared.error());
        assertEquals("compilation error: validations[1].expression: compilation failed: ERROR: <input>:1:1: "
                + "undeclared reference to 'x' (in container '')\n | x == 1\n | ^", p.compileErrors().get(2));
        // the matchCondition that did not compile: its error under the failurePolicy
        PolicyExpressions.ConditionResult r = p.matchConditions(p.set().newEvaluation(
                AdmissionInput.of(Requests.createDeployment("shop", 2))));
        assertEquals("compilation error: must evaluate to bool but got string", r.error());
    }

    /**
     * composition.go: a variable that does not compile is declared dyn and fails only the expressions that read it
     * ("composited variable %q fails to compile: " and compile.go's error, in filter.go's "expression '%v' resulted
     * in error: ").
     */
    @Test
    void variablesAreCompiledInOrderAndABrokenOneFailsOnlyWhatReadsIt() throws Exception {
        PolicyExpressions ok = expressions(List.of(), List.of(new NamedExpression("replicas", "object.spec.replicas"),
                new NamedExpression("many", "variables.replicas > 1")));
        PolicyExpressions.Compiled c = ok.compile("variables.many", ResultType.BOOL, "validations[0].expression");
        assertFalse(c.failed());
        assertNull(ok.variablesError());
        PolicyExpressions broken = expressions(List.of(), List.of(new NamedExpression("v", "object.spec +")));
        assertNull(broken.variablesError());
        String compileError = "compilation failed: ERROR: <input>:1:14: Syntax error: mismatched input '<EOF>' "
                + "expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, "
                + "STRING, BYTES, IDENTIFIER}\n | object.spec +\n | .............^";
        assertEquals(List.of("compilation error: variables[v]: " + compileError), broken.compileErrors());
        var evaluation = broken.set().newEvaluation(
                AdmissionInput.of(Requests.createDeployment("shop", 2)));
        assertTrue(evaluation.evaluateBool(broken.compile("true", ResultType.BOOL, "x").expression()));
        var readsV = broken.compile("variables.v == 1", ResultType.BOOL, "validations[0].expression");
        assertFalse(readsV.failed());
        var e = org.junit.jupiter.api.Assertions.assertThrows(dev.tollgate.cel.CelEvaluationError.class,
                () -> evaluation.evaluateBool(readsV.expression()));
        assertEquals("expression 'variables.v == 1' resulted in error: composited variable \"v\" fails to compile: "
                + compileError, PolicyExpressions.describe(e));
    }
}
