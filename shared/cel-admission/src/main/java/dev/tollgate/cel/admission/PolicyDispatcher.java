package dev.tollgate.cel.admission;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;

/**
 * Finds, for one request, every (policy, binding, param) to evaluate, the way the API server's policy dispatcher
 * does: a policy without bindings is skipped; the policy's matchConstraints, then the binding's matchResources must
 * match; the binding's params are collected (none under parameterNotFoundAction Allow means skip). A namespace or
 * param that cannot be resolved is a configuration error, reported to the handler for the policy's failurePolicy.
 * Policies are visited in name order, and each policy's bindings in name order, so results are deterministic.
 *
 * <p>Only the policies that {@link PolicyIndex} finds for the request are looked at (those whose resourceRules, or
 * object kinds, can select its operation and resource, and whose namespaceSelector does not exclude its namespace):
 * with many policies a request pays for those that can match it, not for every policy. Any kind of policy can be
 * dispatched ({@link Policy}: a Gatekeeper Constraint is a policy whose only binding is itself); {@link PolicyHost}
 * builds one per kind.
 *
 * @param <P> the policy type
 * @param <B> the binding type
 */
public final class PolicyDispatcher<P, B> {

    /** What the dispatcher reports. */
    public interface Handler<P, B> {

        /**
         * The policy (binding null) or binding could not be applied: {@code failed to configure policy: ...} or
         * {@code failed to configure binding: ...}, as the API server words it.
         */
        void configError(P policy, B binding, String message);

        /** Evaluate the policy for this binding and param (null when the policy has no paramKind or no paramRef). */
        void evaluate(P policy, B binding, ObjectNode param);

        /**
         * The policy's match or paramKind failed: a {@code failed to configure policy: ...} configError, as the API
         * server's dispatcher has it. A kind whose upstream fails the whole request instead (Gatekeeper) rethrows.
         */
        default void policyError(P policy, RuntimeException error) {
            configError(policy, null, "failed to configure policy: " + error.getMessage());
        }
    }

    /** What the dispatcher needs of a policy of any kind: its name (bindings name it), selection and paramKind. */
    public record Policy(String name, Selection selection, Params.Kind paramKind) {

        /** A ValidatingAdmissionPolicy's or MutatingAdmissionPolicy's. */
        public static Policy of(PolicySpec spec) {
            return new Policy(spec.name(), spec.matchConstraints(), spec.paramKind());
        }
    }

    private record Entry<P, B>(P policy, Policy spec, List<B> bindings) {
    }

    private final List<Entry<P, B>> entries = new ArrayList<>();
    private final Function<B, BindingSpec> bindingSpec;
    private final NamespaceOptions.PerCluster namespaces;
    private final ParamSources params;
    private final PolicyIndex index;

    /**
     * Policies visited in name order.
     *
     * @param policySpec  the shared fields of a policy
     * @param bindingSpec the shared fields of a binding
     */
    public PolicyDispatcher(PolicyConfig<P, B> config, Function<P, PolicySpec> policySpec,
            Function<B, BindingSpec> bindingSpec) {
        this(config, p -> Policy.of(policySpec.apply(p)), null, bindingSpec, true);
    }

    /** @param indexed false to look at every policy for each request (the scan the index replaces, for tests) */
    PolicyDispatcher(PolicyConfig<P, B> config, Function<P, PolicySpec> policySpec,
            Function<B, BindingSpec> bindingSpec, boolean indexed) {
        this(config, p -> Policy.of(policySpec.apply(p)), null, bindingSpec, indexed);
    }

