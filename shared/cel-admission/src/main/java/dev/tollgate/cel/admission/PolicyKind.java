package dev.tollgate.cel.admission;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

import dev.tollgate.cel.KubeCel;

/**
 * One kind of CEL policy as a {@link PolicyHost} serves it: only what is the kind's own, how its documents compile
 * into policies and what the dispatcher needs to know of them. What a matching policy then runs (validate into a
 * verdict, mutate into a patch, a Constraint into Gatekeeper's verdict) is the kind's handler, given to
 * {@link PolicyHost#dispatch}.
 *
 * @param <P> a compiled policy
 * @param <B> a binding of a policy to requests and params (a Gatekeeper Constraint is its own binding)
 */
public interface PolicyKind<P, B> {

    /**
     * What the kind read: the configuration with its compiled policies, the expressions that did not compile (each
     * naming its policy; the policies stay in force and fail per their failurePolicy), and the startup log's line.
     */
    record Compiled<P, B>(PolicyConfig<P, B> config, List<String> compileErrors, String summary) {

        public Compiled {
            compileErrors = List.copyOf(compileErrors);
        }
    }

    /**
     * Reads the kind's documents among {@code documents}, checks and compiles them; namespaces and params are chosen
     * by {@code namespaces} ({@link PolicyConfig#load}, or {@link PolicyConfig#of} for a kind that sorts out its
     * own documents).
     *
     * @throws PolicyConfig.InvalidConfigException listing every problem
     */
    Compiled<P, B> compile(List<ConfigFiles.Document> documents, KubeCel cel, NamespaceOptions namespaces);

    /** What the dispatcher needs of a policy: its name, what it selects (indexed) and its paramKind. */
    PolicyDispatcher.Policy policy(P policy);

    /** The binding's shared fields: which policy it binds, its paramRef and matchResources. */
    BindingSpec binding(B binding);

    /** The order a request visits the policies; null: by name (the API server's, deterministic). */
    default Comparator<P> order() {
        return null;
    }

    /**
     * A kind shaped as the admissionregistration ones (a policy kind and its binding kind, read by
     * {@link PolicyConfig#load}): each definition compiled, its compile errors prefixed {@code <Kind> '<name>': },
     * dispatched by its {@link PolicySpec} in name order.
     *
     * @param noun the policies in the startup log's line, e.g. {@code ValidatingAdmissionPolicies}
     */
    static <D, P, B> PolicyKind<P, B> of(PolicyConfig.Kinds<D, B> kinds, BiFunction<KubeCel, D, P> compile,
            Function<P, List<String>> compileErrors, Function<P, PolicySpec> spec, String noun) {
        return new PolicyKind<>() {
            @Override
            public Compiled<P, B> compile(List<ConfigFiles.Document> documents, KubeCel cel,
                    NamespaceOptions namespaces) {
                PolicyConfig<D, B> parsed = PolicyConfig.load(documents, kinds, namespaces);
                List<P> compiled = new ArrayList<>();
                List<String> errors = new ArrayList<>();
                for (D d : parsed.policies()) {
                    P p = compile.apply(cel, d);
                    String name = kinds.policySpec().apply(d).name();
                    compileErrors.apply(p).forEach(e -> errors.add(kinds.policyKind() + " '" + name + "': " + e));
                    compiled.add(p);
                }
                return new Compiled<>(parsed.withPolicies(compiled), errors, parsed.summary(noun));
            }

            @Override
            public PolicyDispatcher.Policy policy(P policy) {
                return PolicyDispatcher.Policy.of(spec.apply(policy));
            }

            @Override
            public BindingSpec binding(B binding) {
                return kinds.bindingSpec().apply(binding);
            }
        };
    }
}
