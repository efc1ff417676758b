package dev.tollgate.admission;

import java.util.Locale;

/**
 * What a function's verdict does to the request ({@link EnforcedVerdict}): {@code enforce} answers it as the policy
 * gave it, {@code warn} allows a denial and shows it as a warning, {@code audit} allows a denial and leaves a mutating
 * policy's patch unapplied, recording both in audit annotations.
 */
public enum EnforcementMode {
    ENFORCE, WARN, AUDIT;

    /** The mode's name as configured and labelled: enforce, warn or audit. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The mode named {@code value} (enforce, warn or audit, any case, surrounding spaces ignored).
     *
     * @param where what the value was read from, for the message (e.g. the property)
     * @throws IllegalArgumentException one line naming {@code where}, the value and the modes there are
     */
    public static EnforcementMode parse(String value, String where) {
        String v = value == null ? "" : value.strip();
        for (EnforcementMode mode : values()) {
            if (mode.label().equalsIgnoreCase(v)) {
                return mode;
            }
        }
        throw new IllegalArgumentException(where + "=" + (value == null ? "" : value)
                + ": not an enforcement mode (enforce, warn or audit)");
    }
}