    /**
     * @param policy      what the dispatcher needs of a policy
     * @param order       the order a request visits the policies; null: by name
     * @param bindingSpec the shared fields of a binding
     */
    PolicyDispatcher(PolicyConfig<P, B> config, Function<P, Policy> policy, Comparator<P> order,
            Function<B, BindingSpec> bindingSpec, boolean indexed) {
        this.bindingSpec = bindingSpec;
        this.namespaces = config.namespacesPerCluster();
        this.params = config.paramsPerCluster();
        Map<String, List<B>> byPolicy = new LinkedHashMap<>();
        for (B b : config.bindings()) {
            byPolicy.computeIfAbsent(bindingSpec.apply(b).policyName(), k -> new ArrayList<>()).add(b);
        }
        List<P> sorted = new ArrayList<>(config.policies());
        sorted.sort(order != null ? order : Comparator.comparing(p -> policy.apply(p).name()));
        for (P p : sorted) {
            Policy spec = policy.apply(p);
            List<B> bs = new ArrayList<>(byPolicy.getOrDefault(spec.name(), List.of()));
            bs.sort(Comparator.comparing(b -> bindingSpec.apply(b).name()));
            if (!bs.isEmpty()) {
                entries.add(new Entry<>(p, spec, List.copyOf(bs)));
            }
        }
        this.index = indexed ? new PolicyIndex(entries.stream().map(e -> e.spec().selection()).toList()) : null;
    }

    /** The policies the index finds for the request, in the order they are visited (for tests). */
    List<P> candidates(String cluster, AdmissionRequest request) {
        List<P> out = new ArrayList<>();
        BitSet found = candidateSet(namespaces.of(cluster), request);
        found.stream().forEach(i -> out.add(entries.get(i).policy()));
        return out;
    }

    private BitSet candidateSet(Namespaces namespaces, AdmissionRequest request) {
        if (index != null) {
            return index.candidates(request, namespaces);
        }
        BitSet all = new BitSet();
        all.set(0, entries.size());
        return all;
    }

    /** The namespaces of the default cluster's reviews. */
    public Namespaces namespaces() {
        return namespaces.of(ClusterContexts.DEFAULT);
    }

    /** The namespaces of this cluster's reviews. */
    public Namespaces namespaces(String cluster) {
        return namespaces.of(cluster);
    }

    /**
     * The namespaces of this request: its cluster's, after those a simulator in this process gave it
     * ({@link SimulatedNamespaces}).
     */
    public Namespaces namespaces(AdmissionRequest request) {
        return SimulatedNamespaces.forReview(request.uid(), namespaces.of(request.cluster()));
    }

    /** {@link #dispatch(String, AdmissionRequest, Handler)} for the cluster that sent the request. */
    public void dispatch(AdmissionRequest request, Handler<P, B> handler) {
        dispatch(request.cluster(), request, handler);
    }

    /**
     * Reports every evaluation (and configuration error) for the request to the handler, in order; namespaces and
     * params come from {@code cluster}, the cluster that sent the review.
     */
    public void dispatch(String cluster, AdmissionRequest request, Handler<P, B> handler) {
        Namespaces namespaces = SimulatedNamespaces.forReview(request.uid(), this.namespaces.of(cluster));
        ParamSource params = this.params.of(cluster);
        BitSet candidates = candidateSet(namespaces, request);
        for (int i = candidates.nextSetBit(0); i >= 0; i = candidates.nextSetBit(i + 1)) {
            Entry<P, B> e = entries.get(i);
            try {
                if (!e.spec().selection().matches(request, namespaces)) {
                    continue;
                }
                // A paramKind whose resource cannot be found fails the policy, not a binding, as upstream's
                // hook.ConfigurationError (k8s.io/apiserver pkg/admission/plugin/policy/generic/policy_dispatcher.go).
                if (e.spec().paramKind() != null) {
                    params.checkKind(e.spec().paramKind());
                }
            } catch (RuntimeException ex) {
                handler.policyError(e.policy(), ex);
                continue;
            }
            for (B b : e.bindings()) {
                BindingSpec binding = bindingSpec.apply(b);
                List<ObjectNode> found;
                try {
                    if (!binding.matchResources().matches(request, namespaces)) {
                        continue;
                    }
                    found = params.collect(e.spec().paramKind(), binding.paramRef(), request);
                } catch (RuntimeException ex) {
                    handler.configError(e.policy(), b, "failed to configure binding: " + ex.getMessage());
                    continue;
                }
                for (ObjectNode param : found) {
                    handler.evaluate(e.policy(), b, param);
                }
            }
        }
    }
}
