package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.Check.since;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.functions.podsecurity.Level;

/**
 * Restricted, v1.0+: containers must run as non-root: {@code runAsNonRoot: true} on the pod (containers may then
 * leave it unset) or on every container, and nobody may set it to false. From v1.35 a pod in a user namespace
 * ({@code hostUsers: false}) is exempt: its root is not the node's root.
 */
final class RunAsNonRoot {

    static final Check CHECK = new Check("runAsNonRoot", Level.RESTRICTED, List.of(
            since(0, RunAsNonRoot::v1_0),
            since(35, RunAsNonRoot::v1_35)));

    private RunAsNonRoot() {
    }

    static CheckResult v1_0(Pod pod) {
        List<String> setters = new ArrayList<>(2);
        boolean podNonRoot = false;
        JsonNode podValue = pod.securityContext().path("runAsNonRoot");
        if (podValue.isBoolean()) {
            if (!podValue.booleanValue()) {
                setters.add("pod");
            } else {
                podNonRoot = true;
            }
        }
        List<String> explicitlyBad = new ArrayList<>();
        List<String> implicitlyBad = new ArrayList<>();
        for (JsonNode c : pod.containers()) {
            JsonNode value = c.path("securityContext").path("runAsNonRoot");
            if (value.isBoolean()) {
                if (!value.booleanValue()) {
                    explicitlyBad.add(Pod.name(c));
                }
            } else if (!podNonRoot) {
                implicitlyBad.add(Pod.name(c));
            }
        }
        if (!explicitlyBad.isEmpty()) {
            setters.add(Messages.containers(explicitlyBad));
        }
        if (!setters.isEmpty()) {
            return CheckResult.forbidden("runAsNonRoot != true",
                    String.join(" and ", setters) + " must not set securityContext.runAsNonRoot=false");
        }
        if (!implicitlyBad.isEmpty()) {
            return CheckResult.forbidden("runAsNonRoot != true",
                    "pod or " + Messages.containers(implicitlyBad) + " must set securityContext.runAsNonRoot=true");
        }
        return CheckResult.ALLOWED;
    }

    static CheckResult v1_35(Pod pod) {
        return pod.inUserNamespace() ? CheckResult.ALLOWED : v1_0(pod);
    }
}
