package dev.tollgate.gatekeeper;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.match.LabelSelector;
import dev.tollgate.admission.match.LabelSelector.Operator;
import dev.tollgate.admission.match.LabelSelector.Requirement;
import dev.tollgate.admission.match.Rule;
import dev.tollgate.cel.admission.BindingSpec;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.KubernetesSchemas;
import dev.tollgate.cel.admission.MatchResources;
import dev.tollgate.cel.admission.PolicyConfig;
import dev.tollgate.cel.admission.PolicySpec;

/**
 * The webhook registration a CEL function's policies need, derived from the policies themselves: what the API server
 * must send the function so that every request a served policy selects reaches it. Never narrower than the policies
 * (a request a policy would judge is always sent); narrower than "everything" wherever the webhook's fields can say
 * it, the rest left to the function, which applies the full match anyway.
 *
 * <ul>
 * <li>Rules: a bound ValidatingAdmissionPolicy's (or MutatingAdmissionPolicy's) {@code matchConstraints.resourceRules}
 * with {@code apiVersions: ["*"]} (the function sees the object in the version the client sent, and matches
 * equivalent resources itself); a Constraint's {@code match.kinds} as the kinds' resources (built-in kinds, or a
 * CustomResourceDefinition given among the documents), its {@code match.scope} as the rule's scope, and the
 * operations Gatekeeper registers its validating webhook for (CREATE, UPDATE: gatekeeper
 * config/webhook/manifests.yaml, and charts/gatekeeper's {@code enableDeleteOperations} for DELETE). Wildcard kinds get
 * Gatekeeper's own list of resources: {@code *} and the subresources it names.</li>
 * <li>{@code namespaceSelector} and {@code objectSelector}: a webhook has one of each and a request must match both,
 * so only the requirements every served policy implies are kept (an {@code In} widened to the union of values, a
 * {@code NotIn} narrowed to the common values); a Constraint's {@code namespaces} and {@code excludedNamespaces}
 * become {@code kubernetes.io/metadata.name} In / NotIn where they name namespaces exactly (globs are left to the
 * function), its {@code namespaceSelector} and {@code labelSelector} are used as they are. The API server matches
 * both selectors as Gatekeeper's match.go does: a Namespace by its own labels, a cluster-scoped object of another
 * kind never excluded by a namespaceSelector (webhook/predicates/namespace/matcher.go), the object selector on the
 * new or the old object.</li>
 * </ul>
 *
 * A policy without a binding, a binding to a policy that is not given, and a Constraint that never acts at the
 * webhook ({@code source: Generated}, or {@code scoped} without the webhook's enforcement point) select nothing.
 */
public final class RegistrationRules {

    /** The operations of Gatekeeper's validating webhook (config/webhook/manifests.yaml). */
    public static final List<String> GATEKEEPER_OPERATIONS = List.of("CREATE", "UPDATE");

    /**
     * The resources Gatekeeper's validating webhook registers besides {@code *} (config/webhook/manifests.yaml,
     * charts/gatekeeper values {@code validatingWebhookSubResources}): every subresource it knows but status.
     */
    static final List<String> GATEKEEPER_SUBRESOURCES = List.of("pods/ephemeralcontainers", "pods/exec", "pods/log",
            "pods/eviction", "pods/portforward", "pods/proxy", "pods/attach", "pods/binding", "pods/resize",
            "deployments/scale", "replicasets/scale", "statefulsets/scale", "replicationcontrollers/scale",
            "services/proxy", "nodes/proxy", "services/status");

    /** The label the API server gives every namespace from Kubernetes 1.21 (NamespaceDefaultLabelName). */
    public static final String NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> POLICY_KINDS = Set.of("ValidatingAdmissionPolicy", "MutatingAdmissionPolicy");
    private static final Set<String> BINDING_KINDS = Set.of("ValidatingAdmissionPolicyBinding",
            "MutatingAdmissionPolicyBinding");

    /**
     * What one served policy selects, as webhook fields: its rules, and the requirements (all must hold) on the
     * namespace's and the object's labels.
     */
    record Selection(String policy, List<Rule> rules, List<Requirement> namespace, List<Requirement> object) {
    }

