package dev.tollgate.functions.podsecurity;

import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.admission.GroupVersionResource;

/**
 * Where the pod template sits in each workload resource PSA evaluates (warn and audit only; the pods they create
 * are enforced when created). Keyed by group and resource, whatever the version.
 */
final class PodTemplates {

    private static final Map<String, String[]> TEMPLATE_PATHS = Map.of(
            "/replicationcontrollers", new String[] { "spec", "template" },
            "/podtemplates", new String[] { "template" },
            "apps/deployments", new String[] { "spec", "template" },
            "apps/replicasets", new String[] { "spec", "template" },
            "apps/statefulsets", new String[] { "spec", "template" },
            "apps/daemonsets", new String[] { "spec", "template" },
            "batch/jobs", new String[] { "spec", "template" },
            "batch/cronjobs", new String[] { "spec", "jobTemplate", "spec", "template" });

    private PodTemplates() {
    }

    /** True for the workload resources whose pod template PSA evaluates. */
    static boolean hasTemplate(GroupVersionResource resource) {
        return TEMPLATE_PATHS.containsKey(key(resource));
    }

    /**
     * The pod template of the object, or null when it has none. Only a ReplicationController's template is
     * optional in the API; the others always have one, and an absent one reads as an empty template, as upstream
     * sees it.
     */
    static JsonNode template(GroupVersionResource resource, JsonNode object) {
        JsonNode node = object;
        for (String field : TEMPLATE_PATHS.get(key(resource))) {
            node = node.path(field);
        }
        if (node.isMissingNode() || node.isNull()) {
            return resource.resource().equals("replicationcontrollers") ? null
                    : com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        }
        return node;
    }

    private static String key(GroupVersionResource resource) {
        return resource.group() + "/" + resource.resource();
    }
}
