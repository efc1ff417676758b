package dev.tollgate.functions.podsecurity.policy;

import java.util.List;
import java.util.Objects;
import java.util.Set;

import dev.tollgate.functions.podsecurity.Level;

/**
 * One control of the Pod Security Standards, as versioned data: its ID, the level it belongs to, and its revisions,
 * each applying from a policy version (v1.minor) until the next revision. A restricted revision may override
 * baseline checks it supersedes, which then do not run at the restricted level.
 *
 * @param id        the upstream check ID, e.g. {@code runAsNonRoot}
 * @param level     {@link Level#BASELINE} or {@link Level#RESTRICTED}
 * @param revisions in strictly increasing version order
 */
public record Check(String id, Level level, List<Revision> revisions) {

    /** Evaluates one pod. */
    @FunctionalInterface
    public interface PodCheck {
        CheckResult check(Pod pod);
    }

    /**
     * The behaviour of a check from policy version {@code v1.<sinceMinor>} on.
     *
     * @param overrides baseline check IDs this revision replaces at the restricted level
     */
    public record Revision(int sinceMinor, PodCheck check, Set<String> overrides) {
        public Revision {
            Objects.requireNonNull(check, "check");
            overrides = Set.copyOf(overrides);
        }
    }

    public Check {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(level, "level");
        revisions = List.copyOf(revisions);
        if (level == Level.PRIVILEGED) {
            throw new IllegalArgumentException("check " + id + ": the privileged level has no checks");
        }
        if (revisions.isEmpty()) {
            throw new IllegalArgumentException("check " + id + ": no revisions");
        }
        for (int i = 1; i < revisions.size(); i++) {
            if (revisions.get(i).sinceMinor() <= revisions.get(i - 1).sinceMinor()) {
                throw new IllegalArgumentException("check " + id + ": revisions must be in strictly increasing "
                        + "version order");
            }
        }
        if (level == Level.BASELINE && revisions.stream().anyMatch(r -> !r.overrides().isEmpty())) {
            throw new IllegalArgumentException("check " + id + ": only restricted checks may override others");
        }
    }

    public static Revision since(int minor, PodCheck check, String... overrides) {
        return new Revision(minor, check, Set.of(overrides));
    }

    /** The revision in force at {@code minor}, or null when the check does not exist yet at that version. */
    public Revision revisionAt(int minor) {
        Revision found = null;
        for (Revision r : revisions) {
            if (r.sinceMinor() <= minor) {
                found = r;
            }
        }
        return found;
    }
}
