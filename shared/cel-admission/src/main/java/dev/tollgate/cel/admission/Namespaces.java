package dev.tollgate.cel.admission;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.KubeObject;
import dev.tollgate.admission.Operation;
import dev.tollgate.admission.match.LabelSyntax;

/**
 * The Namespace objects a policy function knows. The API server looks namespaces up for {@code namespaceSelector}
 * and {@code namespaceObject}; a function has no API server to ask, so the namespaces are part of its configuration
 * ({@code kind: Namespace} documents in the configuration files). What happens for a namespace that is not
 * configured is chosen by {@link Unknown}.
 */
public final class Namespaces {

    /** What to do with a namespace that is not configured. */
    public enum Unknown {
        /**
         * The lookup fails: the policy's evaluation errs and its failurePolicy applies (Fail denies, Ignore skips),
         * as when the API server cannot read the namespace.
         */
        ERROR,
        /** Treat it as a namespace of that name with no labels and no annotations. */
        EMPTY;

        public static Unknown parse(String value) {
            try {
                return valueOf(value.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown-namespace must be 'error' or 'empty', got '" + value + "'");
            }
        }
    }

    /** A namespace the function was asked about but does not know, with the way to fix it. */
    public static final class UnknownNamespaceException extends RuntimeException {

        public UnknownNamespaceException(String namespace) {
            super("namespace \"" + namespace + "\" is not known to this function: add a Namespace object for it to "
                    + "the policy configuration files", null, false, false);
        }
    }

    private static final String NAMESPACES = "namespaces";

    private final Map<String, ObjectNode> byName;
    private final Unknown unknown;

    private Namespaces(Map<String, ObjectNode> byName, Unknown unknown) {
        this.byName = byName;
        this.unknown = unknown;
    }

    public static Namespaces of(Map<String, ObjectNode> byName, Unknown unknown) {
        return new Namespaces(Collections.unmodifiableMap(new LinkedHashMap<>(byName)), unknown);
    }

    /**
     * Collects the {@code v1 Namespace} documents.
     *
     * @throws IllegalArgumentException for a namespace without a valid name or one configured twice
     */
    public static Namespaces from(List<ConfigFiles.Document> documents, Unknown unknown) {
        Map<String, ObjectNode> byName = new LinkedHashMap<>();
        Map<String, String> sources = new LinkedHashMap<>();
        for (ConfigFiles.Document d : documents) {
            if (!isNamespace(d.object())) {
                continue;
            }
            String name = d.name();
            if (!LabelSyntax.isDnsLabel(name)) {
                throw new IllegalArgumentException(d.describe() + ": metadata.name must be a DNS label");
            }
            String previous = sources.putIfAbsent(name, d.source());
            if (previous != null) {
                throw new IllegalArgumentException(d.describe() + ": namespace \"" + name + "\" is already defined in "
                        + previous);
            }
            byName.put(name, d.object());
        }
        return of(byName, unknown);
    }

    public static boolean isNamespace(JsonNode object) {
        return "v1".equals(object.path("apiVersion").asText()) && "Namespace".equals(object.path("kind").asText());
    }

    public Unknown unknownPolicy() {
        return unknown;
    }

    public int size() {
        return byName.size();
    }

    /**
     * The labels a namespaceSelector is matched against, as the API server finds them: for CREATE or UPDATE of a
     * Namespace itself, the new object's labels (the stored one is not updated yet); otherwise the labels of the
     * request's namespace (for DELETE of a Namespace, the object being deleted).
     *
     * @throws UnknownNamespaceException when the namespace is not configured and unknown namespaces are errors
     */
    public Map<String, String> labelsFor(AdmissionRequest request) {
        if (isNamespaceRequest(request)) {
            if (request.subResource().isEmpty()
                    && (request.operation() == Operation.CREATE || request.operation() == Operation.UPDATE)
                    && request.object() != null) {
                return request.object().labels();
            }
            if (request.operation() == Operation.DELETE && request.oldObject() != null) {
                return request.oldObject().labels();
            }
        }
        return KubeObject.stringMap(require(request.namespace()).path("metadata").path("labels"));
    }

    /**
     * The {@code namespaceObject} CEL variable: the request's namespace, or null for a cluster-scoped request and
     * for a Namespace itself (as the API server does). Only the fields the API server exposes are kept.
     *
     * @throws UnknownNamespaceException when the namespace is not configured and unknown namespaces are errors
     */
    public ObjectNode namespaceObject(AdmissionRequest request) {
        String name = request.namespace();
        if (name.isEmpty() || "Namespace".equals(request.kind().kind()) && request.kind().group().isEmpty()
                && "v1".equals(request.kind().version())) {
            return null;
        }
        return trimmed(require(name));
    }

    /** The configured namespace, or an empty one under {@link Unknown#EMPTY}. */
    public ObjectNode require(String name) {
        ObjectNode ns = byName.get(name);
        if (ns != null) {
            return ns;
        }
        if (unknown == Unknown.EMPTY) {
            ObjectNode empty = JsonNodeFactory.instance.objectNode();
            empty.put("apiVersion", "v1").put("kind", "Namespace");
            empty.putObject("metadata").put("name", name);
            return empty;
        }
        throw new UnknownNamespaceException(name);
    }

    private static boolean isNamespaceRequest(AdmissionRequest request) {
        return NAMESPACES.equals(request.resource().resource()) && request.resource().group().isEmpty();
    }

    // The API server's CreateNamespaceObject keeps metadata identity, labels, annotations, spec and status.
    private static final List<String> KEPT_METADATA = List.of("name", "generateName", "namespace", "uid",
            "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds",
            "labels", "annotations", "finalizers");

    private static ObjectNode trimmed(ObjectNode ns) {
        // Like the API server's object, no apiVersion/kind: it is built without type metadata.
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        ObjectNode md = out.putObject("metadata");
        JsonNode src = ns.path("metadata");
        for (String f : KEPT_METADATA) {
            if (src.has(f)) {
                md.set(f, src.get(f));
            }
        }
        if (ns.has("spec")) {
            out.set("spec", ns.get("spec"));
        }
        if (ns.has("status")) {
            out.set("status", ns.get("status"));
        }
        return out;
    }
}
