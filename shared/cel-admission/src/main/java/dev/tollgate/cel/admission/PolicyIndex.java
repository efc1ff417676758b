package dev.tollgate.cel.admission;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.GroupVersionResource;
import dev.tollgate.admission.match.LabelSelector;

/**
 * Which of a dispatcher's policies a request can select, found without looking at each policy: built once from
 * their {@code matchConstraints}, by operation, API group and resource (with their {@code *}s), and by
 * namespaceSelector, each distinct selector evaluated once per request.
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
    /** Policies without resourceRules (only possible for specs not parsed as a policy): always candidates. */
    private final BitSet always = new BitSet();
    /** The distinct namespaceSelectors that select less than everything, and each policy's index into them. */
    private final List<LabelSelector> selectors = new ArrayList<>();
    private final int[] selectorOf;

    /** @param constraints each policy's matchConstraints, in the order the candidates refer to. */
    PolicyIndex(List<MatchResources> constraints) {
        int size = constraints.size();
        this.selectorOf = new int[size];
        Map<List<LabelSelector.Requirement>, Integer> distinct = new HashMap<>();
        for (int i = 0; i < size; i++) {
            MatchResources m = constraints.get(i);
            if (m.resourceRules().isEmpty()) {
                always.set(i);
            }
            for (MatchResources.NamedRule r : m.resourceRules()) {
                for (String op : r.rule().operations()) {
                    for (String group : r.rule().apiGroups()) {
                        for (String resource : r.rule().resources()) {
                            int slash = resource.indexOf('/');
                            String main = slash < 0 ? resource : resource.substring(0, slash);
                            byRule.computeIfAbsent(op, k -> new HashMap<>()).computeIfAbsent(group,
                                    k -> new HashMap<>()).computeIfAbsent(main, k -> new BitSet()).set(i);
                        }
                    }
                }
            }
            LabelSelector ns = m.namespaceSelector();
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
        addResources(out, byGroup.get(gvr.group()), gvr.resource());
        addResources(out, byGroup.get(ANY), gvr.resource());
    }

    private static void addResources(BitSet out, Map<String, BitSet> byResource, String resource) {
        if (byResource == null) {
            return;
        }
        BitSet exact = byResource.get(resource);
        if (exact != null) {
            out.or(exact);
        }
        BitSet any = byResource.get(ANY);
        if (any != null) {
            out.or(any);
        }
    }
}