    /**
     * The derived registration.
     *
     * @param policies          the policies it was derived from ({@code Kind/name}, with the binding for a policy)
     * @param appliedByFunction what the webhook fields cannot say, left to the function (one line each)
     */
    public record Result(List<Rule> rules, List<Requirement> namespaceSelector, List<Requirement> objectSelector,
            List<String> policies, List<String> appliedByFunction) {

        /**
         * The webhook fields as JSON ({@code rules}, {@code namespaceSelector} and {@code objectSelector} when they
         * have requirements) plus {@code policies} and {@code applied_by_function}: what Terraform's
         * webhook-configurations takes as {@code policy_rules} and the simulator applies to the function's entry.
         */
        public ObjectNode toJson() {
            ObjectNode out = JSON.createObjectNode();
            ArrayNode rs = out.putArray("rules");
            for (Rule r : rules) {
                ObjectNode o = rs.addObject();
                r.operations().forEach(o.putArray("operations")::add);
                r.apiGroups().forEach(o.putArray("apiGroups")::add);
                r.apiVersions().forEach(o.putArray("apiVersions")::add);
                r.resources().forEach(o.putArray("resources")::add);
                o.put("scope", r.scope());
            }
            if (!namespaceSelector.isEmpty()) {
                out.set("namespaceSelector", selectorJson(namespaceSelector));
            }
            if (!objectSelector.isEmpty()) {
                out.set("objectSelector", selectorJson(objectSelector));
            }
            policies.forEach(out.putArray("policies")::add);
            appliedByFunction.forEach(out.putArray("applied_by_function")::add);
            return out;
        }

        /**
         * Whether the API server sends {@code request} to a webhook registered with these fields: a rule matches, the
         * namespaceSelector matches {@code namespaceLabels} (the labels of the request's namespace, of the Namespace
         * itself for a Namespace; a cluster-scoped request of another kind is never excluded) and the
         * objectSelector the new or the old object (webhook/predicates/namespace/matcher.go, object/matcher.go).
         */
        public boolean sends(AdmissionRequest request, Map<String, String> namespaceLabels) {
            if (rules.stream().noneMatch(r -> r.matches(request))) {
                return false;
            }
            if (!request.namespace().isEmpty()
                    && !namespaceSelector.stream().allMatch(r -> r.matches(namespaceLabels))) {
                return false;
            }
            return objectSelector.stream().allMatch(r -> request.object() != null
                    && r.matches(request.object().labels()))
                    || objectSelector.stream().allMatch(r -> request.oldObject() != null
                            && r.matches(request.oldObject().labels()));
        }

        /** {@code entry} (a webhook.yaml entry) with these rules and selectors in place of its own. */
        public ObjectNode applyTo(ObjectNode entry) {
            ObjectNode copy = entry.deepCopy();
            ObjectNode fields = toJson();
            copy.set("rules", fields.get("rules"));
            for (String s : List.of("namespaceSelector", "objectSelector")) {
                copy.remove(s);
                if (fields.has(s)) {
                    copy.set(s, fields.get(s));
                }
            }
            return copy;
        }
    }

    private RegistrationRules() {
    }

    /**
     * Derives the registration of the policies among {@code documents} (other documents, such as params and
     * Namespaces, are ignored; CustomResourceDefinitions among them give the resources of their kinds).
     *
     * @param gatekeeperOperations the operations Constraints are registered for ({@link #GATEKEEPER_OPERATIONS}, or
     *                             with DELETE as Gatekeeper's {@code enableDeleteOperations})
     * @throws PolicyConfig.InvalidConfigException listing every invalid policy and every kind whose resource is not
     *                                             known
     */
    public static Result derive(List<ConfigFiles.Document> documents, List<String> gatekeeperOperations) {
        List<String> errors = new ArrayList<>();
        List<String> leftToFunction = new ArrayList<>();
        Map<String, PolicySpec> policies = new LinkedHashMap<>();
        Map<BindingSpec, String> bindings = new LinkedHashMap<>(); // binding => the kind of policy it binds
        List<Constraint> constraints = new ArrayList<>();
        for (ConfigFiles.Document d : documents) {
            if (d.apiVersion().startsWith("admissionregistration.k8s.io/") && POLICY_KINDS.contains(d.kind())) {
                PolicySpec p = PolicySpec.parse(d, errors);
                if (p != null) {
                    policies.put(d.kind() + "/" + p.name(), p);
                }
            } else if (d.apiVersion().startsWith("admissionregistration.k8s.io/") && BINDING_KINDS.contains(d.kind())) {
                BindingSpec b = BindingSpec.parse(d, errors);
                if (b != null) {
                    bindings.put(b, d.kind().replace("Binding", ""));
                }
            } else if (Constraint.isConstraint(d)) {
                Constraint c = Constraint.parse(d, errors);
                if (c != null) {
                    constraints.add(c);
                }
            }
        }
        KindResources kinds = new KindResources(documents);
        List<Selection> selections = new ArrayList<>();
        bindings.forEach((b, policyKind) -> {
            PolicySpec p = policies.get(policyKind + "/" + b.policyName());
            if (p != null) {
                selections.add(policySelection(policyKind, p, b, leftToFunction));
            }
        });
        for (Constraint c : constraints) {
            if ("Generated".equals(c.match().source()) || c.actions().isEmpty()) {
                continue; // never acts at the admission webhook
            }
            Selection s = constraintSelection(c, gatekeeperOperations, kinds, errors, leftToFunction);
            if (s != null) {
                selections.add(s);
            }
        }
        if (!errors.isEmpty()) {
            throw new PolicyConfig.InvalidConfigException(errors);
        }
        return combine(selections, leftToFunction);
    }

