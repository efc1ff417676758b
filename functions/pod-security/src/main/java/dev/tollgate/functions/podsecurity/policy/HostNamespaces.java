package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.Check.since;

import java.util.ArrayList;
import java.util.List;

import dev.tollgate.functions.podsecurity.Level;

/** Baseline, v1.0+: sharing the host's network, PID or IPC namespace is forbidden. */
final class HostNamespaces {

    static final Check CHECK = new Check("hostNamespaces", Level.BASELINE, List.of(since(0, HostNamespaces::v1_0)));

    private HostNamespaces() {
    }

    static CheckResult v1_0(Pod pod) {
        List<String> shared = new ArrayList<>(3);
        for (String field : new String[] { "hostNetwork", "hostPID", "hostIPC" }) {
            if (Pod.isTrue(pod.spec().path(field))) {
                shared.add(field + "=true");
            }
        }
        return shared.isEmpty() ? CheckResult.ALLOWED
                : CheckResult.forbidden("host namespaces", String.join(", ", shared));
    }
}
