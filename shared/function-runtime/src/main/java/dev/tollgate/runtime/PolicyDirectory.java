package dev.tollgate.runtime;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import dev.tollgate.admission.AdmissionPolicy;
import dev.tollgate.admission.conversion.ConversionPolicy;
import dev.tollgate.admission.match.LabelSyntax;

/**
 * The policies this application serves, by name: every {@link AdmissionPolicy} bean and every
 * {@link ConversionPolicy} bean. A name is a function, served at {@code /<name>}, so it is unique across both kinds.
 */
@ApplicationScoped
public class PolicyDirectory {

    private final Map<String, AdmissionPolicy> byName = new TreeMap<>();
    private final Map<String, ConversionPolicy> conversionsByName = new TreeMap<>();

    PolicyDirectory() {
        // for CDI proxies
    }

    @Inject
    public PolicyDirectory(Instance<AdmissionPolicy> policies, Instance<ConversionPolicy> conversions) {
        Map<String, Object> all = new TreeMap<>();
        for (AdmissionPolicy policy : policies) {
            byName.put(register(all, policy.name(), policy), policy);
        }
        for (ConversionPolicy policy : conversions) {
            conversionsByName.put(register(all, policy.name(), policy), policy);
        }
    }

    private static String register(Map<String, Object> all, String name, Object policy) {
        if (!LabelSyntax.isDnsLabel(name)) {
            throw new IllegalStateException("policy " + policy.getClass().getName() + " has name '" + name
                    + "': a function name must be a DNS label (lowercase letters, digits, '-')");
        }
        if (name.equals(ReviewFunction.NAME)) {
            throw new IllegalStateException("policy " + policy.getClass().getName() + " has name '" + name
                    + "', the name of the function every review is routed to: choose another");
        }
        Object previous = all.put(name, policy);
        if (previous != null) {
            throw new IllegalStateException("two policies are named '" + name + "': "
                    + previous.getClass().getName() + " and " + policy.getClass().getName());
        }
        return name;
    }

    /** The admission policies. */
    public Collection<AdmissionPolicy> all() {
        return byName.values();
    }

    /** The CRD conversion policies. */
    public Collection<ConversionPolicy> conversions() {
        return conversionsByName.values();
    }

    /**
     * The admission policy serving an HTTP path: {@code /<name>} is the policy itself, a longer path is resolved by
     * the policy's {@link AdmissionPolicy#forSubPath(String)}.
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

    /** The conversion policy serving an HTTP path: exactly {@code /<name>} (a CRD has one conversion webhook). */
    public Optional<ConversionPolicy> resolveConversion(String path) {
        if (path == null || !path.startsWith("/")) {
            return Optional.empty();
        }
        return Optional.ofNullable(conversionsByName.get(path.substring(1)));
    }

    /** Whatever serves an HTTP path, admission or conversion. */
    Optional<ServedPolicy> serving(String path) {
        Optional<ServedPolicy> conversion = resolveConversion(path).map(ServedPolicy.Conversion::new);
        return conversion.isPresent() ? conversion : resolve(path).map(ServedPolicy.Admission::new);
    }
}
