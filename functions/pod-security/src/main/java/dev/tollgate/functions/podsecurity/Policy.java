package dev.tollgate.functions.podsecurity;

/**
 * The level and version each mode applies, as a namespace's {@code pod-security.kubernetes.io/*} labels give them.
 * A null mode is not evaluated by this endpoint: a webhook entry usually serves one mode, so that the namespace
 * selector of each entry can pick the namespaces labelled for that mode.
 */
public record Policy(LevelVersion enforce, LevelVersion audit, LevelVersion warn) {

    /** A policy that applies one mode only. */
    public static Policy single(Mode mode, LevelVersion levelVersion) {
        return switch (mode) {
            case ENFORCE -> new Policy(levelVersion, null, null);
            case AUDIT -> new Policy(null, levelVersion, null);
            case WARN -> new Policy(null, null, levelVersion);
        };
    }

    /** True when no mode would ever report anything: every mode served is privileged. */
    public boolean fullyPrivileged() {
        return privileged(enforce) && privileged(audit) && privileged(warn);
    }

    /** True when neither audit nor warn would report anything (all that matters for pod templates). */
    public boolean auditAndWarnPrivileged() {
        return privileged(audit) && privileged(warn);
    }

    private static boolean privileged(LevelVersion lv) {
        return lv == null || lv.privileged();
    }

    @Override
    public String toString() {
        return "enforce=" + enforce + ", audit=" + audit + ", warn=" + warn;
    }
}