    static Result combine(List<Selection> selections, List<String> leftToFunction) {
        List<Rule> rules = new ArrayList<>();
        selections.forEach(s -> rules.addAll(s.rules()));
        return new Result(merge(rules), common(selections.stream().map(Selection::namespace).toList()),
                common(selections.stream().map(Selection::object).toList()),
                selections.stream().map(Selection::policy).toList(), List.copyOf(leftToFunction));
    }

    private static Selection policySelection(String kind, PolicySpec p, BindingSpec b, List<String> left) {
        MatchResources mc = p.matchConstraints();
        MatchResources mr = b.matchResources();
        List<Rule> rules = new ArrayList<>();
        for (MatchResources.NamedRule r : mc.resourceRules()) {
            rules.add(new Rule(r.rule().operations(), r.rule().apiGroups(), List.of("*"), r.rule().resources(),
                    r.rule().scope()));
        }
        String name = kind + "/" + p.name() + " (binding " + b.name() + ")";
        if (!mc.excludeResourceRules().isEmpty() || !mr.excludeResourceRules().isEmpty()
                || !mr.resourceRules().isEmpty() || mc.resourceRules().stream().anyMatch(r -> !r.resourceNames()
                        .isEmpty())) {
            left.add(name + ": the binding's resourceRules, excludeResourceRules and resourceNames");
        }
        if (!p.matchConditions().isEmpty()) {
            left.add(name + ": matchConditions");
        }
        return new Selection(name, rules, concat(mc.namespaceSelector(), mr.namespaceSelector()),
                concat(mc.objectSelector(), mr.objectSelector()));
    }

    private static List<Requirement> concat(LabelSelector a, LabelSelector b) {
        List<Requirement> out = new ArrayList<>(a.requirements());
        out.addAll(b.requirements());
        return out;
    }

