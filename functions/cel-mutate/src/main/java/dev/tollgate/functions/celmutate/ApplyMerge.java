package dev.tollgate.functions.celmutate;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Merges an apply configuration into an object the way server-side apply merges it for the built-in types, without
 * the schemas the API server has: objects merge field by field; lists that Kubernetes declares as maps
 * ({@code x-kubernetes-list-type: map}: containers by name, ports by port and protocol, volume mounts by mount path,
 * ...) merge item by item on their keys; {@code finalizers} merge as a set; every other list and every scalar is
 * replaced (atomic), as server-side apply does for lists without a merge key.
 *
 * <p>Limits, stated rather than guessed: custom resources' own list-map declarations are unknown here (their lists
 * are replaced); an apply configuration cannot remove a field ({@code null} is refused: use a JSONPatch remove).
 */
final class ApplyMerge {

    /** List fields merged by key, by field name: the key fields of their items. */
    private static final Map<String, List<String>> LIST_MAP_KEYS = Map.ofEntries(
            Map.entry("containers", List.of("name")),
            Map.entry("initContainers", List.of("name")),
            Map.entry("ephemeralContainers", List.of("name")),
            Map.entry("volumes", List.of("name")),
            Map.entry("env", List.of("name")),
            Map.entry("imagePullSecrets", List.of("name")),
            Map.entry("resourceClaims", List.of("name")),
            Map.entry("volumeMounts", List.of("mountPath")),
            Map.entry("volumeDevices", List.of("devicePath")),
            Map.entry("hostAliases", List.of("ip")),
            Map.entry("ownerReferences", List.of("uid")),
            Map.entry("conditions", List.of("type")),
            Map.entry("topologySpreadConstraints", List.of("topologyKey", "whenUnsatisfiable")));
    private static final List<String> CONTAINER_PORT_KEYS = List.of("containerPort", "protocol");
    private static final List<String> SERVICE_PORT_KEYS = List.of("port", "protocol");

    /** The apply configuration cannot be merged (a null value, a type that does not fit). */
    static final class MergeException extends RuntimeException {
        MergeException(String message) {
            super(message, null, false, false);
        }
    }

    private ApplyMerge() {
    }

    /** Merges {@code config} into {@code target} in place. */
    static void merge(ObjectNode target, ObjectNode config) {
        mergeObject(target, config, "");
    }

    private static void mergeObject(ObjectNode target, ObjectNode config, String path) {
        for (Iterator<Map.Entry<String, JsonNode>> it = config.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            String field = e.getKey();
            String here = path + "/" + field;
            JsonNode value = e.getValue();
            JsonNode current = target.get(field);
            if (value.isNull()) {
                throw new MergeException(here + ": null is not allowed in an apply configuration (to remove a field, "
                        + "use a JSONPatch mutation with op remove)");
            }
            if (value.isObject() && current != null && current.isObject()) {
                mergeObject((ObjectNode) current, (ObjectNode) value, here);
            } else if (value.isArray() && current != null && current.isArray() && isMergedList(field, value)) {
                mergeList(field, (ArrayNode) current, (ArrayNode) value, here);
            } else {
                target.set(field, value.deepCopy());
            }
        }
    }

    private static boolean isMergedList(String field, JsonNode value) {
        return field.equals("finalizers") || field.equals("ports") || LIST_MAP_KEYS.containsKey(field);
    }

    private static void mergeList(String field, ArrayNode current, ArrayNode config, String path) {
        if (field.equals("finalizers")) {
            for (JsonNode item : config) {
                if (!contains(current, item)) {
                    current.add(item.deepCopy());
                }
            }
            return;
        }
        for (int i = 0; i < config.size(); i++) {
            JsonNode item = config.get(i);
            if (!item.isObject()) {
                throw new MergeException(path + "[" + i + "]: expected an object in a list merged by key");
            }
            List<String> keys = keysFor(field, item);
            ObjectNode existing = find(current, (ObjectNode) item, keys);
            if (existing == null) {
                current.add(item.deepCopy());
            } else {
                mergeObject(existing, (ObjectNode) item, path + "[" + i + "]");
            }
        }
    }

    private static List<String> keysFor(String field, JsonNode item) {
        if (field.equals("ports")) {
            return item.has("containerPort") ? CONTAINER_PORT_KEYS : SERVICE_PORT_KEYS;
        }
        return LIST_MAP_KEYS.get(field);
    }

    private static ObjectNode find(ArrayNode list, ObjectNode item, List<String> keys) {
        for (JsonNode candidate : list) {
            if (candidate.isObject() && sameKey((ObjectNode) candidate, item, keys)) {
                return (ObjectNode) candidate;
            }
        }
        return null;
    }

    // A missing protocol means TCP, the API server's default, so {containerPort: 80} finds {80, TCP}.
    private static boolean sameKey(ObjectNode a, ObjectNode b, List<String> keys) {
        for (String k : keys) {
            String av = a.has(k) ? a.get(k).asText() : k.equals("protocol") ? "TCP" : null;
            String bv = b.has(k) ? b.get(k).asText() : k.equals("protocol") ? "TCP" : null;
            if (av == null ? bv != null : !av.equals(bv)) {
                return false;
            }
        }
        return true;
    }

    private static boolean contains(ArrayNode list, JsonNode item) {
        for (JsonNode n : list) {
            if (n.equals(item)) {
                return true;
            }
        }
        return false;
    }
}
