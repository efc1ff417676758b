package dev.tollgate.functions.podsecurity.policy;

import java.util.Objects;

/**
 * What one check says about one pod. A forbidden result has a short reason (always shown, e.g.
 * {@code host namespaces}) and an optional detail naming the offending containers and values.
 */
public record CheckResult(boolean allowed, String reason, String detail) {

    public static final CheckResult ALLOWED = new CheckResult(true, "", "");

    public CheckResult {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(detail, "detail");
        if (!allowed && reason.isEmpty()) {
            throw new IllegalArgumentException("a forbidden result needs a reason");
        }
    }

    public static CheckResult forbidden(String reason, String detail) {
        return new CheckResult(false, reason, detail);
    }

    /** {@code reason (detail)}, or just the reason when there is no detail: one item of the upstream message. */
    public String describe() {
        return detail.isEmpty() ? reason : reason + " (" + detail + ")";
    }
}
