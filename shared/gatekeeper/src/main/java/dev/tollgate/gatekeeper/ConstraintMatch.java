package dev.tollgate.gatekeeper;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.KubeObject;
import dev.tollgate.admission.match.LabelSelector;
import dev.tollgate.cel.admission.Namespaces;
import dev.tollgate.cel.admission.Selection;

/**
 * A Constraint's {@code spec.match}, decided as Gatekeeper decides it (gatekeeper pkg/mutation/match/match.go
 * {@code Matches}: kinds, scope, namespaces, excludedNamespaces, labelSelector, namespaceSelector, name, source; and
 * pkg/target/matcher.go: the request matches when its object or its oldObject does). Globs are Gatekeeper's
 * (pkg/wildcard/wildcard.go): {@code prefix*}, {@code *suffix}, {@code *infix*}, else exact; a name glob also matches
 * the object's generateName when it ends in {@code *}.
 */
public record ConstraintMatch(List<KindSelector> kinds, Scope scope, List<String> namespaces,
        List<String> excludedNamespaces, LabelSelector labelSelector, LabelSelector namespaceSelector, String name,
        String source) implements Selection {

    /** match.kinds[i]: empty lists and {@code *} match everything. */
    public record KindSelector(List<String> apiGroups, List<String> kinds) {
        boolean matches(String group, String kind) {
            return (kinds.isEmpty() || kinds.contains("*") || kinds.contains(kind))
                    && (apiGroups.isEmpty() || apiGroups.contains("*") || apiGroups.contains(group));
        }
    }

    /** match.scope. */
    public enum Scope { ALL, CLUSTER, NAMESPACED }

    public ConstraintMatch {
        kinds = List.copyOf(kinds);
        namespaces = List.copyOf(namespaces);
        excludedNamespaces = List.copyOf(excludedNamespaces);
    }

    /** No spec.match: every object. */
    public static final ConstraintMatch EVERYTHING = new ConstraintMatch(List.of(), Scope.ALL, List.of(), List.of(),
            null, null, "", "");

    /**
     * Reads {@code spec.match}; problems are added to {@code errors} prefixed with {@code at}.
     */
    static ConstraintMatch parse(JsonNode match, String at, List<String> errors) {
        if (match.isMissingNode() || match.isNull()) {
            return EVERYTHING;
        }
        List<KindSelector> kinds = new ArrayList<>();
        for (JsonNode k : match.path("kinds")) {
            kinds.add(new KindSelector(strings(k.path("apiGroups")), strings(k.path("kinds"))));
        }
        Scope scope = switch (match.path("scope").asText("*")) {
            case "*" -> Scope.ALL;
            case "Cluster" -> Scope.CLUSTER;
            case "Namespaced" -> Scope.NAMESPACED;
            default -> {
                errors.add(at + ".scope: must be *, Cluster or Namespaced, got '" + match.path("scope").asText() + "'");
                yield Scope.ALL;
            }
        };
        String source = match.path("source").asText("");
        if (!source.isEmpty() && !List.of("All", "Original", "Generated").contains(source)) {
            errors.add(at + ".source: must be All, Original or Generated, got '" + source + "'");
        }
        return new ConstraintMatch(kinds, scope, strings(match.path("namespaces")),
                strings(match.path("excludedNamespaces")), selector(match.path("labelSelector"), at + ".labelSelector",
                        errors), selector(match.path("namespaceSelector"), at + ".namespaceSelector", errors),
                match.path("name").asText(""), source);
    }

    private static LabelSelector selector(JsonNode node, String at, List<String> errors) {
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        try {
            return LabelSelector.parse(node);
        } catch (IllegalArgumentException e) {
            errors.add(at + ": " + e.getMessage());
            return null;
        }
    }

    private static List<String> strings(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(n -> out.add(n.asText()));
        return out;
    }

    /**
     * Whether {@code object} (of a request in {@code requestNamespace}) is selected. Admission reviews and gator's
     * objects are Gatekeeper's "Original" source: a constraint for {@code Generated} objects only never matches.
     *
     * @param namespace the namespace object of {@code requestNamespace}, looked up only when the namespaceSelector
     *                  needs it (it may throw the lookup's failure)
     */
    public boolean matches(KubeObject object, String requestNamespace, Function<String, ObjectNode> namespace) {
        if ("Generated".equals(source)) {
            return false;
        }
        String group = group(object.apiVersion());
        boolean isNamespace = "Namespace".equals(object.kind()) && group.isEmpty();
        String objectNamespace = object.namespace();
        // match.go: the namespace the object is in (a Namespace is matched by its own name); the request's namespace
        // stands in for a namespace object Gatekeeper would have been given.
        String ns = isNamespace ? object.name() : !requestNamespace.isEmpty() ? requestNamespace : objectNamespace;
        boolean hasNamespace = !objectNamespace.isEmpty() || !requestNamespace.isEmpty();
        if (!kinds.isEmpty() && kinds.stream().noneMatch(k -> k.matches(group, object.kind()))) {
            return false;
        }
        boolean scoped = switch (scope) {
            case CLUSTER -> isNamespace || !hasNamespace;
            case NAMESPACED -> !isNamespace && hasNamespace;
            case ALL -> true;
        };
        if (!scoped) {
            return false;
        }
        if (!namespaces.isEmpty() && !ns.isEmpty() && namespaces.stream().noneMatch(g -> glob(g, ns))) {
            return false;
        }
        if (!excludedNamespaces.isEmpty() && !ns.isEmpty() && excludedNamespaces.stream().anyMatch(g -> glob(g, ns))) {
            return false;
        }
        if (labelSelector != null && !labelSelector.matches(object.labels())) {
            return false;
        }
        if (namespaceSelector != null) {
            if (isNamespace) {
                if (!namespaceSelector.matches(object.labels())) {
                    return false;
                }
            } else if (hasNamespace) {
                ObjectNode nsObject = namespace.apply(ns);
                if (!namespaceSelector.matches(KubeObject.stringMap(nsObject.path("metadata").path("labels")))) {
                    return false;
                }
            }
        }
        return name.isEmpty() || glob(name, object.name()) || generateNameGlob(name, object.generateName());
    }

    /**
     * pkg/target/matcher.go matchAny: the request is selected when its object or its old object is.
     *
     * @throws dev.tollgate.cel.admission.NamespaceLookupException when the namespaceSelector needs a namespace that
     *                                                             cannot be read
     */
    @Override
    public boolean matches(AdmissionRequest request, Namespaces namespaces) {
        for (KubeObject o : new KubeObject[] {request.object(), request.oldObject()}) {
            if (o != null && matches(o, request.namespace(), namespaces::require)) {
                return true;
            }
        }
        return false;
    }

    /** The groups and kinds of match.kinds (none: every object), each selector's groups by its kinds. */
    @Override
    public IndexKeys indexKeys() {
        List<ObjectKind> objectKinds = new ArrayList<>();
        for (KindSelector k : kinds) {
            List<String> groups = k.apiGroups().isEmpty() || k.apiGroups().contains("*") ? List.of("*") : k.apiGroups();
            List<String> names = k.kinds().isEmpty() || k.kinds().contains("*") ? List.of("*") : k.kinds();
            groups.forEach(g -> names.forEach(n -> objectKinds.add(new ObjectKind(g, n))));
        }
        return new IndexKeys(List.of(), objectKinds, LabelSelector.everything());
    }

    /** The apiVersion's group: empty for the core group ({@code v1}). */
    static String group(String apiVersion) {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    /** wildcard.go Matches. */
    static boolean glob(String pattern, String candidate) {
        boolean leading = pattern.startsWith("*");
        boolean trailing = pattern.endsWith("*");
        if (leading && trailing) {
            return pattern.length() < 2 || candidate.contains(pattern.substring(1, pattern.length() - 1));
        }
        if (leading) {
            return candidate.endsWith(pattern.substring(1));
        }
        if (trailing) {
            return candidate.startsWith(pattern.substring(0, pattern.length() - 1));
        }
        return pattern.equals(candidate);
    }

    /** wildcard.go MatchesGenerateName: only a glob that ends in {@code *} can match a generateName. */
    static boolean generateNameGlob(String pattern, String generateName) {
        if (generateName == null || generateName.isEmpty() || !pattern.endsWith("*")) {
            return false;
        }
        return glob(pattern, generateName);
    }
}
