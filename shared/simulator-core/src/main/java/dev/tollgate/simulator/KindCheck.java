package dev.tollgate.simulator;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.GroupVersionKind;

/**
 * Refuses manifests of kinds the cluster would not know. The API server answers an unknown kind with "no matches for
 * kind"; here a kind counts as known when it is built in, declared with {@code --custom-kind}, or named by a rule of
 * a webhook configuration given with {@code --config} (its group exactly, its resource by name or {@code *}).
 */
public final class KindCheck {

    private final List<String> declared;
    private final List<ObjectNode> configurations;

    /**
     * @param declared       {@code KIND} (core group) or {@code KIND.GROUP} values of {@code --custom-kind}
     * @param configurations the webhook configurations given by the user
     */
    public KindCheck(List<String> declared, List<ObjectNode> configurations) {
        this.declared = List.copyOf(declared);
        this.configurations = List.copyOf(configurations);
    }

    /** One line per manifest whose kind is unknown, saying where, what, and how to declare it. */
    public List<String> problems(List<InputManifest> manifests) {
        List<String> problems = new ArrayList<>();
        for (InputManifest m : manifests) {
            GroupVersionKind gvk = gvk(m);
            if (KnownResources.lookup(gvk, false).known() || isDeclared(gvk) || namedByConfiguration(gvk)) {
                continue;
            }
            String group = gvk.group().isEmpty() ? "" : "." + gvk.group();
            problems.add(m.source() + ": kind " + gvk.kind() + " is not served by " + m.apiVersion()
                    + nearest(gvk).map(k -> " (did you mean " + k + "?)").orElse("")
                    + "; for a custom resource, declare it with --custom-kind " + gvk.kind() + group);
        }
        return problems;
    }

    static GroupVersionKind gvk(InputManifest m) {
        String apiVersion = m.apiVersion();
        int slash = apiVersion.indexOf('/');
        return GroupVersionKind.of(slash < 0 ? "" : apiVersion.substring(0, slash),
                slash < 0 ? apiVersion : apiVersion.substring(slash + 1), m.kind());
    }

    private boolean isDeclared(GroupVersionKind gvk) {
        String full = gvk.group().isEmpty() ? gvk.kind() : gvk.kind() + "." + gvk.group();
        return declared.contains(full);
    }

    private boolean namedByConfiguration(GroupVersionKind gvk) {
        String resource = KnownResources.plural(gvk.kind());
        for (ObjectNode config : configurations) {
            for (JsonNode webhook : config.path("webhooks")) {
                for (JsonNode rule : webhook.path("rules")) {
                    if (contains(rule.path("apiGroups"), gvk.group())
                            && (contains(rule.path("resources"), resource) || contains(rule.path("resources"), "*"))) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static boolean contains(JsonNode array, String value) {
        for (JsonNode v : array) {
            if (v.asText().equals(value)) {
                return true;
            }
        }
        return false;
    }

    /** A built-in kind of the same group/version within two edits, for a likely typo. */
    private static Optional<String> nearest(GroupVersionKind gvk) {
        return BuiltInSchemas.kinds(gvk.group(), gvk.version()).stream()
                .filter(k -> distance(k.toLowerCase(Locale.ROOT), gvk.kind().toLowerCase(Locale.ROOT)) <= 2)
                .min(Comparator.comparingInt((String k) -> distance(k, gvk.kind())).thenComparing(k -> k));
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
