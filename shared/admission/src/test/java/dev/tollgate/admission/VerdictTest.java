package dev.tollgate.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class VerdictTest {

    @Test
    void allowIsAllowedWithCode200() {
        assertTrue(Verdict.allow().allowed());
        assertEquals(200, Verdict.allow().code());
    }

    @Test
    void denyDefaultsTo403Forbidden() {
        Verdict v = Verdict.deny("nope");
        assertFalse(v.allowed());
        assertEquals(403, v.code());
        assertEquals("Forbidden", v.reason());
        assertEquals("nope", v.message());
    }

    @ParameterizedTest
    @CsvSource({ "400,BadRequest", "404,NotFound", "409,Conflict", "422,Invalid", "429,TooManyRequests",
            "500,InternalError", "503,ServiceUnavailable", "504,Timeout" })
    void denyPicksTheKubernetesReasonForTheCode(int code, String reason) {
        assertEquals(reason, Verdict.deny(code, "m").reason());
    }

    @ParameterizedTest
    @ValueSource(ints = { 0, 200, 302, 399, 600 })
    void denyNeedsAnErrorCode(int code) {
        assertThrows(IllegalArgumentException.class, () -> Verdict.deny(code, "m"));
    }

    @Test
    void warningsLoseThePrefixAndLineBreaks() {
        Verdict v = Verdict.allow().withWarning("Warning: line one\nline two").withWarning("  warning:x ");
        assertEquals(List.of("line one line two", "x"), v.warnings());
    }

    @Test
    void longWarningsAreCutAndDuplicatesAndBlanksDropped() {
        Verdict v = Verdict.allow().withWarning("a".repeat(1000)).withWarning("b").withWarning("b").withWarning(" ");
        assertEquals(Verdict.MAX_WARNING_LENGTH, v.warnings().get(0).length());
        assertTrue(v.warnings().get(0).endsWith("..."));
        assertEquals(2, v.warnings().size());
    }

    @Test
    void totalWarningSizeStaysUnderTheApiServerLimit() {
        Verdict v = Verdict.allow();
        for (int i = 0; i < 100; i++) {
            v = v.withWarning(i + ":" + "w".repeat(200));
        }
        int total = v.warnings().stream().mapToInt(String::length).sum();
        assertTrue(total <= Verdict.MAX_TOTAL_WARNINGS_LENGTH, "total " + total);
        assertTrue(v.warnings().size() >= 19, "keeps as many as fit: " + v.warnings().size());
    }

    @Test
    void verdictsAreImmutable() {
        Verdict base = Verdict.allow();
        Verdict warned = base.withWarning("w");
        assertTrue(base.warnings().isEmpty());
        assertEquals(List.of("w"), warned.warnings());
        assertThrows(UnsupportedOperationException.class, () -> warned.warnings().add("x"));
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "-bad", "bad-", "has space", "a/b", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" })
    void auditAnnotationKeysMustBeQualifiedNameParts(String key) {
        assertThrows(IllegalArgumentException.class, () -> Verdict.allow().withAuditAnnotation(key, "v"));
    }

    @Test
    void auditAnnotationsKeepOrder() {
        Verdict v = Verdict.deny("m").withAuditAnnotation("b", "1").withAuditAnnotation("a.b_c-d", "2");
        assertEquals(List.of("b", "a.b_c-d"), List.copyOf(v.auditAnnotations().keySet()));
    }
}
