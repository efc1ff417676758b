package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.Check.since;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.functions.podsecurity.Level;

/**
 * Restricted, v1.8+: every container must set {@code allowPrivilegeEscalation: false}. From v1.25 Windows pods
 * ({@code spec.os.name: windows}) are exempt, as the field does not apply to them.
 */
final class AllowPrivilegeEscalation {

    static final Check CHECK = new Check("allowPrivilegeEscalation", Level.RESTRICTED, List.of(
            since(8, AllowPrivilegeEscalation::v1_8),
            since(25, AllowPrivilegeEscalation::v1_25)));

    private AllowPrivilegeEscalation() {
    }

    static CheckResult v1_8(Pod pod) {
        List<String> bad = new ArrayList<>();
        for (JsonNode c : pod.containers()) {
            JsonNode allow = c.path("securityContext").path("allowPrivilegeEscalation");
            if (!allow.isBoolean() || allow.booleanValue()) {
                bad.add(Pod.name(c));
            }
        }
        return bad.isEmpty() ? CheckResult.ALLOWED
                : CheckResult.forbidden("allowPrivilegeEscalation != false",
                        Messages.containers(bad) + " must set securityContext.allowPrivilegeEscalation=false");
    }

    static CheckResult v1_25(Pod pod) {
        return pod.isWindows() ? CheckResult.ALLOWED : v1_8(pod);
    }
}
