package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.Check.since;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.functions.podsecurity.Level;

/**
 * Baseline: the SELinux type is limited to the container types, and a custom SELinux user or role is forbidden
 * (pod and containers). v1.31 adds {@code container_engine_t} to the allowed types.
 */
final class SeLinuxOptions {

    static final Set<String> TYPES_1_0 = Set.of("", "container_t", "container_init_t", "container_kvm_t");
    static final Set<String> TYPES_1_31 = Set.of("", "container_t", "container_init_t", "container_kvm_t",
            "container_engine_t");

    static final Check CHECK = new Check("seLinuxOptions", Level.BASELINE, List.of(
            since(0, pod -> check(pod, TYPES_1_0)),
            since(31, pod -> check(pod, TYPES_1_31))));

    private SeLinuxOptions() {
    }

    private static final class Findings {
        final TreeSet<String> badTypes = new TreeSet<>();
        boolean setUser;
        boolean setRole;

        boolean valid(JsonNode options, Set<String> allowedTypes) {
            boolean valid = true;
            String type = Pod.text(options.path("type"));
            if (!allowedTypes.contains(type)) {
                valid = false;
                badTypes.add(type);
            }
            if (!Pod.text(options.path("user")).isEmpty()) {
                valid = false;
                setUser = true;
            }
            if (!Pod.text(options.path("role")).isEmpty()) {
                valid = false;
                setRole = true;
            }
            return valid;
        }
    }

    static CheckResult check(Pod pod, Set<String> allowedTypes) {
        Findings found = new Findings();
        List<String> setters = new ArrayList<>(2);
        JsonNode podOptions = pod.securityContext().path("seLinuxOptions");
        if (Pod.isSet(podOptions) && !found.valid(podOptions, allowedTypes)) {
            setters.add("pod");
        }
        List<String> bad = new ArrayList<>();
        for (JsonNode c : pod.containers()) {
            JsonNode options = c.path("securityContext").path("seLinuxOptions");
            if (Pod.isSet(options) && !found.valid(options, allowedTypes)) {
                bad.add(Pod.name(c));
            }
        }
        if (!bad.isEmpty()) {
            setters.add(Messages.containers(bad));
        }
        if (setters.isEmpty()) {
            return CheckResult.ALLOWED;
        }
        List<String> data = new ArrayList<>(3);
        if (!found.badTypes.isEmpty()) {
            data.add(Messages.pluralize("type", "types", found.badTypes.size()) + " "
                    + Messages.joinQuote(found.badTypes));
        }
        if (found.setUser) {
            data.add("user may not be set");
        }
        if (found.setRole) {
            data.add("role may not be set");
        }
        return CheckResult.forbidden("seLinuxOptions", String.join(" and ", setters)
                + " set forbidden securityContext.seLinuxOptions: " + String.join("; ", data));
    }
}
