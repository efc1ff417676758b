package dev.tollgate.admission;

/** A fully qualified resource; {@code group} is empty for the core group. */
public record GroupVersionResource(String group, String version, String resource) {

    public static GroupVersionResource of(String group, String version, String resource) {
        return new GroupVersionResource(group, version, resource);
    }

    @Override
    public String toString() {
        return (group.isEmpty() ? "" : group + "/") + version + ", Resource=" + resource;
    }
}
