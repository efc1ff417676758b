package dev.tollgate.cel.admission;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * One function's configuration documents sorted out: its policy kind, its binding kind, Namespaces and params.
 * Anything else is an error, so a typo in a kind is never silently ignored.
 *
 * @param <P> the parsed policy type
 * @param <B> the parsed binding type
 */
public final class PolicyConfig<P, B> {

    /** The configuration cannot be used; the message lists every problem, one per line. */
    public static final class InvalidConfigException extends IllegalArgumentException {
        public InvalidConfigException(List<String> problems) {
            super("invalid policy configuration:\n  - " + String.join("\n  - ", problems));
        }
    }

    /** What a function serves: the kinds (and accepted apiVersions) and how to parse them. */
    public record Kinds<P, B>(Set<String> apiVersions, String policyKind, String bindingKind,
            BiFunction<ConfigFiles.Document, List<String>, P> parsePolicy,
            BiFunction<ConfigFiles.Document, List<String>, B> parseBinding,
            Function<P, PolicySpec> policySpec, Function<B, BindingSpec> bindingSpec) {
    }

    private final List<P> policies;
    private final List<B> bindings;
    private final NamespaceOptions.PerCluster namespaces;
    private final Params params;
    private final ParamSources paramSources;
    private final List<String> warnings;

    private PolicyConfig(List<P> policies, List<B> bindings, NamespaceOptions.PerCluster namespaces, Params params,
            ParamSources paramSources, List<String> warnings) {
        this.policies = policies;
        this.bindings = bindings;
        this.namespaces = namespaces;
        this.params = params;
        this.paramSources = paramSources;
        this.warnings = warnings;
    }

    /**
     * Sorts and parses the documents.
     *
     * @throws InvalidConfigException listing every invalid or unrecognised document
     */
    public static <P, B> PolicyConfig<P, B> load(List<ConfigFiles.Document> documents, Kinds<P, B> kinds,
            Namespaces.Unknown unknownNamespaces) {
        return load(documents, kinds, NamespaceOptions.config(unknownNamespaces));
    }