    private static Selection constraintSelection(Constraint c, List<String> operations, KindResources kinds,
            List<String> errors, List<String> left) {
        ConstraintMatch m = c.match();
        String name = c.kind() + "/" + c.name();
        String scope = switch (m.scope()) {
            case CLUSTER -> Rule.CLUSTER;
            case NAMESPACED -> Rule.NAMESPACED;
            case ALL -> Rule.ALL_SCOPES;
        };
        List<Rule> rules = new ArrayList<>();
        List<ConstraintMatch.KindSelector> selectors = m.kinds().isEmpty()
                ? List.of(new ConstraintMatch.KindSelector(List.of(), List.of()))
                : m.kinds();
        for (int i = 0; i < selectors.size(); i++) {
            ConstraintMatch.KindSelector k = selectors.get(i);
            boolean anyGroup = k.apiGroups().isEmpty() || k.apiGroups().contains("*");
            List<String> groups = anyGroup ? List.of("*") : k.apiGroups();
            if (k.kinds().isEmpty() || k.kinds().contains("*")) {
                List<String> all = new ArrayList<>(List.of("*"));
                all.addAll(GATEKEEPER_SUBRESOURCES);
                rules.add(new Rule(operations, groups, List.of("*"), all, scope));
                continue;
            }
            for (String group : groups) {
                Set<String> resources = new TreeSet<>();
                for (String kind : k.kinds()) {
                    Set<String> found = kinds.resources(group, kind);
                    if (found.isEmpty()) {
                        errors.add(name + " (" + c.source() + "): spec.match.kinds[" + i + "]: kind " + kind
                                + (group.equals("*") ? " (any group)" : " of group '" + group + "'")
                                + " is not a built-in kind and no CustomResourceDefinition given defines it: "
                                + "give its CustomResourceDefinition with the policies");
                    }
                    resources.addAll(found);
                }
                if (!resources.isEmpty()) {
                    rules.add(new Rule(operations, List.of(group), List.of("*"), List.copyOf(resources), scope));
                }
            }
        }
        List<Requirement> namespace = new ArrayList<>();
        if (m.namespaceSelector() != null) {
            namespace.addAll(m.namespaceSelector().requirements());
        }
        if (!m.namespaces().isEmpty()) {
            if (m.namespaces().stream().noneMatch(n -> n.contains("*"))) {
                namespace.add(new Requirement(NAMESPACE_NAME_LABEL, Operator.In, Set.copyOf(m.namespaces())));
            } else {
                left.add(name + ": namespaces " + m.namespaces() + " (globs)");
            }
        }
        List<String> exact = m.excludedNamespaces().stream().filter(n -> !n.contains("*")).toList();
        if (!exact.isEmpty()) {
            namespace.add(new Requirement(NAMESPACE_NAME_LABEL, Operator.NotIn, Set.copyOf(exact)));
        }
        if (exact.size() < m.excludedNamespaces().size()) {
            left.add(name + ": excludedNamespaces " + m.excludedNamespaces().stream().filter(n -> n.contains("*"))
                    .toList() + " (globs)");
        }
        if (!m.name().isEmpty()) {
            left.add(name + ": name " + m.name());
        }
        List<Requirement> object = m.labelSelector() == null ? List.of() : m.labelSelector().requirements();
        return new Selection(name, rules, namespace, object);
    }

    /**
     * The requirements every selection implies: a request any selection matches then matches all of them. Candidates
     * are each selection's own requirements and, per key, the union of the In values and the common NotIn values.
     */
    static List<Requirement> common(List<List<Requirement>> selections) {
        if (selections.isEmpty() || selections.stream().anyMatch(List::isEmpty)) {
            return List.of();
        }
        Set<Requirement> candidates = new LinkedHashSet<>();
        Map<String, Set<String>> in = new LinkedHashMap<>();
        Map<String, Set<String>> notIn = new LinkedHashMap<>();
        for (List<Requirement> s : selections) {
            for (Requirement r : s) {
                candidates.add(r);
                if (r.operator() == Operator.In) {
                    in.computeIfAbsent(r.key(), k -> new TreeSet<>()).addAll(r.values());
                } else if (r.operator() == Operator.NotIn) {
                    notIn.merge(r.key(), new TreeSet<>(r.values()), (a, b) -> {
                        a.retainAll(b);
                        return a;
                    });
                }
            }
        }
        in.forEach((k, v) -> candidates.add(new Requirement(k, Operator.In, Set.copyOf(v))));
        notIn.forEach((k, v) -> {
            if (!v.isEmpty()) {
                candidates.add(new Requirement(k, Operator.NotIn, Set.copyOf(v)));
            }
        });
        List<Requirement> kept = candidates.stream()
                .filter(c -> selections.stream().allMatch(s -> s.stream().anyMatch(q -> implies(q, c)))).toList();
        // Leave out what another kept requirement already implies.
        List<Requirement> out = new ArrayList<>();
        for (Requirement c : kept) {
            if (kept.stream().noneMatch(o -> !o.equals(c) && implies(o, c) && !implies(c, o))) {
                out.add(c);
            }
        }
        out.sort(Comparator.comparing(Requirement::key).thenComparing(r -> r.operator().name()));
        return List.copyOf(out);
    }

    /** Whether every label set {@code q} matches is also matched by {@code r} (same key only). */
    static boolean implies(Requirement q, Requirement r) {
        if (!q.key().equals(r.key())) {
            return false;
        }
        return switch (r.operator()) {
            case Exists -> q.operator() == Operator.In || q.operator() == Operator.Exists;
            case DoesNotExist -> q.operator() == Operator.DoesNotExist;
            case In -> q.operator() == Operator.In && r.values().containsAll(q.values());
            case NotIn -> q.operator() == Operator.DoesNotExist
                    || q.operator() == Operator.NotIn && q.values().containsAll(r.values())
                    || q.operator() == Operator.In && q.values().stream().noneMatch(r.values()::contains);
        };
    }

