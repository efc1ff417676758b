package dev.tollgate.admission;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The warnings a client is shown, collected as the API server collects them for one request
 * (apiserver {@code pkg/endpoints/filters/warning.go}, the warning recorder): empty and repeated texts are dropped;
 * every warning is kept whole while the total stays within {@value #TRUNCATE_AT_TOTAL} characters; the warning that
 * takes the total past it switches to truncation: every warning so far and every later one is cut to
 * {@value #TRUNCATE_ITEM} characters, and once the cut total reaches {@value #TRUNCATE_AT_TOTAL} later warnings are
 * dropped. A warning holding a control character (a line break) cannot be a header value and is dropped. Lengths
 * count Unicode code points (Go runes). Not thread-safe; {@link #copy()} for immutable holders.
 */
public final class WarningRecorder {

    /** The total (in characters) up to which warnings are shown whole. */
    public static final int TRUNCATE_AT_TOTAL = 4 * 1024;
    /** The length every warning is cut to once the total has passed {@link #TRUNCATE_AT_TOTAL}. */
    public static final int TRUNCATE_ITEM = 256;

    private final Set<String> recorded;
    private final List<String> ordered;
    private final List<String> shown;
    private int written;
    private boolean truncating;

    public WarningRecorder() {
        this(new HashSet<>(), new ArrayList<>(), new ArrayList<>(), 0, false);
    }

    private WarningRecorder(Set<String> recorded, List<String> ordered, List<String> shown, int written,
            boolean truncating) {
        this.recorded = recorded;
        this.ordered = ordered;
        this.shown = shown;
        this.written = written;
        this.truncating = truncating;
    }

    public WarningRecorder copy() {
        return new WarningRecorder(new HashSet<>(recorded), new ArrayList<>(ordered), new ArrayList<>(shown), written,
                truncating);
    }

    /** Records one warning; returns whether anything changed. */
    public boolean add(String text) {
        if (text == null || text.isEmpty() || (truncating && written >= TRUNCATE_AT_TOTAL)) {
            return false;
        }
        if (!recorded.add(text)) {
            return false;
        }
        if (!truncating) {
            ordered.add(text); // kept whole only for the one replay when truncation starts
        }
        if (!printable(text)) {
            return false; // net.NewWarningHeader refuses control characters: the API server drops the warning
        }
        String cut = truncating ? cut(text) : text;
        int length = cut.codePointCount(0, cut.length());
        if (truncating || written + length <= TRUNCATE_AT_TOTAL) {
            written += length;
            shown.add(cut);
            return true;
        }
        // Past the total for the first time: replay everything so far, each cut.
        truncating = true;
        written = 0;
        shown.clear();
        for (String w : ordered) {
            if (!printable(w)) {
                continue;
            }
            String c = cut(w);
            written += c.codePointCount(0, c.length());
            shown.add(c);
        }
        ordered.clear();
        return true;
    }

    /** The warnings as the client sees them, in the order added. */
    public List<String> warnings() {
        return List.copyOf(shown);
    }

    public boolean truncating() {
        return truncating;
    }

    private static boolean printable(String text) {
        return text.codePoints().noneMatch(Character::isISOControl);
    }

    private static String cut(String text) {
        if (text.codePointCount(0, text.length()) <= TRUNCATE_ITEM) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, TRUNCATE_ITEM));
    }
}
