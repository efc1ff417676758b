package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.Check.since;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.functions.podsecurity.Level;

/**
 * Baseline, v1.0+: AppArmor may not be disabled or overridden. Both channels are checked at every version, as
 * upstream amended its single revision in place: the {@code appArmorProfile.type} fields (pod and containers:
 * RuntimeDefault or Localhost) and the deprecated per-container annotations (empty, {@code runtime/default} or
 * {@code localhost/*}).
 */
final class AppArmorProfile {

    static final String ANNOTATION_PREFIX = "container.apparmor.security.beta.kubernetes.io/";
    static final Check CHECK = new Check("appArmorProfile", Level.BASELINE, List.of(since(0, AppArmorProfile::v1_0)));

    private AppArmorProfile() {
    }

    static CheckResult v1_0(Pod pod) {
        List<String> setters = new ArrayList<>(3);
        TreeSet<String> badTypes = new TreeSet<>();
        JsonNode podProfile = pod.securityContext().path("appArmorProfile");
        if (Pod.isSet(podProfile) && !allowedType(podProfile)) {
            setters.add("pod");
            badTypes.add(Pod.text(podProfile.path("type")));
        }
        List<String> badContainers = new ArrayList<>();
        for (JsonNode c : pod.containers()) {
            JsonNode profile = c.path("securityContext").path("appArmorProfile");
            if (Pod.isSet(profile) && !allowedType(profile)) {
                badContainers.add(Pod.name(c));
                badTypes.add(Pod.text(profile.path("type")));
            }
        }
        if (!badContainers.isEmpty()) {
            setters.add(Messages.containers(badContainers));
        }
        TreeSet<String> badAnnotations = new TreeSet<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = pod.annotations().fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().startsWith(ANNOTATION_PREFIX)) {
                String value = Pod.text(e.getValue());
                if (!allowedAnnotation(value)) {
                    badAnnotations.add(e.getKey() + "=" + Messages.goQuote(value));
                }
            }
        }
        List<String> badValues = new ArrayList<>(badTypes);
        if (!badAnnotations.isEmpty()) {
            badValues.addAll(badAnnotations);
            setters.add(Messages.pluralize("annotation", "annotations", badAnnotations.size()));
        }
        if (setters.isEmpty()) {
            return CheckResult.ALLOWED;
        }
        return CheckResult.forbidden(
                Messages.pluralize("forbidden AppArmor profile", "forbidden AppArmor profiles", badValues.size()),
                String.join(" and ", setters) + " must not set AppArmor profile type to "
                        + Messages.joinQuote(badValues));
    }

    private static boolean allowedType(JsonNode profile) {
        String type = Pod.text(profile.path("type"));
        return type.equals("RuntimeDefault") || type.equals("Localhost");
    }

    private static boolean allowedAnnotation(String value) {
        return value.isEmpty() || value.equals("runtime/default") || value.startsWith("localhost/");
    }
}
