package dev.tollgate.simulator;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.Operation;

/**
 * How the manifests are submitted: the operation, the old objects for UPDATE, the namespaces the cluster holds,
 * who asks, and whether it is a dry run.
 *
 * @param defaultNamespace the namespace of namespaced objects that name none (as kubectl's current namespace)
 */
public record ReviewSettings(Operation operation, List<InputManifest> oldObjects, List<InputManifest> namespaces,
        String username, List<String> groups, boolean dryRun, String defaultNamespace) {

    public static final String NAME_LABEL = "kubernetes.io/metadata.name";

    public ReviewSettings {
        oldObjects = List.copyOf(oldObjects);
        namespaces = List.copyOf(namespaces);
        groups = List.copyOf(groups);
        for (InputManifest ns : namespaces) {
            if (!"Namespace".equals(ns.kind())) {
                throw new InputException(ns.source() + ": expected a Namespace, got " + ns.kind());
            }
        }
        if (operation == Operation.CONNECT) {
            throw new InputException("CONNECT is not simulated: use CREATE, UPDATE or DELETE");
        }
    }

    /** CREATE by kubernetes-admin (system:masters), not a dry run, in namespace default. */
    public static ReviewSettings defaults() {
        return new ReviewSettings(Operation.CREATE, List.of(), List.of(), "kubernetes-admin",
                List.of("system:masters", "system:authenticated"), false, "default");
    }

    public ReviewSettings withOperation(Operation op, List<InputManifest> old) {
        return new ReviewSettings(op, old, namespaces, username, groups, dryRun, defaultNamespace);
    }

    public ReviewSettings withNamespaces(List<InputManifest> ns) {
        return new ReviewSettings(operation, oldObjects, ns, username, groups, dryRun, defaultNamespace);
    }

    public ReviewSettings withDryRun(boolean dry) {
        return new ReviewSettings(operation, oldObjects, namespaces, username, groups, dry, defaultNamespace);
    }

    /** The old object for an UPDATE: same kind, namespace and name. */
    public Optional<ObjectNode> oldObject(String kind, String namespace, String name) {
        for (InputManifest m : oldObjects) {
            String ns = m.namespace().isEmpty() ? namespace : m.namespace();
            if (m.kind().equals(kind) && ns.equals(namespace) && m.name().equals(name)) {
                return Optional.of(m.object().deepCopy());
            }
        }
        return Optional.empty();
    }

    /** The namespace objects given, by name; the API server adds the name label to every namespace. */
    public Map<String, ObjectNode> namespaceObjects() {
        Map<String, ObjectNode> out = new HashMap<>();
        for (InputManifest m : namespaces) {
            ObjectNode ns = m.object().deepCopy();
            ns.withObject("/metadata").withObject("/labels").put(NAME_LABEL, m.name());
            out.put(m.name(), ns);
        }
        return out;
    }

    /** A namespace as the API server creates it when nothing else is known: only the name label. */
    public static ObjectNode assumedNamespace(String name) {
        ObjectNode ns = JsonNodeFactory.instance.objectNode();
        ns.put("apiVersion", "v1");
        ns.put("kind", "Namespace");
        ns.putObject("metadata").put("name", name).putObject("labels").put(NAME_LABEL, name);
        return ns;
    }
}
