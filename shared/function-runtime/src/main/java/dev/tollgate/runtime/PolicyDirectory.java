package dev.tollgate.runtime;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import dev.tollgate.admission.AdmissionPolicy;
import dev.tollgate.admission.match.LabelSyntax;

/** The policies this application serves, by name: every {@link AdmissionPolicy} bean. */
@ApplicationScoped
public class PolicyDirectory {

    private final Map<String, AdmissionPolicy> byName = new TreeMap<>();

    PolicyDirectory() {
        // for CDI proxies
    }

    @Inject
    public PolicyDirectory(Instance<AdmissionPolicy> policies) {
        for (AdmissionPolicy policy : policies) {
            String name = policy.name();
            if (!LabelSyntax.isDnsLabel(name)) {
                throw new IllegalStateException("policy " + policy.getClass().getName() + " has name '" + name
                        + "': a function name must be a DNS label (lowercase letters, digits, '-')");
            }
            AdmissionPolicy previous = byName.put(name, policy);
            if (previous != null) {
                throw new IllegalStateException("two policies are named '" + name + "': "
                        + previous.getClass().getName() + " and " + policy.getClass().getName());
            }
        }
    }

    public Collection<AdmissionPolicy> all() {
        return byName.values();
    }

    /** The function a policy path belongs to: its first segment ({@code /pod-security/enforce/..} -> pod-security). */
    static String functionName(String path) {
        String rest = path.startsWith("/") ? path.substring(1) : path;
        int slash = rest.indexOf('/');
        return slash < 0 ? rest : rest.substring(0, slash);
    }

    /**
     * The policy serving an HTTP path: {@code /<name>} is the policy itself, a longer path is resolved by the
     * policy's {@link AdmissionPolicy#forSubPath(String)}.
     */
    public Optional<? extends AdmissionPolicy> resolve(String path) {
        if (path == null || !path.startsWith("/")) {
            return Optional.empty();
        }
        String rest = path.substring(1);
        int slash = rest.indexOf('/');
        String name = slash < 0 ? rest : rest.substring(0, slash);
        AdmissionPolicy policy = byName.get(name);
        if (policy == null) {
            return Optional.empty();
        }
        if (slash < 0) {
            return Optional.of(policy);
        }
        String sub = rest.substring(slash + 1);
        return sub.isEmpty() ? Optional.empty() : policy.forSubPath(sub);
    }
}
