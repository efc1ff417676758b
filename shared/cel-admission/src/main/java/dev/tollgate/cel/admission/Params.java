package dev.tollgate.cel.admission;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.KubeObject;
import dev.tollgate.admission.match.LabelSelector;

/**
 * Parameter objects for policies with a {@code paramKind}, and the API server's rules for finding them from a
 * binding's {@code paramRef}. Params are ordinary objects in the configuration files (a ConfigMap, a custom
 * resource...), next to the policies or in files of their own.
 *
 * <p>Scope: the API server knows from discovery whether a kind is namespaced. Here a kind counts as namespaced when
 * its configured objects carry {@code metadata.namespace}, cluster-scoped when they do not; mixing both is a
 * configuration error. A kind with no configured object at all is unknown, as upstream when the kind does not
 * exist: the binding fails to configure and the policy's failurePolicy applies.
 */
public final class Params implements ParamSource {

    /** {@code spec.paramKind}: apiVersion and kind of the parameter objects. */
    public record Kind(String apiVersion, String kind) {

        public static Kind parse(JsonNode node, String at) {
            if (node == null || node.isNull() || node.isMissingNode()) {
                return null;
            }
            String apiVersion = node.path("apiVersion").asText("");
            String kind = node.path("kind").asText("");
            if (apiVersion.isEmpty() || kind.isEmpty()) {
                throw new IllegalArgumentException(at + ": apiVersion and kind are required");
            }
            return new Kind(apiVersion, kind);
        }

        boolean matches(JsonNode object) {
            return apiVersion.equals(object.path("apiVersion").asText()) && kind.equals(object.path("kind").asText());
        }

        @Override
        public String toString() {
            return kind + "." + apiVersion;
        }
    }

    /** What to do when a paramRef finds nothing. */
    public enum NotFoundAction { Allow, Deny }

    /** A binding's {@code spec.paramRef}: one object by name, or every object a label selector matches. */
    public record Ref(String name, String namespace, LabelSelector selector, NotFoundAction notFoundAction) {

        private static final Set<String> FIELDS = Set.of("name", "namespace", "selector", "parameterNotFoundAction");

        /**
         * Parses and validates a paramRef as the API server does: exactly one of name and selector; the
         * parameterNotFoundAction is required.
         */
        public static Ref parse(JsonNode node, String at) {
            if (node == null || node.isNull() || node.isMissingNode()) {
                return null;
            }
            if (!node.isObject()) {
                throw new IllegalArgumentException(at + ": expected an object");
            }
            List<String> errors = new ArrayList<>();
            node.fieldNames().forEachRemaining(f -> {
                if (!FIELDS.contains(f)) {
                    errors.add(at + "." + f + ": unknown field");
                }
            });
            String name = node.path("name").asText("");
            boolean hasSelector = node.hasNonNull("selector");
            if (name.isEmpty() == !hasSelector) {
                errors.add(at + ": exactly one of name or selector must be set");
            }
            LabelSelector selector = null;
            if (hasSelector) {
                try {
                    selector = LabelSelector.parse(node.get("selector"));
                } catch (IllegalArgumentException e) {
                    errors.add(at + ".selector: " + e.getMessage());
                }
            }
            NotFoundAction action = null;
            String actionText = node.path("parameterNotFoundAction").asText("");
            if (actionText.isEmpty()) {
                errors.add(at + ".parameterNotFoundAction: required (Allow or Deny)");
            } else {
                try {
                    action = NotFoundAction.valueOf(actionText);
                } catch (IllegalArgumentException e) {
                    errors.add(at + ".parameterNotFoundAction: must be Allow or Deny, got '" + actionText + "'");
                }
            }
            if (!errors.isEmpty()) {
                throw new IllegalArgumentException(String.join("; ", errors));
            }
            return new Ref(name, node.path("namespace").asText(""), selector, action);
        }
    }

    /** The binding cannot be used for this request (handled by the policy's failurePolicy). */
    public static final class ParamException extends RuntimeException {
        public ParamException(String message) {
            super(message, null, false, false);
        }
    }

    private final List<ObjectNode> objects;
    private final Map<Kind, Boolean> namespaced;

    private Params(List<ObjectNode> objects, Map<Kind, Boolean> namespaced) {
        this.objects = objects;
        this.namespaced = namespaced;
    }

