package dev.tollgate.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.tollgate.admission.Operation;

class KubeCelTest {

    static final String POD = "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'web','namespace':'default',"
            + "'labels':{'app.kubernetes.io/name':'web','team':'a'},'annotations':{'x-y':'1','a__b':'2','c.d/e':'3'}},"
            + "'spec':{'replicas':3,'ratio':1.5,'containers':[{'name':'c','image':'registry.example.com/web:1'},"
            + "{'name':'d','image':'docker.io/x'}],'namespace':'n','in':'i','nothing':null}}";

    final KubeCel cel = KubeCel.standard();

    Object eval(String expr, AdmissionInput input) throws Exception {
        return cel.newEvaluation(input).evaluate(cel.compile(expr, ResultType.ANY));
    }

    Object eval(String expr) throws Exception {
        return eval(expr, AdmissionInput.of(Requests.createPod(POD)));
    }

    @Test
    void objectAndOldObjectAsTheApiServerBindsThem() throws Exception {
        assertEquals(true, eval("object.spec.containers.all(c, c.image.startsWith('registry.example.com/')) == false"));
        assertEquals(true, eval("oldObject == null"));
        assertEquals(true, eval("has(object.spec.replicas) && !has(object.spec.missing)"));
        assertEquals(true, eval("'team' in object.metadata.labels"));
        assertEquals(true, eval("object.spec.replicas > 2.5 && object.spec.ratio < 2"));
        assertEquals(3L, eval("object.spec.replicas"));
        assertEquals(true, eval("object.apiVersion == 'v1' && object.kind == 'Pod' && object.metadata.name == 'web'"));
        assertEquals(true, eval("object.spec.nothing == null && has(object.spec.nothing)"));
        var update = AdmissionInput.of(Requests.pod(Operation.UPDATE, POD, POD));
        assertEquals(true, eval("object == oldObject", update));
        var delete = AdmissionInput.of(Requests.pod(Operation.DELETE, null, POD));
        assertEquals(true, eval("object == null && oldObject.metadata.name == 'web'", delete));
    }

    @Test
    void escapedPropertyNames() throws Exception {
        assertEquals("1", eval("object.metadata.annotations.x__dash__y"));
        assertEquals("2", eval("object.metadata.annotations.a__underscores__b"));
        assertEquals("3", eval("object.metadata.annotations.c__dot__d__slash__e"));
        assertEquals("web", eval("object.metadata.labels.app__dot__kubernetes__dot__io__slash__name"));
        assertEquals(true, eval("has(object.metadata.annotations.x__dash__y)"));
        assertEquals("n", eval("object.spec.__namespace__"));
        assertEquals("n", eval("object.spec.namespace"));
        assertEquals("i", eval("object.spec.__in__"));
        assertEquals("1", eval("object.metadata.annotations['x-y']"));
    }

    @Test
    void requestParamsAndNamespaceObject() throws Exception {
        var input = AdmissionInput.of(Requests.createPod(POD))
                .withParams(Requests.json("{'spec':{'maxReplicas':5}}"))
                .withNamespaceObject(Requests.json("{'metadata':{'name':'default','labels':{'env':'prod'}}}"));
        assertEquals(true, eval("request.operation == 'CREATE' && request.kind.kind == 'Pod' && request.resource.resource == 'pods'", input));
        assertEquals(true, eval("request.userInfo.username == 'alice' && 'dev' in request.userInfo.groups", input));
        assertEquals(true, eval("!has(request.subResource) && request.namespace == 'default' && request.dryRun == false", input));
        assertEquals(true, eval("object.spec.replicas <= params.spec.maxReplicas", input));
        assertEquals("prod", eval("namespaceObject.metadata.labels.env", input));
        assertEquals(true, eval("params == null && namespaceObject == null"));
    }

