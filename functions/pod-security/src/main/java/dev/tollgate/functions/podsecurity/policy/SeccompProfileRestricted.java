package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.Check.since;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.functions.podsecurity.Level;

/**
 * Restricted, v1.19+: a seccomp profile must be set, RuntimeDefault or Localhost, on the pod (containers may then
 * leave it unset) or on every container. It replaces seccompProfile_baseline at the restricted level. From v1.25
 * Windows pods are exempt.
 */
final class SeccompProfileRestricted {

    static final Check CHECK = new Check("seccompProfile_restricted", Level.RESTRICTED, List.of(
            since(19, SeccompProfileRestricted::v1_19, SeccompProfileBaseline.ID),
            since(25, SeccompProfileRestricted::v1_25, SeccompProfileBaseline.ID)));

    private SeccompProfileRestricted() {
    }

    static CheckResult v1_19(Pod pod) {
        List<String> setters = new ArrayList<>(2);
        TreeSet<String> badTypes = new TreeSet<>();
        boolean podSet = false;
        JsonNode podProfile = pod.securityContext().path("seccompProfile");
        if (Pod.isSet(podProfile)) {
            if (!SeccompProfileBaseline.validType(podProfile)) {
                setters.add("pod");
                badTypes.add(Pod.text(podProfile.path("type")));
            } else {
                podSet = true;
            }
        }
        List<String> explicitlyBad = new ArrayList<>();
        List<String> implicitlyBad = new ArrayList<>();
        for (JsonNode c : pod.containers()) {
            JsonNode profile = c.path("securityContext").path("seccompProfile");
            if (Pod.isSet(profile)) {
                if (!SeccompProfileBaseline.validType(profile)) {
                    explicitlyBad.add(Pod.name(c));
                    badTypes.add(Pod.text(profile.path("type")));
                }
            } else if (!podSet) {
                implicitlyBad.add(Pod.name(c));
            }
        }
        if (!explicitlyBad.isEmpty()) {
            setters.add(Messages.containers(explicitlyBad));
        }
        if (!setters.isEmpty()) {
            return CheckResult.forbidden("seccompProfile", String.join(" and ", setters)
                    + " must not set securityContext.seccompProfile.type to " + Messages.joinQuote(badTypes));
        }
        if (!implicitlyBad.isEmpty()) {
            return CheckResult.forbidden("seccompProfile", "pod or " + Messages.containers(implicitlyBad)
                    + " must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\"");
        }
        return CheckResult.ALLOWED;
    }

    static CheckResult v1_25(Pod pod) {
        return pod.isWindows() ? CheckResult.ALLOWED : v1_19(pod);
    }
}
