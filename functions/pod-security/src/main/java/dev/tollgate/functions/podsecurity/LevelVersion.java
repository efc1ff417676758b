package dev.tollgate.functions.podsecurity;

import java.util.Objects;

/** A level at a version, written {@code restricted:v1.30} in messages as upstream does. */
public record LevelVersion(Level level, PolicyVersion version) {

    public static final LevelVersion PRIVILEGED_LATEST = new LevelVersion(Level.PRIVILEGED, PolicyVersion.LATEST);

    public LevelVersion {
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(version, "version");
    }

    public static LevelVersion parse(String level, String version) {
        return new LevelVersion(Level.parse(level), PolicyVersion.parse(version));
    }

    public boolean privileged() {
        return level == Level.PRIVILEGED;
    }

    @Override
    public String toString() {
        return level.label() + ":" + version;
    }
}
