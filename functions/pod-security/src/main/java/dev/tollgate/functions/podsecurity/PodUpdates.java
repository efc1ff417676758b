package dev.tollgate.functions.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Which pod updates PSA evaluates. Almost nothing a check reads can change on a running pod; upstream re-evaluates
 * only when containers are added or removed, an image changes, or a container's seccomp annotation changes, and
 * lets every other update through.
 */
final class PodUpdates {

    private static final String SECCOMP_CONTAINER_PREFIX = "container.seccomp.security.alpha.kubernetes.io/";

    private PodUpdates() {
    }

    static boolean significant(JsonNode pod, JsonNode oldPod) {
        JsonNode spec = pod.path("spec");
        JsonNode oldSpec = oldPod.path("spec");
        JsonNode annotations = pod.path("metadata").path("annotations");
        JsonNode oldAnnotations = oldPod.path("metadata").path("annotations");
        for (String list : new String[] { "containers", "initContainers" }) {
            JsonNode now = spec.path(list);
            JsonNode before = oldSpec.path(list);
            if (now.size() != before.size()) {
                return true;
            }
            for (int i = 0; i < now.size(); i++) {
                if (significant(now.get(i), before.get(i), annotations, oldAnnotations)) {
                    return true;
                }
            }
        }
        // Ephemeral containers can only be added, so they are matched by name.
        for (JsonNode c : spec.path("ephemeralContainers")) {
            JsonNode old = null;
            for (JsonNode o : oldSpec.path("ephemeralContainers")) {
                if (o.path("name").asText("").equals(c.path("name").asText(""))) {
                    old = o;
                    break;
                }
            }
            if (old == null || significant(c, old, annotations, oldAnnotations)) {
                return true;
            }
        }
        return false;
    }

    private static boolean significant(JsonNode container, JsonNode old, JsonNode annotations,
            JsonNode oldAnnotations) {
        if (!container.path("image").asText("").equals(old.path("image").asText(""))) {
            return true;
        }
        String key = SECCOMP_CONTAINER_PREFIX + container.path("name").asText("");
        return !annotations.path(key).asText("").equals(oldAnnotations.path(key).asText(""));
    }
}
