package dev.tollgate.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A conditional with a null branch type-checks as in the API server (cel-go): {@code _?_:_} is {@code (bool, A, A) ->
 * A} and null unifies only with messages, wrappers, optional, timestamp, duration and dyn. So {@code c ? 'text' :
 * null} is a compile error (with an explanation), and the inferred types of the accepted forms are cel-go's.
 */
class ConditionalNullTest {

    /** The Kubernetes documentation's auditAnnotations example (ValidatingAdmissionPolicy, "Audit annotations"). */
    static final String DOCUMENTED = "object.spec.replicas > 50 ? 'Deployment spec.replicas set to ' "
            + "+ string(object.spec.replicas) : null";
    /** The same annotation in a form the API server accepts: an empty value omits the annotation, as null does. */
    static final String PORTABLE = "object.spec.replicas > 50 ? 'Deployment spec.replicas set to ' "
            + "+ string(object.spec.replicas) : ''";
    static final String WHY = "the API server's CEL rejects this expression too";

    final KubeCel cel = KubeCel.standard();

    static AdmissionInput deployment(int replicas) {
        return AdmissionInput.of(Requests.createDeployment("{'apiVersion':'apps/v1','kind':'Deployment',"
                + "'metadata':{'name':'web','namespace':'default'},'spec':{'replicas':" + replicas + "}}"));
    }

    Object eval(String expression, int replicas) throws Exception {
        return cel.newEvaluation(deployment(replicas)).evaluate(cel.compile(expression, ResultType.ANY));
    }

    @Test
    void documentedAuditAnnotationExampleIsRejectedWithTheApiServersErrorAndAWayOut() {
        CelCompileException e = assertThrows(CelCompileException.class,
                () -> cel.compile(DOCUMENTED, ResultType.STRING_OR_NULL));
        assertEquals(1, e.issues().size(), e.getMessage());
        String message = e.issues().get(0).message();
        assertTrue(message.startsWith("found no matching overload for '_?_:_' applied to '(bool, string, null)'"),
                message);
        assertTrue(message.contains(WHY), message);
        assertTrue(message.contains("write '' instead of null"), message);
        assertEquals(DOCUMENTED.indexOf('?') + 1, e.issues().get(0).column(), "the error points at the '?'");
        assertTrue(e.getMessage().contains(DOCUMENTED), "the message names the expression: " + e.getMessage());

        e = assertThrows(CelCompileException.class,
                () -> cel.compile("object.spec.replicas > 50 ? null : 'few'", ResultType.STRING_OR_NULL));
        assertTrue(e.getMessage().contains("applied to '(bool, null, string)'"), e.getMessage());
        assertTrue(e.getMessage().contains("write '' instead of null"), e.getMessage());
    }

    @Test
    void portableFormAndNullLiteralThroughStringOrNull() throws Exception {
        CompiledExpression annotation = cel.compile(PORTABLE, ResultType.STRING_OR_NULL);
        assertEquals("string", annotation.checkedType());
        assertEquals("Deployment spec.replicas set to 128",
                cel.newEvaluation(deployment(128)).evaluateString(annotation));
        assertEquals("", cel.newEvaluation(deployment(3)).evaluateString(annotation));

        CompiledExpression none = cel.compile("null", ResultType.STRING_OR_NULL);
        assertEquals("null", none.checkedType());
        assertNull(cel.newEvaluation(deployment(3)).evaluateString(none));

        CelCompileException e = assertThrows(CelCompileException.class, () -> cel.compile("null", ResultType.STRING));
        assertTrue(e.getMessage().contains("must evaluate to string but got null_type"), e.getMessage());
    }

    @Test
    void conditionalsWithNullThatCelGoAcceptsKeepItsResultTypes() throws Exception {
        assertEquals("google.protobuf.Duration",
                cel.compile("true ? duration('1s') : null", ResultType.ANY).checkedType());
        String timestamp = "object.spec.replicas > 50 ? timestamp('2024-01-01T00:00:00Z') : null";
        assertEquals("google.protobuf.Timestamp", cel.compile(timestamp, ResultType.ANY).checkedType());
        assertNull(eval(timestamp, 3));
        assertEquals("optional_type(int)", cel.compile("true ? optional.of(1) : null", ResultType.ANY).checkedType());
        assertEquals("null", cel.compile("true ? null : null", ResultType.ANY).checkedType());

        String dynamic = "object.spec.replicas > 50 ? object.spec.replicas : null";
        assertEquals("dyn", cel.compile(dynamic, ResultType.ANY).checkedType());
        assertEquals(128L, eval(dynamic, 128));
        assertNull(eval(dynamic, 3));
        String wrapped = "object.spec.replicas > 50 ? dyn('many') : null";
        assertEquals("many", eval(wrapped, 128));
        assertNull(eval(wrapped, 3));
    }

    @Test
    void typeCheckingIsNotLoosened() {
        for (String expression : new String[] {"true ? 'a' : null", "true ? 1 : null", "true ? [1] : null",
                "true ? {'a': 1} : null", "true ? null : 2.5"}) {
            CelCompileException e = assertThrows(CelCompileException.class,
                    () -> cel.compile(expression, ResultType.ANY), expression);
            assertTrue(e.getMessage().contains(WHY), e.getMessage());
            assertTrue(e.getMessage().contains("wrap the other branch in dyn(...)"), e.getMessage());
        }
        CelCompileException e = assertThrows(CelCompileException.class,
                () -> cel.compile("object.spec.replicas > 50 ? 'too many' : null", ResultType.STRING));
        assertTrue(e.getMessage().contains("an empty message falls back"), e.getMessage());
        e = assertThrows(CelCompileException.class,
                () -> cel.compile("object.spec.replicas > 50 ? true : null", ResultType.BOOL));
        assertTrue(e.getMessage().contains(WHY), e.getMessage());
        assertFalse(e.getMessage().contains("instead of null"), e.getMessage());

        // Other type errors keep cel-java's message alone.
        for (String expression : new String[] {"true ? 'a' : 1", "'a' == null", "true ? [1] : ['a']"}) {
            e = assertThrows(CelCompileException.class, () -> cel.compile(expression, ResultType.ANY), expression);
            assertTrue(e.getMessage().contains("found no matching overload"), e.getMessage());
            assertFalse(e.getMessage().contains(WHY), e.getMessage());
        }
    }
}