    @Test
    void variablesAreLazyInOrderAndMayUseEarlierOnes() throws Exception {
        ExpressionSet set = cel.compileVariables(List.of(
                new NamedExpression("images", "object.spec.containers.map(c, c.image)"),
                new NamedExpression("foreign", "variables.images.filter(i, !i.startsWith('registry.example.com/'))"),
                new NamedExpression("broken", "object.spec.missing == 1")));
        CompiledExpression rule = set.compile("size(variables.foreign) == 0", ResultType.BOOL);
        CompiledExpression msg = set.compile("'foreign images: ' + variables.foreign.join(', ')", ResultType.STRING);
        Evaluation ev = set.newEvaluation(AdmissionInput.of(Requests.createPod(POD)));
        assertFalse(ev.evaluateBool(rule));
        assertEquals("foreign images: docker.io/x", ev.evaluateString(msg));
        // an erroring variable fails only the expressions that use it
        CompiledExpression usesBroken = set.compile("variables.broken", ResultType.BOOL);
        CelEvaluationError e = assertThrows(CelEvaluationError.class, () -> ev.evaluateBool(usesBroken));
        // composition.go variableAccessor.Callback's words; the error is the reading expression's (filter.go)
        assertEquals("composited variable \"broken\" fails to evaluate: no such key: missing", e.getMessage());
        assertEquals("variables.broken", e.expression());
        assertFalse(ev.evaluateBool(rule));
        // a later variable cannot be used by an earlier one; an unknown one is a compile error
        assertThrows(CelCompileException.class, () -> cel.compileVariables(List.of(
                new NamedExpression("a", "variables.b"), new NamedExpression("b", "1"))));
        CelCompileException unknown = assertThrows(CelCompileException.class,
                () -> set.compile("variables.nope", ResultType.BOOL));
        assertEquals(1, unknown.issues().get(0).line());
        assertEquals(10, unknown.issues().get(0).column());
        assertThrows(CelCompileException.class, () -> cel.compileVariables(List.of(
                new NamedExpression("a", "1"), new NamedExpression("a", "2"))));
    }

    /**
     * A variable left undeclared (params of a policy without paramKind: admission/plugin/cel/compile.go
     * createEnvForOpts) is refused with cel-go's undeclaredReference, in variables and in later expressions alike,
     * but a comprehension variable of that name is not it; declared, the same expressions compile.
     */
    @Test
    void undeclaredVariablesAreRefusedWithCelGosWording() throws Exception {
        java.util.Set<String> noParams = java.util.Set.of("params");
        CelCompileException inVariable = assertThrows(CelCompileException.class, () -> cel.compileVariables(
                List.of(new NamedExpression("max", "int(params.data.max)")), DeclaredTypes.none(), noParams));
        assertEquals("ERROR: <input>:1:5: undeclared reference to 'params' (in container '')\n"
                + " | int(params.data.max)\n | ....^", inVariable.details());
        ExpressionSet set = cel.compileVariables(List.of(), DeclaredTypes.none(), noParams);
        CelCompileException later = assertThrows(CelCompileException.class,
                () -> set.compile("object.spec.replicas <= params.max", ResultType.BOOL));
        assertEquals(1, later.issues().size(), later.getMessage());
        assertEquals(25, later.issues().get(0).column());
        set.compile("[1, 2].all(params, params > 0)", ResultType.BOOL);
        cel.compileVariables(List.of(new NamedExpression("max", "int(params.data.max)")), DeclaredTypes.none(),
                java.util.Set.of()).compile("object.spec.replicas <= variables.max", ResultType.BOOL);
        assertThrows(IllegalArgumentException.class, () -> cel.compileVariables(List.of(), DeclaredTypes.none(),
                java.util.Set.of("nosuch")));
    }