    /**
     * Rules merged where that widens nothing: the same operations, groups and scope share one rule's resources (less
     * those a wildcard among them covers), then the same operations, resources and scope one rule's groups; sorted,
     * so the result is stable.
     */
    static List<Rule> merge(List<Rule> rules) {
        Map<List<Object>, Set<String>> byGroups = new LinkedHashMap<>();
        for (Rule r : rules) {
            byGroups.computeIfAbsent(List.of(sorted(r.operations()), sorted(r.apiGroups()), r.scope()),
                    k -> new TreeSet<>()).addAll(r.resources());
        }
        // The API server refuses "*" beside other resources without a subresource, and "*/*" beside anything
        // (validation.go validateResources); both already cover them.
        byGroups.values().forEach(resources -> {
            if (resources.contains("*/*")) {
                resources.retainAll(Set.of("*/*"));
            } else if (resources.contains("*")) {
                resources.removeIf(x -> !x.equals("*") && !x.contains("/"));
            }
        });
        Map<List<Object>, Set<String>> byResources = new LinkedHashMap<>();
        byGroups.forEach((k, resources) -> byResources.computeIfAbsent(List.of(k.get(0), List.copyOf(resources),
                k.get(2)), x -> new TreeSet<>()).addAll(cast(k.get(1))));
        List<Rule> out = new ArrayList<>();
        byResources.forEach((k, groups) -> out.add(new Rule(cast(k.get(0)), List.copyOf(groups), List.of("*"),
                cast(k.get(1)), (String) k.get(2))));
        out.sort(Comparator.comparing((Rule r) -> String.join(",", r.apiGroups()))
                .thenComparing(r -> String.join(",", r.resources())).thenComparing(Rule::scope)
                .thenComparing(r -> String.join(",", r.operations())));
        return List.copyOf(out);
    }

    private static List<String> sorted(Collection<String> values) {
        return List.copyOf(new TreeSet<>(values));
    }

    @SuppressWarnings("unchecked")
    private static List<String> cast(Object o) {
        return (List<String>) o;
    }

    private static ObjectNode selectorJson(List<Requirement> requirements) {
        ObjectNode s = JSON.createObjectNode();
        ArrayNode exprs = s.putArray("matchExpressions");
        for (Requirement r : requirements) {
            ObjectNode e = exprs.addObject().put("key", r.key()).put("operator", r.operator().name());
            if (!r.values().isEmpty()) {
                new TreeSet<>(r.values()).forEach(e.putArray("values")::add);
            }
        }
        return s;
    }

    /** Kind to resource: the built-in kinds, then the CustomResourceDefinitions among the documents. */
    static final class KindResources {
        private final Map<String, Set<String>> byGroupKind = new LinkedHashMap<>();

        KindResources(List<ConfigFiles.Document> documents) {
            for (KubernetesSchemas.BuiltInResource r : KubernetesSchemas.builtInResources()) {
                add(r.gvk().group(), r.gvk().kind(), r.resource());
            }
            for (ConfigFiles.Document d : documents) {
                if (d.kind().equals("CustomResourceDefinition")
                        && d.apiVersion().startsWith("apiextensions.k8s.io/")) {
                    JsonNode spec = d.object().path("spec");
                    add(spec.path("group").asText(), spec.path("names").path("kind").asText(),
                            spec.path("names").path("plural").asText());
                }
            }
        }

        private void add(String group, String kind, String resource) {
            if (!kind.isEmpty() && !resource.isEmpty()) {
                byGroupKind.computeIfAbsent(group + "/" + kind, k -> new TreeSet<>()).add(resource);
            }
        }

        /** The resources of {@code kind} in {@code group} ({@code *}: in any group). */
        Set<String> resources(String group, String kind) {
            Set<String> out = new TreeSet<>();
            byGroupKind.forEach((k, v) -> {
                if (k.equals(group + "/" + kind) || group.equals("*") && k.endsWith("/" + kind)) {
                    out.addAll(v);
                }
            });
            return out;
        }
    }
}
