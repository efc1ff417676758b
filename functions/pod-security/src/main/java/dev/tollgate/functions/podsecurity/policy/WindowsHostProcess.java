package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.Check.since;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.functions.podsecurity.Level;

/** Baseline, v1.0+: Windows HostProcess containers (privileged access to the Windows node) are forbidden. */
final class WindowsHostProcess {

    static final Check CHECK = new Check("windowsHostProcess", Level.BASELINE,
            List.of(since(0, WindowsHostProcess::v1_0)));

    private WindowsHostProcess() {
    }

    static CheckResult v1_0(Pod pod) {
        List<String> bad = new ArrayList<>();
        for (JsonNode c : pod.containers()) {
            if (hostProcess(c.path("securityContext"))) {
                bad.add(Pod.name(c));
            }
        }
        List<String> setters = new ArrayList<>(2);
        if (hostProcess(pod.securityContext())) {
            setters.add("pod");
        }
        if (!bad.isEmpty()) {
            setters.add(Messages.containers(bad));
        }
        return setters.isEmpty() ? CheckResult.ALLOWED
                : CheckResult.forbidden("hostProcess", String.join(" and ", setters)
                        + " must not set securityContext.windowsOptions.hostProcess=true");
    }

    private static boolean hostProcess(JsonNode securityContext) {
        return Pod.isTrue(securityContext.path("windowsOptions").path("hostProcess"));
    }
}
