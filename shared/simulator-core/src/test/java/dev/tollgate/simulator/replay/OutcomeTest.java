package dev.tollgate.simulator.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import dev.tollgate.simulator.CallRecord;
import dev.tollgate.simulator.ManifestReport;

class OutcomeTest {

    static final Function<String, String> FUNCTION = w -> w.substring(0, w.indexOf('.'));

    static CallRecord call(int round, String webhook, CallRecord.Result result) {
        return new CallRecord(round == 0 && webhook.startsWith("pull") ? "mutating" : "validating", round, 0, "c",
                webhook, result, "", 1, null, List.of());
    }

    static ManifestReport report(boolean allowed, List<CallRecord> calls) {
        return new ManifestReport("s", "Pod", "shop", "web", "CREATE", false, allowed, allowed ? 200 : 403, "", calls,
                List.of(), Map.of(), List.of(), null, null, JsonNodeFactory.instance.arrayNode(), List.of());
    }

    /** A decision-log line's recorded answer for {@code function}. */
    static Outcome line(String function, String verdict) {
        boolean denied = verdict.equals("denied");
        return new Outcome(!denied, denied ? 403 : 200, null, denied ? Map.of(function, "") : Map.of(), null,
                verdict.equals("patched") ? Set.of(function) : Set.of(), null, Set.of(function));
    }

    @Test
    void aReinvocationIsAnotherCallThanTheLines() {
        // pull left the object alone in round 0 and patched it when reinvoked: the round-0 line said allowed.
        ManifestReport r = report(true, List.of(call(0, "pull.x", CallRecord.Result.ALLOWED),
                call(1, "pull.x", CallRecord.Result.PATCHED)));
        Outcome now = Outcome.forCall(r, FUNCTION, "pull", line("pull", "allowed"));
        assertTrue(now.allowed());
        assertEquals(Set.of(), now.mutated());
        assertTrue(Change.compare(line("pull", "allowed"), now, "pull").get("pull").isEmpty());
    }

    @Test
    void aLineIsMatchedWithTheCallOfItsFunctionThatAnsweredAsItDid() {
        // Pod Security: the warn webhook allowed, the enforce webhook denied; each wrote a line.
        ManifestReport r = report(false, List.of(call(0, "pod-security.warn", CallRecord.Result.ALLOWED),
                call(0, "pod-security.enforce", CallRecord.Result.DENIED)));
        assertTrue(Change.compare(line("pod-security", "allowed"), Outcome.forCall(r, FUNCTION, "pod-security",
                line("pod-security", "allowed")), "pod-security").get("pod-security").isEmpty());
        assertTrue(Change.compare(line("pod-security", "denied"), Outcome.forCall(r, FUNCTION, "pod-security",
                line("pod-security", "denied")), "pod-security").get("pod-security").isEmpty());
        // Only when no call answered as the line did is it a change.
        ManifestReport allowed = report(true, List.of(call(0, "pod-security.warn", CallRecord.Result.ALLOWED),
                call(0, "pod-security.enforce", CallRecord.Result.ALLOWED)));
        Outcome now = Outcome.forCall(allowed, FUNCTION, "pod-security", line("pod-security", "denied"));
        assertEquals(Set.of(Change.DENIED_TO_ALLOWED), Change.compare(line("pod-security", "denied"), now,
                "pod-security").get("pod-security"));
        ManifestReport denied = report(false, List.of(call(0, "pod-security.enforce", CallRecord.Result.DENIED)));
        Outcome flipped = Outcome.forCall(denied, FUNCTION, "pod-security", line("pod-security", "allowed"));
        assertFalse(flipped.allowed());
        assertEquals(Set.of(Change.ALLOWED_TO_DENIED), Change.compare(line("pod-security", "allowed"), flipped,
                "pod-security").get("pod-security"));
    }

    @Test
    void aFunctionNotCalledAllowsAndTookNoPart() {
        Outcome now = Outcome.forCall(report(true, List.of()), FUNCTION, "pull", line("pull", "patched"));
        assertTrue(now.allowed());
        assertEquals(Set.of(), now.involved());
        assertEquals(Set.of(Change.PATCH_CHANGED), Change.compare(line("pull", "patched"), now, "pull").get("pull"));
    }
}
