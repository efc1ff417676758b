package dev.tollgate.cel.admission;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.GroupVersionResource;
import dev.tollgate.admission.KubeObject;
import dev.tollgate.admission.match.LabelSelector;
import dev.tollgate.admission.match.Rule;

/**
 * Which of a dispatcher's policies a request can select, found without looking at each policy: built once from
 * their {@link Selection#indexKeys}: by operation, API group and resource (with their {@code *}s) for
 * {@code matchConstraints}, by the group and kind of the request's objects for a Gatekeeper Constraint's
 * {@code match.kinds}, and by namespaceSelector, each distinct selector evaluated once per request.
 *
 * <p>The candidates are a superset of the policies whose matchConstraints match: a policy is left out only where
 * {@link MatchResources#matches} would say no for certain (no resourceRule can select the operation and resource,
 * requested or received; or its namespaceSelector is false for the namespace's labels). The caller still runs the
 * full match on each candidate, so the result, errors included, is the scan's. A namespace whose labels cannot be
 * read leaves every candidate in, for the full match to report as the API server does.
 */
final class PolicyIndex {

    private static final String ANY = "*";

    /** operation -> API group -> resource (without subresource) -> the policies with a rule for it. */
    private final Map<String, Map<String, Map<String, BitSet>>> byRule = new HashMap<>();
    /** object group -> object kind: the policies that select objects of that kind (Gatekeeper's match.kinds). */
    private final Map<String, Map<String, BitSet>> byObjectKind = new HashMap<>();
    /** Policies with neither rules nor object kinds (e.g. a Constraint without match.kinds): always candidates. */
    private final BitSet always = new BitSet();
    /** The distinct namespaceSelectors that select less than everything, and each policy's index into them. */
    private final List<LabelSelector> selectors = new ArrayList<>();
    private final int[] selectorOf;

    /** @param selections what each policy selects, in the order the candidates refer to. */
    PolicyIndex(List<? extends Selection> selections) {
        int size = selections.size();
        this.selectorOf = new int[size];
        Map<List<LabelSelector.Requirement>, Integer> distinct = new HashMap<>();
        for (int i = 0; i < size; i++) {
            Selection.IndexKeys keys = selections.get(i).indexKeys();
            if (keys.rules().isEmpty() && keys.objectKinds().isEmpty()) {
                always.set(i);
            }
            for (Rule r : keys.rules()) {
                for (String op : r.operations()) {
                    for (String group : r.apiGroups()) {
                        for (String resource : r.resources()) {
                            int slash = resource.indexOf('/');
                            String main = slash < 0 ? resource : resource.substring(0, slash);
                            byRule.computeIfAbsent(op, k -> new HashMap<>()).computeIfAbsent(group,
                                    k -> new HashMap<>()).computeIfAbsent(main, k -> new BitSet()).set(i);
                        }
                    }
                }
            }
            for (Selection.ObjectKind k : keys.objectKinds()) {
                byObjectKind.computeIfAbsent(k.group(), g -> new HashMap<>())
                        .computeIfAbsent(k.kind(), g -> new BitSet()).set(i);
            }
            LabelSelector ns = keys.namespaceSelector();
            selectorOf[i] = ns.matchesEverything() ? -1
                    : distinct.computeIfAbsent(ns.requirements(), k -> {
                        selectors.add(ns);
                        return selectors.size() - 1;
                    });
        }
    }

    /** How many distinct namespaceSelectors a request may have to evaluate (for tests and the startup log). */
    int distinctNamespaceSelectors() {
        return selectors.size();
    }

    /** The policies (by position) whose matchConstraints may match the request, in ascending order. */
    BitSet candidates(AdmissionRequest request, Namespaces namespaces) {
        BitSet out = (BitSet) always.clone();
        String op = request.operation().name();
        addRules(out, op, request.requestResource());
        if (!request.resource().equals(request.requestResource())) {
            addRules(out, op, request.resource());
        }
        // A Constraint selects the request when its object or its oldObject is of a kind it names.
        for (KubeObject o : new KubeObject[] {request.object(), request.oldObject()}) {
            if (o != null && !byObjectKind.isEmpty()) {
                String apiVersion = o.apiVersion();
                String group = apiVersion.indexOf('/') < 0 ? "" : apiVersion.substring(0, apiVersion.indexOf('/'));
                addNamed(out, byObjectKind.get(group), o.kind());
                addNamed(out, byObjectKind.get(ANY), o.kind());
            }
        }
        if (selectors.isEmpty() || out.isEmpty() || !MatchResources.appliesNamespaceSelector(request)) {
            return out;
        }
        // Read only when a candidate has a selector: the scan would not have asked the cluster otherwise.
        Map<String, String> labels = null;
        byte[] verdicts = new byte[selectors.size()];   // 0 not evaluated, 1 selects, 2 does not
        for (int i = out.nextSetBit(0); i >= 0; i = out.nextSetBit(i + 1)) {
            int s = selectorOf[i];
            if (s < 0) {
                continue;
            }
            if (labels == null) {
                try {
                    labels = namespaces.labelsFor(request);
                } catch (RuntimeException e) {
                    return out;    // the full match reports the lookup's error where the policy would otherwise match
                }
            }
            if (verdicts[s] == 0) {
                verdicts[s] = (byte) (selectors.get(s).matches(labels) ? 1 : 2);
            }
            if (verdicts[s] == 2) {
                out.clear(i);
            }
        }
        return out;
    }

    private void addRules(BitSet out, String op, GroupVersionResource gvr) {
        addGroups(out, byRule.get(op), gvr);
        addGroups(out, byRule.get(ANY), gvr);
    }

    private static void addGroups(BitSet out, Map<String, Map<String, BitSet>> byGroup, GroupVersionResource gvr) {
        if (byGroup == null) {
            return;
        }
        addNamed(out, byGroup.get(gvr.group()), gvr.resource());
        addNamed(out, byGroup.get(ANY), gvr.resource());
    }

    /** The policies filed under {@code name} and under {@code *} (a resource or an object kind). */
    private static void addNamed(BitSet out, Map<String, BitSet> byName, String name) {
        if (byName == null) {
            return;
        }
        BitSet exact = byName.get(name);
        if (exact != null) {
            out.or(exact);
        }
        BitSet any = byName.get(ANY);
        if (any != null) {
            out.or(any);
        }
    }
}
