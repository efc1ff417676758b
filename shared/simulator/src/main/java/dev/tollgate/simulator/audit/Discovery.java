package dev.tollgate.simulator.audit;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the cluster's discovery said: every served resource, and each group's versions with the preferred one
 * first.
 */
public record Discovery(List<ServedResource> resources, Map<String, List<String>> versionsByGroup) {

    public Discovery {
        resources = List.copyOf(resources);
        versionsByGroup = Map.copyOf(versionsByGroup);
    }

    public Optional<ServedResource> find(String group, String version, String resource) {
        return resources.stream().filter(r -> r.group().equals(group) && r.version().equals(version)
                && r.resource().equals(resource)).findFirst();
    }

    /** The served versions of one group/resource, in the group's priority order. */
    public List<ServedResource> versionsOf(String group, String resource) {
        List<String> order = versionsByGroup.getOrDefault(group, List.of());
        return resources.stream().filter(r -> r.group().equals(group) && r.resource().equals(resource))
                .sorted(java.util.Comparator.comparingInt(r -> {
                    int i = order.indexOf(r.version());
                    return i < 0 ? Integer.MAX_VALUE : i;
                })).toList();
    }
}
