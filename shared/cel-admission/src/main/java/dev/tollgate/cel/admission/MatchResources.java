package dev.tollgate.cel.admission;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.GroupVersionResource;
import dev.tollgate.admission.KubeObject;
import dev.tollgate.admission.match.LabelSelector;
import dev.tollgate.admission.match.Rule;

/**
 * A policy's {@code matchConstraints} or a binding's {@code matchResources} (admissionregistration.k8s.io/v1
 * MatchResources), matched the way the API server matches admission policies.
 *
 * <p>Order of checks, as upstream: namespaceSelector and objectSelector, then excludeResourceRules, then
 * resourceRules (an empty list matches every resource). A namespace that cannot be looked up is only an error when
 * the request would otherwise match.
 *
 * <p>matchPolicy: the function sees the request after the API server matched its webhook registration, so
 * {@code requestResource} is what the client asked for and {@code resource} what the function received (they
 * differ only when the webhook's own matchPolicy converted the request). {@code Exact} matches rules against the
 * requested resource; {@code Equivalent} also accepts the received one as an equivalent resource.
 */
public record MatchResources(LabelSelector namespaceSelector, LabelSelector objectSelector,
        List<NamedRule> resourceRules, List<NamedRule> excludeResourceRules, MatchPolicy matchPolicy)
        implements Selection {

    public enum MatchPolicy { Exact, Equivalent }

    /** A RuleWithOperations plus the resource names it is limited to (empty: every name). */
    public record NamedRule(Rule rule, Set<String> resourceNames) {

        boolean matches(AdmissionRequest request, GroupVersionResource gvr, String subResource) {
            if (!rule.matches(request.operation(), gvr, subResource, request.namespace())) {
                return false;
            }
            return resourceNames.isEmpty() || resourceNames.contains(request.name());
        }
    }

    /** Matches everything: a binding without matchResources. */
    public static final MatchResources EVERYTHING = new MatchResources(LabelSelector.everything(),
            LabelSelector.everything(), List.of(), List.of(), MatchPolicy.Equivalent);

    private static final Set<String> FIELDS = Set.of("namespaceSelector", "objectSelector", "resourceRules",
            "excludeResourceRules", "matchPolicy");
    private static final Set<String> RULE_FIELDS = Set.of("operations", "apiGroups", "apiVersions", "resources",
            "scope", "resourceNames");
    private static final Set<String> OPERATIONS = Set.of("*", "CREATE", "UPDATE", "DELETE", "CONNECT");

    public MatchResources {
        resourceRules = List.copyOf(resourceRules);
        excludeResourceRules = List.copyOf(excludeResourceRules);
    }

    /**
     * Parses and validates the JSON form.
     *
     * @param at            the field path, for messages
     * @param rulesRequired true for a policy's matchConstraints, whose resourceRules the API server requires
     * @throws IllegalArgumentException naming every problem
     */
    public static MatchResources parse(JsonNode node, String at, boolean rulesRequired) {
        List<String> errors = new ArrayList<>();
        if (node == null || node.isNull() || node.isMissingNode()) {
            if (rulesRequired) {
                throw new IllegalArgumentException(at + ": required");
            }
            return EVERYTHING;
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException(at + ": expected an object");
        }
        node.fieldNames().forEachRemaining(f -> {
            if (!FIELDS.contains(f)) {
                errors.add(at + "." + f + ": unknown field");
            }
        });
        LabelSelector ns = selector(node.get("namespaceSelector"), at + ".namespaceSelector", errors);
        LabelSelector obj = selector(node.get("objectSelector"), at + ".objectSelector", errors);
        List<NamedRule> rules = rules(node.get("resourceRules"), at + ".resourceRules", errors);
        if (rulesRequired && rules.isEmpty()) {
            errors.add(at + ".resourceRules: required (at least one rule)");
        }
        List<NamedRule> excludes = rules(node.get("excludeResourceRules"), at + ".excludeResourceRules", errors);
        MatchPolicy policy = MatchPolicy.Equivalent;
        JsonNode mp = node.get("matchPolicy");
        if (mp != null && !mp.isNull()) {
            try {
                policy = MatchPolicy.valueOf(mp.asText());
            } catch (IllegalArgumentException e) {
                errors.add(at + ".matchPolicy: must be Exact or Equivalent, got '" + mp.asText() + "'");
            }
        }
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", errors));
        }
        return new MatchResources(ns, obj, rules, excludes, policy);
    }

    /**
     * Whether the request is matched.
     *
     * @throws NamespaceLookupException when the request matches otherwise but its namespace's labels are needed and
     *                                  cannot be read; the message is the API server's (NotFound as is, anything
     *                                  else an internal error: webhook/predicates/namespace/matcher.go)
     */
    @Override
    public boolean matches(AdmissionRequest request, Namespaces namespaces) {
        RuntimeException namespaceError = null;
        boolean nsMatch = true;
        if (!namespaceSelector.matchesEverything() && appliesNamespaceSelector(request)) {
            try {
                nsMatch = namespaceSelector.matches(namespaces.labelsFor(request));
            } catch (NamespaceLookupException e) {
                namespaceError = new NamespaceLookupException(e.code(), e.reason(), e.selectorMessage());
            }
        }
        if (!nsMatch) {
            return false;
        }
        if (!objectSelector.matchesEverything() && !(matchesObject(request.object())
                || matchesObject(request.oldObject()))) {
            return false;
        }
        if (matchesRules(excludeResourceRules, request)) {
            return false;
        }
        if (!resourceRules.isEmpty() && !matchesRules(resourceRules, request)) {
            return false;
        }
        if (namespaceError != null) {
            throw namespaceError;
        }
        return true;
    }

    /** Its resourceRules and namespaceSelector: both must select a request the full match selects. */
    @Override
    public IndexKeys indexKeys() {
        return new IndexKeys(resourceRules.stream().map(NamedRule::rule).toList(), List.of(), namespaceSelector);
    }

    private boolean matchesObject(KubeObject object) {
        return object != null && objectSelector.matches(object.labels());
    }

    // Cluster-scoped requests other than Namespaces are never filtered by a namespaceSelector.
    static boolean appliesNamespaceSelector(AdmissionRequest request) {
        return !request.namespace().isEmpty() || "namespaces".equals(request.resource().resource())
                && request.resource().group().isEmpty();
    }

    private boolean matchesRules(List<NamedRule> rules, AdmissionRequest request) {
        for (NamedRule r : rules) {
            if (r.matches(request, request.requestResource(), request.requestSubResource())) {
                return true;
            }
        }
        if (matchPolicy == MatchPolicy.Exact || request.resource().equals(request.requestResource())
                && request.subResource().equals(request.requestSubResource())) {
            return false;
        }
        for (NamedRule r : rules) {
            if (r.matches(request, request.resource(), request.subResource())) {
                return true;
            }
        }
        return false;
    }

    private static LabelSelector selector(JsonNode node, String at, List<String> errors) {
        try {
            return LabelSelector.parse(node);
        } catch (IllegalArgumentException e) {
            errors.add(at + ": " + e.getMessage());
            return LabelSelector.everything();
        }
    }

    private static List<NamedRule> rules(JsonNode node, String at, List<String> errors) {
        List<NamedRule> out = new ArrayList<>();
        if (node == null || node.isNull()) {
            return out;
        }
        if (!node.isArray()) {
            errors.add(at + ": expected an array");
            return out;
        }
        for (int i = 0; i < node.size(); i++) {
            String here = at + "[" + i + "]";
            JsonNode r = node.get(i);
            if (!r.isObject()) {
                errors.add(here + ": expected an object");
                continue;
            }
            r.fieldNames().forEachRemaining(f -> {
                if (!RULE_FIELDS.contains(f)) {
                    errors.add(here + "." + f + ": unknown field");
                }
            });
            Rule rule;
            try {
                rule = Rule.parse(r);
            } catch (IllegalArgumentException e) {
                errors.add(here + ": " + e.getMessage());
                continue;
            }
            requireNonEmpty(rule.operations(), here + ".operations", errors);
            requireNonEmpty(rule.apiGroups(), here + ".apiGroups", errors);
            requireNonEmpty(rule.apiVersions(), here + ".apiVersions", errors);
            requireNonEmpty(rule.resources(), here + ".resources", errors);
            for (String op : rule.operations()) {
                if (!OPERATIONS.contains(op)) {
                    errors.add(here + ".operations: unknown operation '" + op + "'");
                }
            }
            if (!Set.of(Rule.ALL_SCOPES, Rule.CLUSTER, Rule.NAMESPACED).contains(rule.scope())) {
                errors.add(here + ".scope: must be Cluster, Namespaced or *, got '" + rule.scope() + "'");
            }
            List<String> names = new ArrayList<>();
            for (JsonNode n : r.path("resourceNames")) {
                names.add(n.asText());
            }
            out.add(new NamedRule(rule, Set.copyOf(names)));
        }
        return out;
    }

    private static void requireNonEmpty(List<String> values, String at, List<String> errors) {
        if (values.isEmpty()) {
            errors.add(at + ": required (at least one entry)");
        }
    }
}
