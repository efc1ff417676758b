package dev.tollgate.cel.admission;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.tollgate.admission.GroupVersionResource;
import dev.tollgate.admission.Operation;
import dev.tollgate.admission.match.Rule;
import dev.tollgate.admission.registration.Registrations;
import dev.tollgate.admission.registration.WebhookRegistration;

/**
 * Whether the function's own registration (webhook.yaml) sends it the requests its policies match: the API server
 * only calls the webhook for what the registration's rules cover, so a policy rule outside them would silently never
 * apply. Each uncovered combination is reported (as a startup warning).
 */
public final class RegistrationCoverage {

    private RegistrationCoverage() {
    }

    /**
     * The rules of the packaged registration entries served at {@code path}; every webhook.yaml on the classpath is
     * read, since a bundle of several functions has one per function.
     */
    public static List<Rule> packagedRules(String path) {
        ClassLoader cl = Thread.currentThread().getContextClassLoader();
        List<Rule> rules = new ArrayList<>();
        try {
            for (URL url : Collections.list(cl.getResources(Registrations.CLASSPATH_LOCATION))) {
                try (InputStream in = url.openStream()) {
                    for (WebhookRegistration r : Registrations.read("", in, url.toString())) {
                        if (r.path().equals(path)) {
                            rules.addAll(r.rules());
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + Registrations.CLASSPATH_LOCATION, e);
        }
        return rules;
    }

    /**
     * The operation/resource combinations of {@code policyName}'s matchConstraints that no registration rule covers.
     * A wildcard in a policy rule is only covered by a wildcard in the registration.
     */
    public static List<String> uncovered(String policyName, MatchResources constraints, List<Rule> registration) {
        List<String> out = new ArrayList<>();
        for (MatchResources.NamedRule named : constraints.resourceRules()) {
            Rule rule = named.rule();
            for (String op : rule.operations()) {
                for (String group : rule.apiGroups()) {
                    for (String version : rule.apiVersions()) {
                        for (String resource : rule.resources()) {
                            if (!covered(registration, op, group, version, resource)) {
                                out.add(policyName + ": " + op + " " + (group.isEmpty() ? "core" : group) + "/"
                                        + version + " " + resource + " is not covered by the rules of webhook.yaml, "
                                        + "so the API server never sends it to this function");
                            }
                        }
                    }
                }
            }
        }
        return out;
    }

    // Scope is not compared: which resources are namespaced is discovery knowledge the function does not have.
    private static boolean covered(List<Rule> registration, String op, String group, String version,
            String resource) {
        int slash = resource.indexOf('/');
        String res = slash < 0 ? resource : resource.substring(0, slash);
        String sub = slash < 0 ? "" : resource.substring(slash + 1);
        for (Rule r : registration) {
            boolean opOk = r.operations().contains("*") || r.operations().contains(op)
                    || !op.equals("*") && isOperation(op) && r.matchesOperation(Operation.valueOf(op));
            boolean groupOk = r.apiGroups().contains("*") || r.apiGroups().contains(group);
            boolean versionOk = r.apiVersions().contains("*") || r.apiVersions().contains(version);
            boolean resourceOk = r.resources().contains(resource) || r.resources().contains("*/*")
                    || !res.equals("*") && !sub.equals("*")
                            && r.matchesResource(GroupVersionResource.of(group, version, res), sub);
            if (opOk && groupOk && versionOk && resourceOk) {
                return true;
            }
        }
        return false;
    }

    private static boolean isOperation(String op) {
        for (Operation o : Operation.values()) {
            if (o.name().equals(op)) {
                return true;
            }
        }
        return false;
    }
}
