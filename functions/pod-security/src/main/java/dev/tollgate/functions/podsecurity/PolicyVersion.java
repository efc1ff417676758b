package dev.tollgate.functions.podsecurity;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A policy version: {@code v1.<minor>} or {@code latest}. As upstream, a version newer than any check revision is
 * valid and evaluates like the newest known one; only its name differs in messages.
 *
 * @param minor the minor version; meaningless when {@code latest}
 */
public record PolicyVersion(int minor, boolean latest) {

    public static final PolicyVersion LATEST = new PolicyVersion(0, true);

    // Upstream accepts exactly "latest" or "v1.<n>" without leading zeros.
    private static final Pattern V1 = Pattern.compile("v1\\.(0|[1-9][0-9]{0,3})");

    public PolicyVersion {
        if (minor < 0) {
            throw new IllegalArgumentException("negative minor version " + minor);
        }
    }

    public static PolicyVersion of(int minor) {
        return new PolicyVersion(minor, false);
    }

    public static PolicyVersion parse(String text) {
        if ("latest".equals(text)) {
            return LATEST;
        }
        Matcher m = V1.matcher(text == null ? "" : text);
        if (!m.matches()) {
            throw new IllegalArgumentException("invalid Pod Security version '" + text
                    + "': must be \"latest\" or \"v1.<minor>\", e.g. v1.30");
        }
        return of(Integer.parseInt(m.group(1)));
    }

    /** The minor version whose checks apply, given the newest minor any check knows. */
    public int effectiveMinor(int newestKnownMinor) {
        return latest ? newestKnownMinor : Math.min(minor, newestKnownMinor);
    }

    @Override
    public String toString() {
        return latest ? "latest" : "v1." + minor;
    }
}
