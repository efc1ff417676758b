package dev.tollgate.functions.podsecurity;

import java.util.Locale;

/**
 * How a violation is reported: {@code enforce} denies the pod, {@code warn} allows it with a warning for the client,
 * {@code audit} allows it with an audit annotation. Namespaces choose each with the label
 * {@code pod-security.kubernetes.io/<mode>}.
 */
public enum Mode {
    ENFORCE, WARN, AUDIT;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Mode parse(String text) {
        for (Mode mode : values()) {
            if (mode.label().equals(text)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("unknown Pod Security mode '" + text + "': must be enforce, warn or audit");
    }
}
