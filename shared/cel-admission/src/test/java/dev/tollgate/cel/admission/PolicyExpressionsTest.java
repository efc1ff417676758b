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

    @Test
    void compileErrorsAreKeptAndReportedNotThrown() {
        PolicyExpressions p = expressions(List.of(new NamedExpression("c", "'not a bool'")), List.of());
        assertEquals(1, p.compileErrors().size());
        PolicyExpressions.Compiled wrongType = p.compile("'text'", ResultType.BOOL, "validations[0].expression");
        assertTrue(wrongType.failed());
        assertEquals("compilation error: validations[0].expression: compilation failed for expression 'text': must"
                + " evaluate to bool but got string", wrongType.error().replace("''text''", "'text'"));
        assertEquals(2, p.compileErrors().size());
    }

    @Test
    void variablesAreCompiledInOrderAndABrokenOneFailsEveryExpression() {
        PolicyExpressions ok = expressions(List.of(), List.of(new NamedExpression("replicas", "object.spec.replicas"),
                new NamedExpression("many", "variables.replicas > 1")));
        PolicyExpressions.Compiled c = ok.compile("variables.many", ResultType.BOOL, "validations[0].expression");
        assertFalse(c.failed());
        assertNull(ok.variablesError());
        PolicyExpressions broken = expressions(List.of(), List.of(new NamedExpression("v", "object.spec +")));
        assertTrue(broken.variablesError().startsWith("compilation error: variables: "), broken.variablesError());
        assertEquals(broken.variablesError(), broken.compile("true", ResultType.BOOL, "x").error());
        assertNull(broken.set());
    }
}
