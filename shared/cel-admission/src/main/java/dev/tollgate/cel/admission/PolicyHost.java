package dev.tollgate.cel.admission;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.match.Rule;
import dev.tollgate.cel.Authorizer;
import dev.tollgate.cel.KubeCel;

/**
 * The one host of every kind of CEL policy a function serves (ValidatingAdmissionPolicies, MutatingAdmissionPolicies,
 * Gatekeeper's templates and Constraints): loads a kind's documents through its {@link PolicyKind}, keeps their
 * namespaces and params per cluster, and dispatches each request to the policies that select it (found through
 * {@link PolicyIndex}) with their bindings and params. The kind supplies how its documents compile and, per request,
 * the handler that runs a match; a kind's own class may extend the host with that (validate, mutate, review).
 * Thread-safe.
 *
 * @param <P> a compiled policy
 * @param <B> a binding
 */
public class PolicyHost<P, B> {

    private final PolicyConfig<P, B> config;
    private final PolicyKind.Compiled<P, B> compiled;
    private final PolicyDispatcher<P, B> dispatcher;
    private final PolicyKind<P, B> kind;

    /**
     * Reads, checks and compiles the kind's documents among {@code documents} (as {@link #load}), for a kind's own
     * host class that adds what a match runs.
     */
    protected PolicyHost(List<ConfigFiles.Document> documents, KubeCel cel, NamespaceOptions namespaces,
            PolicyKind<P, B> kind) {
        this(kind, kind.compile(documents, cel, namespaces));
    }

    private PolicyHost(PolicyKind<P, B> kind, PolicyKind.Compiled<P, B> compiled) {
        this.kind = kind;
        this.compiled = compiled;
        this.config = compiled.config();
        this.dispatcher = new PolicyDispatcher<>(config, kind::policy, kind.order(), kind::binding, true);
    }

    /**
     * Reads, checks and compiles the kind's documents among {@code documents}; namespaces and params come from where
     * {@code namespaces} says.
     *
     * @throws PolicyConfig.InvalidConfigException listing every problem
     */
    public static <P, B> PolicyHost<P, B> load(List<ConfigFiles.Document> documents, KubeCel cel,
            NamespaceOptions namespaces, PolicyKind<P, B> kind) {
        return new PolicyHost<>(kind, kind.compile(documents, cel, namespaces));
    }

    /** The documents of a function's configuration setting: files and directories, blank entries skipped. */
    public static List<ConfigFiles.Document> readConfiguration(List<String> config) {
        return ConfigFiles.read(config.stream().map(String::strip).filter(s -> !s.isEmpty()).map(Path::of).toList());
    }

    /**
     * What {@code function} serves: the documents baked into it when it was built ({@link BakedPolicies}), then
     * those of its configuration setting ({@link #readConfiguration(List)}).
     */
    public static List<ConfigFiles.Document> readConfiguration(String function, List<String> config) {
        List<ConfigFiles.Document> baked = BakedPolicies.documents(function);
        if (baked.isEmpty()) {
            return readConfiguration(config);
        }
        List<ConfigFiles.Document> all = new ArrayList<>(baked);
        all.addAll(readConfiguration(config));
        return all;
    }

    /**
     * The API server's CEL environment, with {@code authorizer} checks answered by a static decision, since a
     * function cannot ask the cluster ({@code none}: every check is an evaluation error).
     *
     * @param function the function whose {@code tollgate.<function>.authorizer} setting this is, for messages
     */
    public static KubeCel environment(String function, String authorizer) {
        String key = "tollgate." + function + ".authorizer";
        Authorizer a = switch (authorizer.strip()) {
            case "none" -> Authorizer.none("set " + key + " to allow or deny to answer them with a static decision");
            case "allow" -> Authorizer.allowAll();
            case "deny" -> Authorizer.denyAll("static decision: deny (" + key + "=deny)");
            default -> throw new IllegalArgumentException(key + " must be none, allow or deny, got '" + authorizer
                    + "'");
        };
        return KubeCel.builder().authorizer(a).build();
    }

    /** The compiled policies, in the order of the configuration. */
    public List<P> policies() {
        return config.policies();
    }

    public boolean isEmpty() {
        return config.policies().isEmpty() && config.bindings().isEmpty();
    }

    /** Expressions that failed to compile; the policies stay in force and fail per their failurePolicy. */
    public List<String> compileErrors() {
        return compiled.compileErrors();
    }

    /** Valid but suspicious configuration (e.g. a binding without policy, a policy without binding). */
    public List<String> warnings() {
        return config.warnings();
    }

    /** What was loaded, for the startup log. */
    public String summary() {
        return compiled.summary();
    }

    /** Policy rules the function's registration does not cover (they would never apply); empty when all are. */
    public List<String> uncoveredBy(List<Rule> registration) {
        List<String> out = new ArrayList<>();
        for (P p : config.policies()) {
            PolicyDispatcher.Policy policy = kind.policy(p);
            if (policy.selection() instanceof MatchResources constraints) {
                out.addAll(RegistrationCoverage.uncovered(policy.name(), constraints, registration));
            }
        }
        return out;
    }

    /**
     * Policy rules that the registration packaged with the function ({@code webhook.yaml} under {@code path}) does
     * not cover; empty when all are, or when nothing is packaged (e.g. embedded in a tool).
     */
    public List<String> uncoveredByPackagedRules(String path) {
        List<Rule> registration = RegistrationCoverage.packagedRules(path);
        return registration.isEmpty() ? List.of() : uncoveredBy(registration);
    }

    /** Reports every evaluation (and configuration error) for the request to the handler, in order. */
    public void dispatch(AdmissionRequest request, PolicyDispatcher.Handler<P, B> handler) {
        dispatcher.dispatch(request.cluster(), request, handler);
    }

    /** The namespaces of this request ({@link PolicyDispatcher#namespaces(AdmissionRequest)}). */
    public Namespaces namespaces(AdmissionRequest request) {
        return dispatcher.namespaces(request);
    }

    /** Where this cluster's reviews find objects of the configured param kinds. */
    public ParamSource params(String cluster) {
        return config.paramsPerCluster().of(cluster);
    }
}
