package dev.tollgate.runtime;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import dev.tollgate.admission.AdmissionPolicy;
import dev.tollgate.admission.conversion.ConversionPolicy;
import dev.tollgate.functionnames.FunctionNames;
import io.quarkus.arc.ClientProxy;

/**
 * The policies this application serves, by function name: every {@link AdmissionPolicy} bean and every
 * {@link ConversionPolicy} bean, each named by the webhook.yaml packaged beside it ({@link FunctionNames}, paired at
 * build time). A name is a function, served at {@code /<name>}, so it is unique across both kinds.
 */
@ApplicationScoped
public class PolicyDirectory {

    private final Map<String, AdmissionPolicy> admission = new TreeMap<>();
    private final Map<String, ConversionPolicy> conversion = new TreeMap<>();

    PolicyDirectory() {
        // for CDI proxies
    }

    @Inject
    public PolicyDirectory(Instance<AdmissionPolicy> policies, Instance<ConversionPolicy> conversions,
            FunctionNames names) {
        Map<String, Object> all = new TreeMap<>();
        for (Instance.Handle<AdmissionPolicy> policy : policies.handles()) {
            admission.put(register(all, names, policy), created(policy.get()));
        }
        for (Instance.Handle<ConversionPolicy> policy : conversions.handles()) {
            conversion.put(register(all, names, policy), created(policy.get()));
        }
    }

    /**
     * The policy, its instance created now (ArC's {@link ClientProxy#unwrap}, Quarkus CDI reference, "Client
     * proxies"): a policy whose configuration is wrong stops the function at startup, before it serves anything,
     * rather than failing its first review.
     */
    private static <T> T created(T policy) {
        ClientProxy.unwrap(policy);
        return policy;
    }

    private static String register(Map<String, Object> all, FunctionNames names, Instance.Handle<?> policy) {
        Class<?> type = policy.getBean().getBeanClass();
        String name = names.of(type).orElseThrow(() -> new IllegalStateException("policy " + type.getName()
                + " has no function name: no webhook.yaml was packaged beside it (a policy produced by a producer"
                + " method is not paired; declare it as a class with a CDI scope)"));
        if (name.equals(ReviewFunction.NAME)) {
            throw new IllegalStateException("policy " + type.getName() + " has name '" + name
                    + "', the name of the function every review is routed to: choose another in webhook.yaml");
        }
        Object previous = all.put(name, type);
        if (previous != null) {
            throw new IllegalStateException("two policies are named '" + name + "': " + previous + " and " + type);
        }
        return name;
    }

    /** The admission policies, by function name. */
    public Map<String, AdmissionPolicy> admission() {
        return admission;
    }

    /** The CRD conversion policies, by function name. */
    public Map<String, ConversionPolicy> conversions() {
        return conversion;
    }

    /**
     * The admission policy serving an HTTP path: {@code /<name>} is the policy itself, a longer path is resolved by
     * the policy's {@link AdmissionPolicy#forSubPath(String)}.
     */
    public Optional<? extends AdmissionPolicy> resolve(String path) {
        return resolveAdmission(path).map(ServedPolicy.Admission::policy);
    }

    /** The conversion policy serving an HTTP path: exactly {@code /<name>} (a CRD has one conversion webhook). */
    public Optional<ConversionPolicy> resolveConversion(String path) {
        if (path == null || !path.startsWith("/")) {
            return Optional.empty();
        }
        return Optional.ofNullable(conversion.get(path.substring(1)));
    }

    /** Whatever serves an HTTP path, admission or conversion, with its function name. */
    Optional<ServedPolicy> serving(String path) {
        Optional<ServedPolicy> converting = resolveConversion(path)
                .map(policy -> new ServedPolicy.Conversion(path.substring(1), policy));
        return converting.isPresent() ? converting : resolveAdmission(path).map(ServedPolicy.class::cast);
    }

    private Optional<ServedPolicy.Admission> resolveAdmission(String path) {
        if (path == null || !path.startsWith("/")) {
            return Optional.empty();
        }
        String rest = path.substring(1);
        int slash = rest.indexOf('/');
        String name = slash < 0 ? rest : rest.substring(0, slash);
        AdmissionPolicy policy = admission.get(name);
        if (policy == null) {
            return Optional.empty();
        }
        if (slash < 0) {
            return Optional.of(new ServedPolicy.Admission(name, policy));
        }
        String sub = rest.substring(slash + 1);
        return sub.isEmpty() ? Optional.empty()
                : policy.forSubPath(sub).map(served -> new ServedPolicy.Admission(name, served));
    }
}