    /**
     * Sorts and parses the documents; namespaces come from where {@code namespaceOptions} says.
     *
     * @throws InvalidConfigException listing every invalid or unrecognised document
     */
    public static <P, B> PolicyConfig<P, B> load(List<ConfigFiles.Document> documents, Kinds<P, B> kinds,
            NamespaceOptions namespaceOptions) {
        List<String> errors = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        List<P> policies = new ArrayList<>();
        List<B> bindings = new ArrayList<>();
        List<ConfigFiles.Document> others = new ArrayList<>();
        Set<String> policyNames = new java.util.HashSet<>();
        Set<String> bindingNames = new java.util.HashSet<>();
        for (ConfigFiles.Document d : documents) {
            boolean ours = kinds.apiVersions().contains(d.apiVersion());
            if (ours && d.kind().equals(kinds.policyKind())) {
                P p = kinds.parsePolicy().apply(d, errors);
                if (p != null) {
                    if (!policyNames.add(kinds.policySpec().apply(p).name())) {
                        errors.add(d.describe() + ": a " + kinds.policyKind() + " of this name is already defined");
                    }
                    policies.add(p);
                }
            } else if (ours && d.kind().equals(kinds.bindingKind())) {
                B b = kinds.parseBinding().apply(d, errors);
                if (b != null) {
                    if (!bindingNames.add(kinds.bindingSpec().apply(b).name())) {
                        errors.add(d.describe() + ": a " + kinds.bindingKind() + " of this name is already defined");
                    }
                    bindings.add(b);
                }
            } else {
                others.add(d);
            }
        }
        Set<Params.Kind> paramKinds = new java.util.LinkedHashSet<>();
        policies.forEach(p -> {
            Params.Kind k = kinds.policySpec().apply(p).paramKind();
            if (k != null) {
                paramKinds.add(k);
            }
        });
        PolicyConfig<P, B> sources = of(List.of(), List.of(), List.of(), others, paramKinds, namespaceOptions, errors);
        for (ConfigFiles.Document d : others) {
            boolean isParam = paramKinds.stream().anyMatch(k -> k.apiVersion().equals(d.apiVersion())
                    && k.kind().equals(d.kind()));
            if (!isParam && !Namespaces.isNamespace(d.object())) {
                errors.add(d.describe() + ": apiVersion " + d.apiVersion() + " kind " + d.kind() + " is not used: "
                        + "expected a " + kinds.policyKind() + " or " + kinds.bindingKind() + " (" + kinds.apiVersions()
                        + "), a v1 Namespace, or a param of a policy's paramKind");
            }
        }
        for (B b : bindings) {
            BindingSpec spec = kinds.bindingSpec().apply(b);
            if (!policyNames.contains(spec.policyName())) {
                warnings.add(kinds.bindingKind() + " '" + spec.name() + "' refers to " + kinds.policyKind() + " '"
                        + spec.policyName() + "', which is not configured: the binding has no effect");
            }
        }
        for (P p : policies) {
            String name = kinds.policySpec().apply(p).name();
            if (bindings.stream().noneMatch(b -> kinds.bindingSpec().apply(b).policyName().equals(name))) {
                warnings.add(kinds.policyKind() + " '" + name + "' has no binding: it is not enforced");
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidConfigException(errors);
        }
        return new PolicyConfig<>(List.copyOf(policies), List.copyOf(bindings), sources.namespaces, sources.params,
                sources.paramSources, List.copyOf(warnings));
    }

    /**
     * The configuration of a kind that sorts out its own documents (Gatekeeper's templates and constraints): its
     * policies and bindings, with the namespaces ({@code v1 Namespace}s among {@code documents}) and params (the
     * objects of {@code paramKinds} among them) chosen as {@link #load} chooses them.
     *
     * @param errors where a problem with the namespaces or params is added (the result is then not usable)
     */
    public static <P, B> PolicyConfig<P, B> of(List<P> policies, List<B> bindings, List<String> warnings,
            List<ConfigFiles.Document> documents, Set<Params.Kind> paramKinds, NamespaceOptions namespaceOptions,
            List<String> errors) {
        NamespaceOptions.PerCluster namespaces = null;
        try {
            namespaces = namespaceOptions.choose(Namespaces.from(documents, namespaceOptions.unknown()));
        } catch (IllegalArgumentException e) {
            errors.add(e.getMessage());
        }
        Params params = null;
        ParamSources paramSources = null;
        try {
            params = Params.from(documents, paramKinds);
            paramSources = namespaceOptions.chooseParams(params);
        } catch (IllegalArgumentException e) {
            errors.add(e.getMessage());
        }
        return new PolicyConfig<>(List.copyOf(policies), List.copyOf(bindings), namespaces, params, paramSources,
                List.copyOf(warnings));
    }

    /** The same configuration with the policies replaced (e.g. by their compiled form), in the same order. */
    public <Q> PolicyConfig<Q, B> withPolicies(List<Q> replaced) {
        return new PolicyConfig<>(List.copyOf(replaced), bindings, namespaces, params, paramSources, warnings);
    }

    public List<P> policies() {
        return policies;
    }

    public List<B> bindings() {
        return bindings;
    }

    /** The namespaces of the default cluster's reviews ({@link ClusterContexts#DEFAULT}). */
    public Namespaces namespaces() {
        return namespaces.of(ClusterContexts.DEFAULT);
    }

    /** The namespaces of each cluster's reviews. */
    public NamespaceOptions.PerCluster namespacesPerCluster() {
        return namespaces;
    }

    /** The params in the configuration files. */
    public Params params() {
        return params;
    }

    /** The params of each cluster's reviews: the configuration files', or each cluster's own from its API. */
    public ParamSources paramsPerCluster() {
        return paramSources;
    }

    /**
     * One line for the startup log, e.g. "3 ValidatingAdmissionPolicies, 3 bindings, 1 params; namespaces: 2 from the
     * configuration files, others assumed to exist with only the kubernetes.io/metadata.name label".
     */
    public String summary(String policiesNoun) {
        return policies().size() + " " + policiesNoun + ", " + bindings().size() + " bindings, "
                + params().size() + " params; namespaces: " + namespaces.describe()
                + (paramSources.readsClusters() ? "; params: " + paramSources.describe() : "");
    }

    /** Things that are valid but probably not intended (a binding to a missing policy, a policy with no binding). */
    public List<String> warnings() {
        return warnings;
    }
}
