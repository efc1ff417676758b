package dev.tollgate.functionnames.deployment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.tollgate.admission.match.LabelSyntax;
import dev.tollgate.admission.registration.WebhookRegistration;

/**
 * Pairs each archive's webhook.yaml with the policy beans in the same archive: the functions its entries' paths name
 * ({@code /<function>} or {@code /<function>/<sub-path>}) with its admission policy, and its conversion entries'
 * function with its conversion policy. One archive (a function module) holds at most one policy of each kind, so the
 * pairing needs no name in the code. Anything that does not pair is a build error that says where.
 */
final class PolicyPairing {

    /**
     * What the build found in one application archive.
     *
     * @param location            where the archive is, for messages
     * @param entries             its {@code META-INF/tollgate/webhook.yaml} entries, empty when it has none
     * @param admissionPolicies   class names of its admission policy beans
     * @param conversionPolicies  class names of its conversion policy beans
     */
    record Archive(String location, List<WebhookRegistration> entries, Set<String> admissionPolicies,
            Set<String> conversionPolicies) {
    }

    private PolicyPairing() {
    }

    /** Class name to function name for every policy bean; throws with every problem found when any does not pair. */
    static Map<String, String> pair(List<Archive> archives) {
        Map<String, String> byClass = new TreeMap<>();
        Map<String, String> declaredBy = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        for (Archive archive : archives) {
            for (boolean conversion : new boolean[] {false, true}) {
                String kind = conversion ? "conversion" : "admission";
                Set<String> functions = new TreeSet<>();
                for (WebhookRegistration entry : archive.entries()) {
                    if (entry.conversion() == conversion) {
                        String function = functionOf(entry.path());
                        if (LabelSyntax.isDnsLabel(function)) {
                            functions.add(function);
                        } else {
                            problems.add(archive.location() + ": webhook.yaml entry " + entry.name() + " has path '"
                                    + entry.path() + "': its first segment, the function name, must be a DNS label"
                                    + " (lowercase letters, digits, '-')");
                        }
                    }
                }
                Set<String> policies = new TreeSet<>(conversion ? archive.conversionPolicies()
                        : archive.admissionPolicies());
                if (functions.size() == 1 && policies.size() == 1) {
                    String function = functions.iterator().next();
                    byClass.put(policies.iterator().next(), function);
                    String other = declaredBy.put(function, archive.location());
                    if (other != null) {
                        problems.add("function '" + function + "' is declared by two webhook.yaml files: in " + other
                                + " and in " + archive.location());
                    }
                } else if (!functions.isEmpty() || !policies.isEmpty()) {
                    problems.add(archive.location() + ": " + describe(kind, functions, policies));
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("policies and webhook.yaml do not pair: " + String.join("; ", problems));
        }
        return byClass;
    }

    private static String describe(String kind, Set<String> functions, Set<String> policies) {
        if (functions.isEmpty()) {
            return kind + " policy " + String.join(", ", policies) + " has no " + kind
                    + " entry in a META-INF/tollgate/webhook.yaml beside it (a function module packages its webhook.yaml)";
        }
        if (policies.isEmpty()) {
            return "webhook.yaml names " + kind + " function " + String.join(", ", functions) + " but no " + kind
                    + " policy bean is beside it";
        }
        return "webhook.yaml names " + kind + " functions " + functions + " and the archive holds " + kind
                + " policies " + policies + ": one archive serves one " + kind + " function with one policy";
    }

    /** {@code /require-labels} and {@code /pod-security/enforce/baseline/latest} name their first segment. */
    static String functionOf(String path) {
        String rest = path.startsWith("/") ? path.substring(1) : path;
        int slash = rest.indexOf('/');
        return slash < 0 ? rest : rest.substring(0, slash);
    }
}
