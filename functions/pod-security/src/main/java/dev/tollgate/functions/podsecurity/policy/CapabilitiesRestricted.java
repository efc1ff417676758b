package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.Check.since;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.functions.podsecurity.Level;

/**
 * Restricted, v1.22+: every container must drop ALL capabilities and may add back only NET_BIND_SERVICE. It
 * replaces capabilities_baseline at the restricted level. From v1.25 Windows pods are exempt.
 */
final class CapabilitiesRestricted {

    static final Check CHECK = new Check("capabilities_restricted", Level.RESTRICTED, List.of(
            since(22, CapabilitiesRestricted::v1_22, CapabilitiesBaseline.ID),
            since(25, CapabilitiesRestricted::v1_25, CapabilitiesBaseline.ID)));

    private CapabilitiesRestricted() {
    }

    static CheckResult v1_22(Pod pod) {
        List<String> missingDropAll = new ArrayList<>();
        List<String> addingForbidden = new ArrayList<>();
        TreeSet<String> forbidden = new TreeSet<>();
        for (JsonNode c : pod.containers()) {
            JsonNode capabilities = c.path("securityContext").path("capabilities");
            if (!Pod.isSet(capabilities)) {
                missingDropAll.add(Pod.name(c));
                continue;
            }
            boolean droppedAll = false;
            for (JsonNode cap : capabilities.path("drop")) {
                if ("ALL".equals(Pod.text(cap))) {
                    droppedAll = true;
                    break;
                }
            }
            if (!droppedAll) {
                missingDropAll.add(Pod.name(c));
            }
            boolean adds = false;
            for (JsonNode cap : capabilities.path("add")) {
                String name = Pod.text(cap);
                if (!name.equals("NET_BIND_SERVICE")) {
                    adds = true;
                    forbidden.add(name);
                }
            }
            if (adds) {
                addingForbidden.add(Pod.name(c));
            }
        }
        List<String> details = new ArrayList<>(2);
        if (!missingDropAll.isEmpty()) {
            details.add(Messages.containers(missingDropAll) + " must set securityContext.capabilities.drop=[\"ALL\"]");
        }
        if (!addingForbidden.isEmpty()) {
            details.add(Messages.containers(addingForbidden) + " must not include " + Messages.joinQuote(forbidden)
                    + " in securityContext.capabilities.add");
        }
        return details.isEmpty() ? CheckResult.ALLOWED
                : CheckResult.forbidden("unrestricted capabilities", String.join("; ", details));
    }

    static CheckResult v1_25(Pod pod) {
        return pod.isWindows() ? CheckResult.ALLOWED : v1_22(pod);
    }
}