    /**
     * Collects the objects of the given kinds from the configuration documents.
     *
     * @throws IllegalArgumentException when a kind has both namespaced and cluster-scoped objects, or an object
     *                                  has no name or is defined twice
     */
    public static Params from(List<ConfigFiles.Document> documents, Set<Kind> kinds) {
        List<ObjectNode> objects = new ArrayList<>();
        Map<Kind, Boolean> namespaced = new LinkedHashMap<>();
        Map<String, String> seen = new LinkedHashMap<>();
        for (ConfigFiles.Document d : documents) {
            for (Kind k : kinds) {
                if (!k.matches(d.object())) {
                    continue;
                }
                if (d.name().isEmpty()) {
                    throw new IllegalArgumentException(d.describe() + ": metadata.name is required");
                }
                boolean isNamespaced = !d.namespace().isEmpty();
                Boolean previous = namespaced.putIfAbsent(k, isNamespaced);
                if (previous != null && previous != isNamespaced) {
                    throw new IllegalArgumentException(d.describe() + ": param kind " + k
                            + " has both namespaced and cluster-scoped objects; a kind has one scope");
                }
                String key = k + "/" + d.namespace() + "/" + d.name();
                String before = seen.putIfAbsent(key, d.source());
                if (before != null) {
                    throw new IllegalArgumentException(d.describe() + ": already defined in " + before);
                }
                objects.add(d.object());
            }
        }
        objects.sort(Comparator.comparing((ObjectNode o) -> o.path("metadata").path("namespace").asText(""))
                .thenComparing(o -> o.path("metadata").path("name").asText("")));
        return new Params(List.copyOf(objects), namespaced);
    }

    public int size() {
        return objects.size();
    }

    /** The configured objects of {@code kind} (an inventory given in files, as gator's cases give one). */
    @Override
    public List<ObjectNode> everything(Kind kind) {
        return objects.stream().filter(kind::matches).toList();
    }

    /** Whether the configuration files hold objects of this kind. */
    public boolean configures(Kind kind) {
        return namespaced.containsKey(kind);
    }

    /**
     * The params a binding evaluates with, as the API server's CollectParams: a list with one null element when the
     * policy has no paramKind or the binding no paramRef; the matching objects otherwise (possibly none, which means
     * "skip" under parameterNotFoundAction Allow).
     *
     * @throws ParamException for a binding that cannot be used (unknown kind, a namespace that cannot be
     *                        determined, no params under parameterNotFoundAction Deny)
     */
    @Override
    public List<ObjectNode> collect(Kind kind, Ref ref, AdmissionRequest request) {
        if (kind == null || ref == null) {
            return nothingToCollect();
        }
        Boolean isNamespaced = namespaced.get(kind);
        if (isNamespaced == null) {
            throw new ParamException("paramKind kind `" + kind + "` not known: no object of that kind is configured");
        }
        return collect(ref, request, isNamespaced, (namespace, r) -> {
            List<ObjectNode> found = new ArrayList<>();
            for (ObjectNode o : objects) {
                if (!kind.matches(o) || !namespace.equals(o.path("metadata").path("namespace").asText(""))) {
                    continue;
                }
                if (!r.name().isEmpty() ? r.name().equals(o.path("metadata").path("name").asText())
                        : r.selector().matches(KubeObject.stringMap(o.path("metadata").path("labels")))) {
                    found.add(o);
                }
            }
            return found;
        });
    }

    @Override
    public String describe() {
        return "from the configuration files";
    }

    /** CollectParams' answer for a policy without paramKind or a binding without paramRef: one null param. */
    static List<ObjectNode> nothingToCollect() {
        List<ObjectNode> none = new ArrayList<>(1);
        none.add(null);
        return none;
    }

    /** Finds the objects a paramRef names in one namespace ("" for a cluster-scoped kind). */
    interface Finder {
        List<ObjectNode> find(String namespace, Ref ref);
    }

    /**
     * CollectParams' rules around finding the objects, wherever they are kept: the namespace of a namespaced kind
     * (paramRef.namespace, else the request's), none for a cluster-scoped one, and parameterNotFoundAction
     * (k8s.io/apiserver pkg/admission/plugin/policy/generic/policy_dispatcher.go, CollectParams).
     */
    static List<ObjectNode> collect(Ref ref, AdmissionRequest request, boolean isNamespaced, Finder finder) {
        String namespace = "";
        if (isNamespaced) {
            namespace = !ref.namespace().isEmpty() ? ref.namespace() : request.namespace();
            if (namespace.isEmpty()) {
                throw new ParamException("cannot use namespaced paramRef in policy binding that matches cluster-scoped "
                        + "resources");
            }
        } else if (!ref.namespace().isEmpty()) {
            throw new ParamException("paramRef.namespace must not be provided for a cluster-scoped `paramKind`");
        }
        List<ObjectNode> found = finder.find(namespace, ref);
        if (found.isEmpty() && ref.notFoundAction() == NotFoundAction.Deny) {
            throw new ParamException("no params found for policy binding with `Deny` parameterNotFoundAction");
        }
        return found;
    }
}
