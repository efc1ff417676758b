package dev.tollgate.simulator.audit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

import dev.tollgate.admission.GroupVersionResource;
import dev.tollgate.admission.Operation;
import dev.tollgate.admission.match.Rule;
import dev.tollgate.simulator.Configurations;
import dev.tollgate.simulator.KnownResources;
import dev.tollgate.simulator.Webhook;

/**
 * Which resources to list: every served resource that some webhook's rules could match for the operation, once per
 * group/resource (the API server stores one object whatever version it is read in), in the version a webhook
 * registered for when the preferred one is not, else the preferred one. Resources the rules name explicitly but the
 * cluster does not serve become notes.
 */
public record AuditPlan(List<Target> targets, List<String> notes) {

    /** A resource to list, and the webhooks whose rules reach it. */
    public record Target(ServedResource resource, List<String> webhooks) {
    }

    /** The groups whose discovery matters to these configurations (to spare the API server other requests). */
    public static Predicate<String> groupsOf(Configurations configurations) {
        Set<String> groups = new LinkedHashSet<>();
        for (Webhook w : all(configurations)) {
            for (Rule r : w.rules()) {
                groups.addAll(r.apiGroups());
                if (w.equivalentMatchPolicy()) {
                    for (String res : r.resources()) {
                        for (String g : r.apiGroups()) {
                            for (String v : r.apiVersions()) {
                                String base = res.contains("/") ? res.substring(0, res.indexOf('/')) : res;
                                KnownResources.equivalents(GroupVersionResource.of(g, v, base))
                                        .forEach(e -> groups.add(e.group()));
                            }
                        }
                    }
                }
            }
        }
        return g -> groups.contains("*") || groups.contains(g);
    }

    public static AuditPlan of(Configurations configurations, Discovery discovery, Operation operation,
            boolean namespacedOnly) {
        List<Webhook> hooks = all(configurations);
        Map<String, List<ServedResource>> byGroupResource = new TreeMap<>();
        for (ServedResource r : discovery.resources()) {
            if (r.listable() && !KnownResources.exemptFromWebhooks(r.gvr())) {
                byGroupResource.computeIfAbsent(r.group() + "/" + r.resource(),
                        k -> discovery.versionsOf(r.group(), r.resource()));
            }
        }
        List<Target> targets = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Set<String> listedEquivalents = new LinkedHashSet<>();
        for (List<ServedResource> versions : byGroupResource.values()) {
            ServedResource chosen = null;
            Set<String> reaching = new LinkedHashSet<>();
            // A version some rule names directly wins (the webhook then gets the object as it registered for it).
            for (ServedResource v : versions) {
                List<String> direct = matching(hooks, operation, v, false);
                if (!direct.isEmpty()) {
                    chosen = chosen == null ? v : chosen;
                    reaching.addAll(direct);
                }
            }
            for (ServedResource v : versions) {
                List<String> eq = matching(hooks, operation, v, true);
                if (!eq.isEmpty()) {
                    chosen = chosen == null ? versions.get(0) : chosen;
                    reaching.addAll(eq);
                }
            }
            if (chosen == null) {
                continue;
            }
            if (namespacedOnly && !chosen.namespaced()) {
                notes.add(chosen + " is cluster-scoped: not audited when namespaces are chosen (-n)");
                continue;
            }
            // One group/resource served under two groups (extensions vs apps) is one set of objects: list it once.
            String key = equivalenceKey(chosen);
            if (!listedEquivalents.add(key)) {
                continue;
            }
            targets.add(new Target(chosen, List.copyOf(reaching)));
        }
        notes.addAll(notServed(hooks, discovery));
        return new AuditPlan(targets, notes);
    }

    /** The webhooks with a rule matching the resource for the operation (directly, or through an equivalent). */
    private static List<String> matching(List<Webhook> hooks, Operation op, ServedResource r, boolean viaEquivalent) {
        List<String> out = new ArrayList<>();
        String namespace = r.namespaced() ? "audit" : "";
        for (Webhook w : hooks) {
            if (viaEquivalent && !w.equivalentMatchPolicy()) {
                continue;
            }
            List<GroupVersionResource> candidates = viaEquivalent ? KnownResources.equivalents(r.gvr())
                    : List.of(r.gvr());
            boolean hit = false;
            for (Rule rule : w.rules()) {
                for (GroupVersionResource gvr : candidates) {
                    hit |= rule.matches(op, gvr, "", namespace);
                }
            }
            if (hit) {
                out.add(w.name());
            }
        }
        return out;
    }

    private static String equivalenceKey(ServedResource r) {
        List<GroupVersionResource> eq = KnownResources.equivalents(r.gvr());
        if (eq.isEmpty()) {
            return r.group() + "/" + r.resource();
        }
        List<String> names = new ArrayList<>();
        names.add(r.group() + "/" + r.resource());
        eq.forEach(e -> names.add(e.group() + "/" + e.resource()));
        return String.join(",", new java.util.TreeSet<>(names));
    }

    /** Rules that name a group and resource the cluster does not serve (in any version the rule accepts). */
    private static List<String> notServed(List<Webhook> hooks, Discovery discovery) {
        Map<String, Set<String>> missing = new LinkedHashMap<>();
        for (Webhook w : hooks) {
            for (Rule rule : w.rules()) {
                for (String g : rule.apiGroups()) {
                    for (String res : rule.resources()) {
                        String base = res.contains("/") ? res.substring(0, res.indexOf('/')) : res;
                        if (g.equals("*") || base.equals("*")) {
                            continue;
                        }
                        boolean served = discovery.resources().stream().anyMatch(r -> r.group().equals(g)
                                && r.resource().equals(base) && (rule.apiVersions().contains("*")
                                        || rule.apiVersions().contains(r.version())));
                        if (!served) {
                            String what = (g.isEmpty() ? "" : g + "/") + String.join("|", rule.apiVersions()) + " "
                                    + base;
                            missing.computeIfAbsent(what, k -> new LinkedHashSet<>()).add(w.name());
                        }
                    }
                }
            }
        }
        List<String> notes = new ArrayList<>();
        missing.forEach((what, by) -> notes.add(what + " is not served by the cluster (named by " + String.join(", ",
                by) + "): nothing to audit there"));
        return notes;
    }

    private static List<Webhook> all(Configurations c) {
        List<Webhook> out = new ArrayList<>(c.mutating());
        out.addAll(c.validating());
        return out;
    }
}
