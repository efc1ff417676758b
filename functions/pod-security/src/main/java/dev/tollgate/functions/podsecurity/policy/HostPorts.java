package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.Check.since;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.functions.podsecurity.Level;

/** Baseline, v1.0+: no container port may set a hostPort (0 means unset). */
final class HostPorts {

    static final Check CHECK = new Check("hostPorts", Level.BASELINE, List.of(since(0, HostPorts::v1_0)));

    private HostPorts() {
    }

    static CheckResult v1_0(Pod pod) {
        List<String> bad = new ArrayList<>();
        // Upstream keeps the ports as strings in a sorted set, so 12345 sorts before 8080.
        TreeSet<String> ports = new TreeSet<>();
        for (JsonNode c : pod.containers()) {
            boolean valid = true;
            for (JsonNode port : c.path("ports")) {
                long hostPort = port.path("hostPort").asLong(0);
                if (hostPort != 0) {
                    valid = false;
                    ports.add(Long.toString(hostPort));
                }
            }
            if (!valid) {
                bad.add(Pod.name(c));
            }
        }
        return bad.isEmpty() ? CheckResult.ALLOWED
                : CheckResult.forbidden("hostPort", Messages.containers(bad) + " "
                        + Messages.pluralize("uses", "use", bad.size()) + " "
                        + Messages.pluralize("hostPort", "hostPorts", ports.size()) + " " + String.join(", ", ports));
    }
}
