package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.Check.since;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.functions.podsecurity.Level;

/**
 * Baseline, v1.0+: containers may add only the capabilities a container runtime grants by default. Names are
 * compared exactly, so {@code chown} or {@code CAP_CHOWN} are not {@code CHOWN}.
 */
final class CapabilitiesBaseline {

    static final String ID = "capabilities_baseline";
    static final Check CHECK = new Check(ID, Level.BASELINE, List.of(since(0, CapabilitiesBaseline::v1_0)));

    static final Set<String> ALLOWED_1_0 = Set.of("AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "KILL",
            "MKNOD", "NET_BIND_SERVICE", "SETFCAP", "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT");

    private CapabilitiesBaseline() {
    }

    static CheckResult v1_0(Pod pod) {
        List<String> bad = new ArrayList<>();
        TreeSet<String> added = new TreeSet<>();
        for (JsonNode c : pod.containers()) {
            JsonNode capabilities = c.path("securityContext").path("capabilities");
            if (!Pod.isSet(capabilities)) {
                continue;
            }
            boolean valid = true;
            for (JsonNode cap : capabilities.path("add")) {
                String name = Pod.text(cap);
                if (!ALLOWED_1_0.contains(name)) {
                    valid = false;
                    added.add(name);
                }
            }
            if (!valid) {
                bad.add(Pod.name(c));
            }
        }
        return bad.isEmpty() ? CheckResult.ALLOWED
                : CheckResult.forbidden("non-default capabilities", Messages.containers(bad) + " must not include "
                        + Messages.joinQuote(added) + " in securityContext.capabilities.add");
    }
}
