package dev.tollgate.admission.match;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.GroupVersionResource;
import dev.tollgate.admission.Operation;

/**
 * One webhook rule (admissionregistration.k8s.io/v1 RuleWithOperations) and how the API server matches it:
 * every list must match; {@code *} matches anything; in {@code resources}, {@code *} means every resource but no
 * subresource, {@code * /*} (without the space) every resource and subresource, {@code pods/*} pods and every
 * subresource of pods (a {@code *} subresource also matches "none", exactly as the API server's matcher does),
 * {@code * /status} (without the space) the status subresource of every resource; {@code scope} is
 * {@code Cluster}, {@code Namespaced} or {@code *}.
 */
public record Rule(List<String> operations, List<String> apiGroups, List<String> apiVersions,
        List<String> resources, String scope) {

    public static final String ALL_SCOPES = "*";
    public static final String CLUSTER = "Cluster";
    public static final String NAMESPACED = "Namespaced";

    private static final GroupVersionResource NAMESPACES = GroupVersionResource.of("", "v1", "namespaces");

    public Rule {
        operations = List.copyOf(operations);
        apiGroups = List.copyOf(apiGroups);
        apiVersions = List.copyOf(apiVersions);
        resources = List.copyOf(resources);
        scope = scope == null || scope.isEmpty() ? ALL_SCOPES : scope;
    }

    /** Parses a rule from its JSON form; structural problems only (see RegistrationValidator for the rest). */
    public static Rule parse(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("rule: expected an object");
        }
        return new Rule(strings(node, "operations"), strings(node, "apiGroups"), strings(node, "apiVersions"),
                strings(node, "resources"), node.path("scope").asText(ALL_SCOPES));
    }

    public boolean matches(AdmissionRequest request) {
        return matches(request.operation(), request.resource(), request.subResource(), request.namespace());
    }

    /**
     * @param namespace the request's namespace; "" for cluster-scoped resources (for a Namespace object the API
     *                  server sets it to the namespace's own name, which is why that resource is checked by name)
     */
    public boolean matches(Operation operation, GroupVersionResource gvr, String subResource, String namespace) {
        return matchesOperation(operation) && matchesAny(apiGroups, gvr.group()) && matchesAny(apiVersions,
                gvr.version()) && matchesResource(gvr.resource(), subResource) && matchesScope(gvr, namespace);
    }

    /** Matching without the operation, as matchPolicy Equivalent does when it looks for an equivalent resource. */
    public boolean matchesResource(GroupVersionResource gvr, String subResource) {
        return matchesAny(apiGroups, gvr.group()) && matchesAny(apiVersions, gvr.version())
                && matchesResource(gvr.resource(), subResource);
    }

    public boolean matchesOperation(Operation operation) {
        return operations.contains("*") || operations.contains(operation.name());
    }

    private boolean matchesResource(String resource, String subResource) {
        String sub = subResource == null ? "" : subResource;
        for (String entry : resources) {
            int slash = entry.indexOf('/');
            String res = slash < 0 ? entry : entry.substring(0, slash);
            String want = slash < 0 ? "" : entry.substring(slash + 1);
            if ((res.equals("*") || res.equals(resource)) && (want.equals("*") || want.equals(sub))) {
                return true;
            }
        }
        return false;
    }

    private boolean matchesScope(GroupVersionResource gvr, String namespace) {
        boolean isNamespaceObject = gvr.equals(NAMESPACES);
        boolean clusterScoped = isNamespaceObject || namespace == null || namespace.isEmpty();
        return switch (scope) {
            case CLUSTER -> clusterScoped;
            case NAMESPACED -> !clusterScoped;
            default -> true;
        };
    }

    private static boolean matchesAny(List<String> patterns, String value) {
        return patterns.contains("*") || patterns.contains(value);
    }

    private static List<String> strings(JsonNode node, String field) {
        JsonNode list = node.path(field);
        List<String> out = new ArrayList<>();
        if (list.isMissingNode() || list.isNull()) {
            return out;
        }
        if (!list.isArray()) {
            throw new IllegalArgumentException("rule." + field + ": expected an array of strings");
        }
        for (JsonNode v : list) {
            if (!v.isTextual()) {
                throw new IllegalArgumentException("rule." + field + ": expected an array of strings");
            }
            out.add(v.textValue());
        }
        return out;
    }
}
