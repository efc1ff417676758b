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
 * The Namespace objects a policy function knows, for {@code namespaceSelector} and {@code namespaceObject}. The API
 * server reads them from its namespace cache; a function reads them from its configuration ({@code kind: Namespace}
 * documents in the configuration files) or, in a cluster, from the Kubernetes API ({@link ClusterNamespaces}). A
 * name that the configured documents do not hold goes to the fallback {@link NamespaceSource}: under
 * {@link Unknown} for a configuration-only function, or the API.
 */
public final class Namespaces {

    /** What to do with a namespace that is not configured (and not looked up in the API). */
    public enum Unknown {
        /**
         * The lookup fails as the API server's does for a namespace that does not exist (NotFound): a
         * namespaceSelector reports "failed to configure" under the failurePolicy, namespaceObject fails the request.
         */
        ERROR,
        /**
         * It exists with only the {@code kubernetes.io/metadata.name} label that the API server gives every
         * namespace, no annotations: what the simulator assumes for a namespace it was not given.
         */
        EMPTY;

        public static Unknown parse(String value) {
            try {
                return valueOf(value.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown-namespace must be 'error' or 'empty', got '" + value + "'");
            }
        }
    }

    /** The label the API server sets on every namespace to its name (Kubernetes 1.21+). */
    public static final String NAME_LABEL = "kubernetes.io/metadata.name";

    private static final String NAMESPACES = "namespaces";

    private final Map<String, ObjectNode> byName;
    private final NamespaceSource fallback;

    private Namespaces(Map<String, ObjectNode> byName, NamespaceSource fallback) {
        this.byName = byName;
        this.fallback = fallback;
    }

    /** The given namespaces (each labelled with its name, as the API server does), then {@code unknown}. */
    public static Namespaces of(Map<String, ObjectNode> byName, Unknown unknown) {
        return of(byName, unknown == Unknown.EMPTY ? ASSUMED : NOT_CONFIGURED);
    }

    /** The given namespaces (each labelled with its name, as the API server does), then the fallback. */
    public static Namespaces of(Map<String, ObjectNode> byName, NamespaceSource fallback) {
        Map<String, ObjectNode> labelled = new LinkedHashMap<>();
        byName.forEach((name, ns) -> labelled.put(name, withNameLabel(name, ns)));
        return new Namespaces(Collections.unmodifiableMap(labelled), fallback);
    }

    /**
     * These namespaces, with {@code first}'s Namespace objects (labelled with their name) before them: a name it
     * returns null for is looked up here ({@link SimulatedNamespaces}).
     */
    Namespaces withFirst(java.util.function.Function<String, ObjectNode> first) {
        Namespaces own = this;
        return new Namespaces(Map.of(), new NamespaceSource() {
            @Override
            public ObjectNode get(String name) {
                ObjectNode ns = first.apply(name);
                return ns != null ? withNameLabel(name, ns) : own.require(name);
            }

            @Override
            public String describe() {
                return "the simulator's, then " + own.describe();
            }
        });
    }

    /** Every namespace from the source (e.g. the Kubernetes API), none configured. */
    public static Namespaces from(NamespaceSource source) {
        return new Namespaces(Map.of(), source);
    }

    /** Unknown namespaces exist with only the name label (what the simulator and the API server's labelling give). */
    public static final NamespaceSource ASSUMED = new NamespaceSource() {
        @Override
        public ObjectNode get(String name) {
            ObjectNode ns = JsonNodeFactory.instance.objectNode();
            ns.put("apiVersion", "v1").put("kind", "Namespace");
            ns.putObject("metadata").put("name", name).putObject("labels").put(NAME_LABEL, name);
            return ns;
        }

        @Override
        public String describe() {
            return "others assumed to exist with only the " + NAME_LABEL + " label";
        }
    };

    /** Unknown namespaces are not found. */
    public static final NamespaceSource NOT_CONFIGURED = new NamespaceSource() {
        @Override
        public ObjectNode get(String name) {
            throw NamespaceLookupException.notFound(name, "this function knows only the namespaces in its policy "
                    + "configuration files: add a Namespace object for it, or set unknown-namespace=empty");
        }

        @Override
        public String describe() {
            return "others not found (unknown-namespace=error)";
        }
    };

    // The API server always sets kubernetes.io/metadata.name to the name (pkg/registry/core/namespace/strategy.go,
    // PrepareForCreate/PrepareForUpdate), so a namespace read from a file gets it as well.
    private static ObjectNode withNameLabel(String name, ObjectNode ns) {
        if (name.equals(ns.path("metadata").path("labels").path(NAME_LABEL).asText(null))) {
            return ns;
        }
        ObjectNode copy = ns.deepCopy();
        copy.withObject("/metadata").withObject("/labels").put(NAME_LABEL, name);
        return copy;
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

    /** How many namespaces the configuration files hold. */
    public int size() {
        return byName.size();
    }

    /** Where namespaces come from, for the startup log. */
    public String describe() {
        return byName.isEmpty() && fallback != ASSUMED && fallback != NOT_CONFIGURED ? fallback.describe()
                : byName.size() + " from the configuration files, " + fallback.describe();
    }

    /**
     * The labels a namespaceSelector is matched against, as the API server finds them: for CREATE or UPDATE of a
     * Namespace itself, the new object's labels (the stored one is not updated yet); otherwise the labels of the
     * request's namespace (for DELETE of a Namespace, the object being deleted).
     *
     * @throws NamespaceLookupException when the namespace cannot be found or read
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
     * @throws NamespaceLookupException when the namespace cannot be found or read
     */
    public ObjectNode namespaceObject(AdmissionRequest request) {
        String name = request.namespace();
        if (name.isEmpty() || "Namespace".equals(request.kind().kind()) && request.kind().group().isEmpty()
                && "v1".equals(request.kind().version())) {
            return null;
        }
        return trimmed(require(name));
    }

    /**
     * The configured namespace, else the fallback's.
     *
     * @throws NamespaceLookupException when the fallback cannot find or read it
     */
    public ObjectNode require(String name) {
        ObjectNode ns = byName.get(name);
        return ns != null ? ns : fallback.get(name);
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
