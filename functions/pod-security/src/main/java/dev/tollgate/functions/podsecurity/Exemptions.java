package dev.tollgate.functions.podsecurity;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

import dev.tollgate.admission.match.LabelSyntax;

/**
 * Requests PSA never evaluates, as in the PodSecurity AdmissionConfiguration: those made by these users, pods in
 * these namespaces, and pods running under these runtime classes.
 */
public record Exemptions(Set<String> usernames, Set<String> runtimeClassNames, Set<String> namespaces) {

    public static final Exemptions NONE = new Exemptions(Set.of(), Set.of(), Set.of());

    /**
     * @throws IllegalArgumentException listing every invalid entry, as upstream validates its configuration
     */
    public Exemptions {
        usernames = Set.copyOf(usernames);
        runtimeClassNames = Set.copyOf(runtimeClassNames);
        namespaces = Set.copyOf(namespaces);
        List<String> problems = new ArrayList<>();
        for (String u : usernames) {
            if (u.isBlank()) {
                problems.add("usernames: an empty username");
            }
        }
        for (String r : runtimeClassNames) {
            if (!LabelSyntax.isDnsSubdomain(r)) {
                problems.add("runtime-class-names: '" + r + "' is not a valid runtime class name (DNS subdomain)");
            }
        }
        for (String n : namespaces) {
            if (!LabelSyntax.isDnsLabel(n)) {
                problems.add("namespaces: '" + n + "' is not a valid namespace name (DNS label)");
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid pod-security exemptions: " + String.join("; ", problems));
        }
    }

    public static Exemptions of(Collection<String> usernames, Collection<String> runtimeClassNames,
            Collection<String> namespaces) {
        return new Exemptions(clean(usernames), clean(runtimeClassNames), clean(namespaces));
    }

    private static Set<String> clean(Collection<String> values) {
        return values == null ? Set.of() : Set.copyOf(values.stream().map(String::strip).toList());
    }

    public boolean user(String username) {
        return !username.isEmpty() && usernames.contains(username);
    }

    public boolean namespace(String namespace) {
        return !namespace.isEmpty() && namespaces.contains(namespace);
    }

    public boolean runtimeClass(String runtimeClassName) {
        return !runtimeClassName.isEmpty() && runtimeClassNames.contains(runtimeClassName);
    }
}
