package dev.tollgate.simulator.audit;

import java.util.List;

import dev.tollgate.admission.GroupVersionResource;
import dev.tollgate.simulator.KnownResources;

/**
 * One resource as the cluster's discovery serves it ({@code /api/v1}, {@code /apis/<group>/<version>}): what to list,
 * which kind its objects are, and its scope.
 */
public record ServedResource(String group, String version, String resource, String kind, boolean namespaced,
        List<String> verbs) {

    public ServedResource {
        verbs = List.copyOf(verbs);
    }

    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    public GroupVersionResource gvr() {
        return GroupVersionResource.of(group, version, resource);
    }

    /** What the simulator would otherwise look up or guess: here it comes from the cluster. */
    public KnownResources.Info info() {
        return new KnownResources.Info(resource, namespaced, true);
    }

    public boolean listable() {
        return verbs.contains("list");
    }

    /** {@code apps/v1 deployments}, {@code v1 pods}. */
    @Override
    public String toString() {
        return apiVersion() + " " + resource;
    }
}
