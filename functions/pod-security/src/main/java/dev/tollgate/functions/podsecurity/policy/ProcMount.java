package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.Check.since;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.functions.podsecurity.Level;

/**
 * Baseline: the default /proc masks are required ({@code procMount} unset or {@code Default}). From v1.35 a pod in
 * a user namespace ({@code hostUsers: false}) may set any procMount; the restricted level keeps the strict rule
 * through {@code procMount_restricted}.
 */
final class ProcMount {

    static final String ID = "procMount";
    static final Check CHECK = new Check(ID, Level.BASELINE, List.of(
            since(0, ProcMount::strict),
            since(35, ProcMount::v1_35)));

    private ProcMount() {
    }

    static CheckResult v1_35(Pod pod) {
        return pod.inUserNamespace() ? CheckResult.ALLOWED : strict(pod);
    }

    /** The v1.0 rule, also used unchanged by procMount_restricted. */
    static CheckResult strict(Pod pod) {
        List<String> bad = new ArrayList<>();
        TreeSet<String> types = new TreeSet<>();
        for (JsonNode c : pod.containers()) {
            JsonNode procMount = c.path("securityContext").path("procMount");
            if (procMount.isTextual() && !procMount.textValue().equals("Default")) {
                bad.add(Pod.name(c));
                types.add(procMount.textValue());
            }
        }
        return bad.isEmpty() ? CheckResult.ALLOWED
                : CheckResult.forbidden("procMount", Messages.containers(bad)
                        + " must not set securityContext.procMount to " + Messages.joinQuote(types));
    }
}
