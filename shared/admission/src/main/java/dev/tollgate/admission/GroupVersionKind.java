package dev.tollgate.admission;

/** A fully qualified kind; {@code group} is empty for the core group. */
public record GroupVersionKind(String group, String version, String kind) {

    public static GroupVersionKind of(String group, String version, String kind) {
        return new GroupVersionKind(group, version, kind);
    }

    /** {@code apps/v1} or {@code v1} for the core group, as in an object's apiVersion. */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    @Override
    public String toString() {
        return apiVersion() + ", Kind=" + kind;
    }
}
