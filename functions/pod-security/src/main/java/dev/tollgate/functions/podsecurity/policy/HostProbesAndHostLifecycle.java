package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.Check.since;

import java.util.List;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.functions.podsecurity.Level;

/**
 * Baseline, v1.34+: probes (liveness, readiness, startup) and lifecycle handlers (postStart, preStop) may not name
 * a {@code host} for their httpGet or tcpSocket action, which would let the kubelet reach other hosts for the pod.
 */
final class HostProbesAndHostLifecycle {

    static final Check CHECK = new Check("hostProbesAndHostLifecycle", Level.BASELINE,
            List.of(since(34, HostProbesAndHostLifecycle::v1_34)));

    private static final String[] PROBES = { "livenessProbe", "readinessProbe", "startupProbe" };
    private static final String[] HANDLERS = { "postStart", "preStop" };
    private static final String[] ACTIONS = { "httpGet", "tcpSocket" };

    private HostProbesAndHostLifecycle() {
    }

    static CheckResult v1_34(Pod pod) {
        // Upstream collects both in sorted sets.
        TreeSet<String> bad = new TreeSet<>();
        TreeSet<String> hosts = new TreeSet<>();
        for (JsonNode c : pod.containers()) {
            boolean found = false;
            for (String probe : PROBES) {
                found |= hosts(c.path(probe), hosts);
            }
            for (String handler : HANDLERS) {
                found |= hosts(c.path("lifecycle").path(handler), hosts);
            }
            if (found) {
                bad.add(Pod.name(c));
            }
        }
        return bad.isEmpty() ? CheckResult.ALLOWED
                : CheckResult.forbidden("probe or lifecycle host", Messages.containers(bad) + " "
                        + Messages.pluralize("uses", "use", bad.size()) + " "
                        + Messages.pluralize("probe or lifecycle host", "probe or lifecycle hosts", hosts.size()) + " "
                        + Messages.joinQuote(hosts));
    }

    private static boolean hosts(JsonNode handler, TreeSet<String> hosts) {
        boolean found = false;
        for (String action : ACTIONS) {
            String host = Pod.text(handler.path(action).path("host"));
            if (!host.isEmpty()) {
                hosts.add(host);
                found = true;
            }
        }
        return found;
    }
}
