package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.Check.since;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.functions.podsecurity.Level;

/** Baseline, v1.0+: no container may set {@code securityContext.privileged=true}. */
final class Privileged {

    static final Check CHECK = new Check("privileged", Level.BASELINE, List.of(since(0, Privileged::v1_0)));

    private Privileged() {
    }

    static CheckResult v1_0(Pod pod) {
        List<String> bad = new ArrayList<>();
        for (JsonNode c : pod.containers()) {
            if (Pod.isTrue(c.path("securityContext").path("privileged"))) {
                bad.add(Pod.name(c));
            }
        }
        return bad.isEmpty() ? CheckResult.ALLOWED
                : CheckResult.forbidden("privileged",
                        Messages.containers(bad) + " must not set securityContext.privileged=true");
    }
}
