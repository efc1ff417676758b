package dev.tollgate.gatekeeper;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Other objects of the cluster a referential policy reads, in the shape of Gatekeeper's {@code data.inventory}
 * (gatekeeper pkg/target/data.go and the library's referential templates): {@code cluster[apiVersion][kind][name]}
 * for cluster-scoped objects and {@code namespace[namespace][apiVersion][kind][name]} for namespaced ones. In CEL it
 * is the variable {@code inventory}.
 */
public final class Inventory {

    /** No objects: what a policy sees where no inventory is given. */
    public static final Inventory EMPTY = of(List.of());

    private final ObjectNode tree;

    private Inventory(ObjectNode tree) {
        this.tree = tree;
    }

    /** The inventory of these objects (as gator's {@code inventory} files give them, or as read from a cluster). */
    public static Inventory of(List<? extends JsonNode> objects) {
        ObjectNode tree = JsonNodeFactory.instance.objectNode();
        ObjectNode cluster = tree.putObject("cluster");
        ObjectNode namespaced = tree.putObject("namespace");
        for (JsonNode o : objects) {
            String apiVersion = o.path("apiVersion").asText("");
            String kind = o.path("kind").asText("");
            String name = o.path("metadata").path("name").asText("");
            String namespace = o.path("metadata").path("namespace").asText("");
            ObjectNode root = namespace.isEmpty() ? cluster : child(namespaced, namespace);
            child(child(root, apiVersion), kind).set(name, o);
        }
        return new Inventory(tree);
    }

    private static ObjectNode child(ObjectNode parent, String key) {
        JsonNode c = parent.get(key);
        return c instanceof ObjectNode o ? o : parent.putObject(key);
    }

    /** The {@code data.inventory} tree. */
    public ObjectNode tree() {
        return tree;
    }
}
