package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.Check.since;

import java.util.List;

import dev.tollgate.functions.podsecurity.Level;

/**
 * Restricted, v1.35+: the strict procMount rule even for pods in a user namespace. It overrides the baseline
 * {@code procMount} check, whose v1.35 revision relaxes for them.
 */
final class ProcMountRestricted {

    static final Check CHECK = new Check("procMount_restricted", Level.RESTRICTED,
            List.of(since(35, ProcMount::strict, ProcMount.ID)));

    private ProcMountRestricted() {
    }
}
