package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.Check.since;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.functions.podsecurity.Level;

/**
 * Restricted, v1.23+: neither the pod nor a container may set {@code runAsUser: 0}. From v1.35 a pod in a user
 * namespace ({@code hostUsers: false}) is exempt.
 */
final class RunAsUser {

    static final Check CHECK = new Check("runAsUser", Level.RESTRICTED, List.of(
            since(23, RunAsUser::v1_23),
            since(35, RunAsUser::v1_35)));

    private RunAsUser() {
    }

    static CheckResult v1_23(Pod pod) {
        List<String> setters = new ArrayList<>(2);
        if (isRoot(pod.securityContext())) {
            setters.add("pod");
        }
        List<String> bad = new ArrayList<>();
        for (JsonNode c : pod.containers()) {
            if (isRoot(c.path("securityContext"))) {
                bad.add(Pod.name(c));
            }
        }
        if (!bad.isEmpty()) {
            setters.add(Messages.containers(bad));
        }
        return setters.isEmpty() ? CheckResult.ALLOWED
                : CheckResult.forbidden("runAsUser=0", String.join(" and ", setters) + " must not set runAsUser=0");
    }

    static CheckResult v1_35(Pod pod) {
        return pod.inUserNamespace() ? CheckResult.ALLOWED : v1_23(pod);
    }

    private static boolean isRoot(JsonNode securityContext) {
        JsonNode user = securityContext.path("runAsUser");
        return user.isNumber() && user.asLong() == 0;
    }
}
