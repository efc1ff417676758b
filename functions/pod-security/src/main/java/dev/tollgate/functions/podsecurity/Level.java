package dev.tollgate.functions.podsecurity;

import java.util.Locale;

/** A Pod Security Standards level. Each level includes every check of the levels below it. */
public enum Level {
    PRIVILEGED, BASELINE, RESTRICTED;

    /** The level as written in labels and paths: {@code privileged}, {@code baseline}, {@code restricted}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Level parse(String text) {
        for (Level level : values()) {
            if (level.label().equals(text)) {
                return level;
            }
        }
        throw new IllegalArgumentException("unknown Pod Security level '" + text
                + "': must be privileged, baseline or restricted");
    }
}