    @Test
    void compileErrorsNameTheExpressionAndPosition() {
        CelCompileException e = assertThrows(CelCompileException.class,
                () -> cel.compile("object.spec.replicas >", ResultType.BOOL));
        assertTrue(e.getMessage().contains("object.spec.replicas >"), e.getMessage());
        assertEquals(1, e.issues().get(0).line());
        e = assertThrows(CelCompileException.class, () -> cel.compile("nosuchvar == 1", ResultType.BOOL));
        assertTrue(e.getMessage().contains("undeclared reference to 'nosuchvar'"), e.getMessage());
        assertEquals(1, e.issues().get(0).column());
        e = assertThrows(CelCompileException.class, () -> cel.compile("'a' + 'b'", ResultType.BOOL));
        assertTrue(e.getMessage().contains("must evaluate to bool"), e.getMessage());
        assertThrows(CelCompileException.class, () -> cel.compile("1 == 1", ResultType.STRING));
        assertThrows(CelCompileException.class, () -> cel.compile("  ", ResultType.BOOL));
    }

    /**
     * Kubernetes admission/plugin/cel/compile.go: the checked type must be exactly the declared one
     * ({@code IsExactType}), so a dyn result is refused when compiled; variables have their expressions' types and
     * {@code request}/{@code namespaceObject} the API server's object types (BuildRequestType, BuildNamespaceType).
     */
    @Test
    void dynResultIsRefusedAsTheApiServerRefusesIt() throws Exception {
        CelCompileException e = assertThrows(CelCompileException.class,
                () -> cel.compile("object.metadata.name", ResultType.BOOL));
        assertEquals("must evaluate to bool but got dyn", e.details());
        e = assertThrows(CelCompileException.class, () -> cel.compile("oldObject", ResultType.STRING_OR_NULL));
        assertEquals("must evaluate to one of [string null_type] but got dyn", e.details());
        // typed: a string field of request, a bool variable
        assertEquals("default", cel.newEvaluation(AdmissionInput.of(Requests.createPod(POD)))
                .evaluateString(cel.compile("request.namespace", ResultType.STRING)));
        ExpressionSet set = cel.compileVariables(List.of(new NamedExpression("named", "has(object.metadata.name)")));
        assertTrue(set.newEvaluation(AdmissionInput.of(Requests.createPod(POD)))
                .evaluateBool(set.compile("variables.named", ResultType.BOOL)));
        e = assertThrows(CelCompileException.class, () -> set.compile("variables.named + 1 == 2", ResultType.BOOL));
        assertTrue(e.details().contains("found no matching overload for '_+_' applied to '(bool, int)'"),
                e.details());
        e = assertThrows(CelCompileException.class, () -> cel.compile("request.nmespace == 'x'", ResultType.BOOL));
        assertTrue(e.details().contains("undefined field 'nmespace'"), e.details());
    }

    @Test
    void runtimeErrors() throws Exception {
        CompiledExpression e = cel.compile("object.spec.missing == 1", ResultType.BOOL);
        CelEvaluationError err = assertThrows(CelEvaluationError.class,
                () -> cel.newEvaluation(AdmissionInput.of(Requests.createPod(POD))).evaluateBool(e));
        assertEquals(CelEvaluationError.Kind.RUNTIME, err.kind());
        assertTrue(err.getMessage().contains("missing"), err.getMessage());
    }

