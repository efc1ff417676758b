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
    void longWarningsAreKeptWholeWhileTheTotalFitsAndDuplicatesAndBlanksDropped() {
        // The API server cuts no single warning until the request's warnings pass 4096 characters in total.
        Verdict v = Verdict.allow().withWarning("a".repeat(1000)).withWarning("b").withWarning("b").withWarning(" ");
        assertEquals(List.of("a".repeat(1000), "b"), v.warnings());
    }

    @Test
    void pastTheTotalEveryWarningIsCutTo256AndLaterOnesDropped() {
        Verdict v = Verdict.allow();
        for (int i = 0; i < 100; i++) {
            v = v.withWarning(i + ":" + "w".repeat(300));
        }
        // 13 whole warnings (3,9xx characters) fit; the 14th passes 4096: all are cut to 256, and warnings are
        // added (cut) until the cut total reaches 4096: 16 x 256 = 4096.
        assertEquals(16, v.warnings().size(), "as many as the API server shows");
        v.warnings().forEach(w -> assertEquals(Verdict.MAX_WARNING_LENGTH, w.length()));
        assertEquals("0:" + "w".repeat(254), v.warnings().get(0));
        assertEquals(v.warnings(), Verdict.allow().withWarnings(
                java.util.stream.IntStream.range(0, 100).mapToObj(i -> i + ":" + "w".repeat(300)).toList()).warnings(),
                "withWarnings is withWarning repeated");
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
