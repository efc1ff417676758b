package dev.tollgate.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The API server's warning recorder (apiserver pkg/endpoints/filters/warning.go), at its real limits. */
class WarningRecorderTest {

    @Test
    void warningsAreShownWholeWhileTheTotalIsAtMost4096() {
        WarningRecorder r = new WarningRecorder();
        r.add("x".repeat(3000));
        r.add("y".repeat(1096)); // exactly 4096 in total
        assertEquals(List.of("x".repeat(3000), "y".repeat(1096)), r.warnings());
        assertFalse(r.truncating());
    }

    @Test
    void theWarningThatPassesTheTotalCutsEveryWarningTo256() {
        WarningRecorder r = new WarningRecorder();
        r.add("a".repeat(1000));
        r.add("bb");
        r.add("c".repeat(3100)); // 4102 > 4096: truncation starts and every warning so far is replayed cut
        assertTrue(r.truncating());
        assertEquals(List.of("a".repeat(256), "bb", "c".repeat(256)), r.warnings());
        r.add("d".repeat(300)); // truncating: cut, and added while the cut total is under 4096
        assertEquals("d".repeat(256), r.warnings().get(3));
    }

    @Test
    void onceTheCutTotalReaches4096LaterWarningsAreDropped() {
        WarningRecorder r = new WarningRecorder();
        for (int i = 0; i < 20; i++) {
            r.add(String.format("%02d", i) + "z".repeat(298));
        }
        // 13 x 300 = 3900 fit; the 14th passes: 14 x 256 = 3584; 15th 3840; 16th 4096 = the limit; the rest dropped
        assertEquals(16, r.warnings().size());
        assertFalse(r.add("late"), "dropped: the total is reached");
        assertEquals(16, r.warnings().size());
    }

    @Test
    void theLastWarningAddedMayTakeTheCutTotalPast4096() {
        // As upstream: while truncating, a warning is added when the total so far is under 4096, whatever its size.
        WarningRecorder r = new WarningRecorder();
        r.add("a".repeat(4000));
        r.add("b".repeat(200)); // passes: both cut: 256 + 200 = 456
        for (int i = 0; i < 15; i++) {
            r.add(i + "c".repeat(300));
        }
        int total = r.warnings().stream().mapToInt(String::length).sum();
        assertEquals(456 + 15 * 256, total, "4296: the 15th was added at 4040 < 4096");
        assertFalse(r.add("late"));
    }

    @Test
    void emptyAndRepeatedTextsAreDroppedAndLengthsCountCodePoints() {
        WarningRecorder r = new WarningRecorder();
        assertFalse(r.add(""));
        assertTrue(r.add("same"));
        assertFalse(r.add("same"));
        String wide = "\uD83D\uDE00".repeat(300); // 300 emoji, 600 UTF-16 units
        r.add(wide);
        r.add("x".repeat(3800)); // 4 + 300 + 3800 > 4096: truncation
        assertEquals(256, r.warnings().get(1).codePointCount(0, r.warnings().get(1).length()),
                "cut on a code point boundary, as Go cuts runes");
    }

    @Test
    void aWarningWithAControlCharacterIsDropped() {
        // apimachinery pkg/util/net/http.go NewWarningHeader refuses it, so the recorder writes no header.
        WarningRecorder r = new WarningRecorder();
        assertFalse(r.add("line one\nline two"));
        assertTrue(r.add("fine"));
        assertEquals(List.of("fine"), r.warnings());
    }

    @Test
    void copiesAreIndependent() {
        WarningRecorder a = new WarningRecorder();
        a.add("one");
        WarningRecorder b = a.copy();
        b.add("two");
        assertEquals(List.of("one"), a.warnings());
        assertEquals(List.of("one", "two"), b.warnings());
    }
}