    @Test
    void costLimitStopsRunawayExpressions() throws Exception {
        CompiledExpression heavy = cel.compile(
                "lists.range(300).all(i, lists.range(300).all(j, lists.range(300).all(k, i + j + k >= 0)))",
                ResultType.BOOL);
        CelEvaluationError err = assertThrows(CelEvaluationError.class,
                () -> cel.newEvaluation(AdmissionInput.of(Requests.createPod(POD))).evaluateBool(heavy));
        assertEquals(CelEvaluationError.Kind.COST_LIMIT, err.kind());
        assertTrue(err.getMessage().contains("cost limit exceeded"), err.getMessage());

        // the per-evaluation budget is shared by all expressions of one evaluation
        KubeCel small = KubeCel.builder().costLimitPerExpression(1000).costBudgetPerEvaluation(1500).build();
        CompiledExpression medium = small.compile("lists.range(100).all(i, i >= 0)", ResultType.BOOL);
        Evaluation ev = small.newEvaluation(AdmissionInput.of(Requests.createPod(POD)));
        assertTrue(ev.evaluateBool(medium));
        assertTrue(ev.costUsed() > 100);
        CelEvaluationError budget = null;
        for (int i = 0; i < 10 && budget == null; i++) {
            try {
                ev.evaluateBool(medium);
            } catch (CelEvaluationError x) {
                budget = x;
            }
        }
        assertTrue(budget != null && budget.kind() == CelEvaluationError.Kind.COST_LIMIT);
        assertTrue(budget.getMessage().contains("budget"), budget.getMessage());
    }

    @Test
    void authorizerNeedsAConfiguredDecision() throws Exception {
        String expr = "authorizer.group('apps').resource('deployments').namespace('default').check('create').allowed()";
        CompiledExpression e = cel.compile(expr, ResultType.BOOL);
        CelEvaluationError err = assertThrows(CelEvaluationError.class,
                () -> cel.newEvaluation(AdmissionInput.of(Requests.createPod(POD))).evaluateBool(e));
        assertTrue(err.getMessage().contains("no authorizer is configured"), err.getMessage());
        assertTrue(err.getMessage().contains("KubeCel.builder().authorizer(...)"), err.getMessage());

        // An embedding function gives its own advice (its property), still failing every check.
        KubeCel function = KubeCel.builder()
                .authorizer(Authorizer.none("set tollgate.example.authorizer to allow or deny")).build();
        err = assertThrows(CelEvaluationError.class, () -> function.newEvaluation(AdmissionInput.of(
                Requests.createPod(POD))).evaluateBool(function.compile(expr, ResultType.BOOL)));
        assertTrue(err.getMessage().contains("no authorizer is configured for this function: authorizer checks cannot"
                + " be answered (set tollgate.example.authorizer to allow or deny)"), err.getMessage());
        assertFalse(err.getMessage().contains("KubeCel.builder()"), err.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Authorizer.none(" "));

        KubeCel allow = KubeCel.builder().authorizer(Authorizer.allowAll()).build();
        assertTrue(allow.newEvaluation(AdmissionInput.of(Requests.createPod(POD)))
                .evaluateBool(allow.compile(expr, ResultType.BOOL)));
        List<Authorizer.Attributes> seen = new java.util.ArrayList<>();
        KubeCel custom = KubeCel.builder().authorizer(a -> {
            seen.add(a);
            return a.verb().equals("update") ? Authorizer.Decision.allow("ok") : Authorizer.Decision.deny("no");
        }).build();
        Evaluation ev = custom.newEvaluation(AdmissionInput.of(Requests.createPod(POD)));
        assertTrue(ev.evaluateBool(custom.compile("authorizer.requestResource.check('update').allowed()",
                ResultType.BOOL)));
        assertEquals("no", ev.evaluateString(custom.compile(
                "authorizer.serviceAccount('kube-system', 'ctrl').path('/healthz').check('get').reason()",
                ResultType.STRING)));
        assertEquals("pods", seen.get(0).resource());
        assertEquals("alice", seen.get(0).user());
        assertEquals("system:serviceaccount:kube-system:ctrl", seen.get(1).user());
        assertEquals("/healthz", seen.get(1).path());
    }

    @Test
    void customVariablesForNonAdmissionUse() throws Exception {
        KubeCel crd = KubeCel.builder().variables("self").build();
        CompiledExpression e = crd.compile("self.minReplicas <= self.maxReplicas", ResultType.BOOL);
        assertTrue(crd.newEvaluation(java.util.Map.of("self", Requests.json("{'minReplicas':1,'maxReplicas':3}")))
                .evaluateBool(e));
    }
}
