package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.Check.since;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.functions.podsecurity.Level;

/**
 * Baseline: seccomp may not be disabled. Before v1.19 the (alpha) seccomp annotations are checked: pod and
 * per-container values must be {@code runtime/default}, {@code docker/default} or {@code localhost/*}. From v1.19
 * the {@code seccompProfile.type} fields are checked instead: RuntimeDefault, Localhost or unset.
 */
final class SeccompProfileBaseline {

    static final String ID = "seccompProfile_baseline";
    static final String POD_ANNOTATION = "seccomp.security.alpha.kubernetes.io/pod";
    static final String CONTAINER_ANNOTATION_PREFIX = "container.seccomp.security.alpha.kubernetes.io/";

    static final Check CHECK = new Check(ID, Level.BASELINE, List.of(
            since(0, SeccompProfileBaseline::v1_0),
            since(19, SeccompProfileBaseline::v1_19)));

    private SeccompProfileBaseline() {
    }

    static CheckResult v1_0(Pod pod) {
        TreeSet<String> forbidden = new TreeSet<>();
        String podValue = pod.annotation(POD_ANNOTATION);
        if (podValue != null && !validAnnotation(podValue)) {
            forbidden.add(POD_ANNOTATION + "=" + Messages.goQuote(podValue));
        }
        for (JsonNode c : pod.containers()) {
            String key = CONTAINER_ANNOTATION_PREFIX + Pod.name(c);
            String value = pod.annotation(key);
            if (value != null && !validAnnotation(value)) {
                forbidden.add(key + "=" + Messages.goQuote(value));
            }
        }
        return forbidden.isEmpty() ? CheckResult.ALLOWED
                : CheckResult.forbidden("seccompProfile", "forbidden "
                        + Messages.pluralize("annotation", "annotations", forbidden.size()) + " "
                        + String.join(", ", forbidden));
    }

    static CheckResult v1_19(Pod pod) {
        List<String> setters = new ArrayList<>(2);
        TreeSet<String> badTypes = new TreeSet<>();
        JsonNode podProfile = pod.securityContext().path("seccompProfile");
        if (Pod.isSet(podProfile) && !validType(podProfile)) {
            setters.add("pod");
            badTypes.add(Pod.text(podProfile.path("type")));
        }
        List<String> bad = new ArrayList<>();
        for (JsonNode c : pod.containers()) {
            JsonNode profile = c.path("securityContext").path("seccompProfile");
            if (Pod.isSet(profile) && !validType(profile)) {
                bad.add(Pod.name(c));
                badTypes.add(Pod.text(profile.path("type")));
            }
        }
        if (!bad.isEmpty()) {
            setters.add(Messages.containers(bad));
        }
        return setters.isEmpty() ? CheckResult.ALLOWED
                : CheckResult.forbidden("seccompProfile", String.join(" and ", setters)
                        + " must not set securityContext.seccompProfile.type to " + Messages.joinQuote(badTypes));
    }

    /** RuntimeDefault or Localhost. */
    static boolean validType(JsonNode profile) {
        String type = Pod.text(profile.path("type"));
        return type.equals("RuntimeDefault") || type.equals("Localhost");
    }

    private static boolean validAnnotation(String value) {
        return value.equals("runtime/default") || value.equals("docker/default") || value.startsWith("localhost/");
    }
}
