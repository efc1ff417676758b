package dev.tollgate.simulator.replay;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import com.fasterxml.jackson.databind.node.ArrayNode;

/** A way a function's answer to one request changed between the baseline and the replay. */
public enum Change {
    ALLOWED_TO_DENIED("allowed->denied"),
    DENIED_TO_ALLOWED("denied->allowed"),
    MESSAGE_CHANGED("message changed"),
    WARNINGS_ADDED("warnings added"),
    WARNINGS_LOST("warnings lost"),
    PATCH_CHANGED("patch changed");

    private final String label;

    Change(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /**
     * Per function that took part on either side, what changed for it (an empty set: unchanged). The request's
     * answer is one: a flip is put on the functions that decided it (allowed->denied on those that deny now,
     * denied->allowed on those that denied before), so a second denial the API server's answer hid is no change.
     * Patches are compared when the request was allowed on both sides (as full patches where both sides have them,
     * else as whether the function mutated); warnings only where both sides record them.
     *
     * @param function the one function to compare (a decision-log line records one), or null for all
     */
    public static Map<String, Set<Change>> compare(Outcome before, Outcome after, String function) {
        if (function != null) {
            before = before.only(function);
            after = after.only(function);
        }
        Set<String> functions = new LinkedHashSet<>(before.involved());
        functions.addAll(after.involved());
        functions.addAll(before.deniers());
        functions.addAll(after.deniers());
        if (function != null) {
            functions.retainAll(Set.of(function));
            functions.add(function);
        }
        Map<String, Set<Change>> out = new LinkedHashMap<>();
        for (String f : functions) {
            Set<Change> changes = EnumSet.noneOf(Change.class);
            if (before.allowed() && !after.allowed() && after.deniers().contains(f)) {
                changes.add(ALLOWED_TO_DENIED);
            }
            if (!before.allowed() && after.allowed() && before.deniers().contains(f)) {
                changes.add(DENIED_TO_ALLOWED);
            }
            // Still denied: the message of f's own denial, since the API server reports whichever validating denial
            // came first and a log holds only that one. A function that no longer denies a request others still deny
            // changed its message; one that joins a denial a recorded baseline shows for another is not counted.
            if (!before.allowed() && !after.allowed() && before.denials().containsKey(f)) {
                String was = before.denials().get(f);
                String now = after.denials().get(f);
                if (!after.denials().containsKey(f) || was != null && now != null && !was.equals(now)) {
                    changes.add(MESSAGE_CHANGED);
                }
            }
            if (before.allowed() && after.allowed() && patchDiffers(before, after, f)) {
                changes.add(PATCH_CHANGED);
            }
            if (before.warnings() != null && after.warnings() != null) {
                List<String> was = before.warnings().getOrDefault(f, List.of());
                List<String> now = after.warnings().getOrDefault(f, List.of());
                if (!was.containsAll(now)) {
                    changes.add(WARNINGS_ADDED);
                }
                if (!now.containsAll(was)) {
                    changes.add(WARNINGS_LOST);
                }
            }
            out.put(f, changes);
        }
        return out;
    }

    private static boolean patchDiffers(Outcome before, Outcome after, String f) {
        if (before.patches() != null && after.patches() != null) {
            ArrayNode was = before.patches().get(f);
            ArrayNode now = after.patches().get(f);
            return !Objects.equals(was == null || was.isEmpty() ? null : was,
                    now == null || now.isEmpty() ? null : now);
        }
        return before.mutated().contains(f) != after.mutated().contains(f);
    }

    /** The warnings of {@code f} in {@code a} that {@code b} lacks. */
    static List<String> missing(Outcome a, Outcome b, String f) {
        List<String> out = new ArrayList<>(a.warnings() == null ? List.of() : a.warnings().getOrDefault(f, List.of()));
        out.removeAll(b.warnings() == null ? List.of() : b.warnings().getOrDefault(f, List.of()));
        return out;
    }
}
