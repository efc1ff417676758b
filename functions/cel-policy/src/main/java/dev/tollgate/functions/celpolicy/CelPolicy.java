package dev.tollgate.functions.celpolicy;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.ValidatingPolicy;
import dev.tollgate.admission.Verdict;
import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.NamespaceOptions;
import dev.tollgate.cel.admission.PolicyHost;
import dev.tollgate.cel.admission.PolicyTypeChecker;
import dev.tollgate.gatekeeper.GatekeeperPolicies;

/**
 * Serves ValidatingAdmissionPolicies, and Gatekeeper's ConstraintTemplates and Constraints, from configuration files
 * at {@code /cel-policy}. Everything is read, validated, compiled and type checked at startup: an invalid document, an
 * expression the API server would refuse, or a template nothing here can run stops the function; a type-checking
 * warning is logged ({@link #load}). A request is judged by both kinds: a denial of either denies (the
 * ValidatingAdmissionPolicies' first), and the warnings and audit annotations of both are answered.
 */
@ApplicationScoped
public class CelPolicy implements ValidatingPolicy {

    private static final Logger LOG = Logger.getLogger(CelPolicy.class);
    /** This function's name in its settings ({@code tollgate.cel-policy.*}) and messages. */
    static final String FUNCTION = "cel-policy";

    private final ValidatingPolicies policies;
    private final GatekeeperPolicies gatekeeper;

    /** What a configuration holds: its ValidatingAdmissionPolicies and its Gatekeeper templates and constraints. */
    public record Loaded(ValidatingPolicies policies, GatekeeperPolicies gatekeeper) {
    }

    @Inject
    public CelPolicy(
            @ConfigProperty(name = "tollgate.cel-policy.config") List<String> config,
            @ConfigProperty(name = "tollgate.cel-policy.authorizer", defaultValue = "none") String authorizer,
            Config all) {
        this(load(config, authorizer, key -> all.getOptionalValue(key, String.class)));
        LOG.infof("cel-policy: %s%s (configuration %s)", policies.summary(),
                gatekeeper.isEmpty() ? "" : "; Gatekeeper: " + gatekeeper.summary(), config);
        policies.warnings().forEach(w -> LOG.warn("cel-policy: " + w));
        gatekeeper.warnings().forEach(w -> LOG.warn("cel-policy: " + w));
        policies.uncoveredByPackagedRules("/cel-policy").forEach(w -> LOG.warn("cel-policy: " + w));
    }

    public CelPolicy(ValidatingPolicies policies) {
        this(new Loaded(policies, null));
    }

    public CelPolicy(Loaded loaded) {
        this.policies = loaded.policies();
        this.gatekeeper = loaded.gatekeeper() != null ? loaded.gatekeeper() : GatekeeperPolicies.load(List.of(),
                KubeCel.standard(), NamespaceOptions.config(dev.tollgate.cel.admission.Namespaces.Unknown.EMPTY));
    }

    /**
     * Reads, validates and compiles the configuration, then type checks every policy as the API server does when it
     * is created ({@link PolicyTypeChecker#checkAtStartup}: against the built-in kinds' schemas and the
     * CustomResourceDefinitions among the files). A policy the API server would refuse stops the function with one
     * line naming the file, the policy and the field in the API server's words; a type-checking warning (a field
     * the matched kind does not have, an operator on the wrong types) is logged once, and the policy is served.
     */
    static Loaded load(List<String> config, String authorizer, Function<String, Optional<String>> settings) {
        return load(config, authorizer, settings, w -> LOG.warn("cel-policy: type checking: " + w));
    }

    /** {@link #load(List, String, Function)}, each type-checking warning given to {@code warnings}. */
    static Loaded load(List<String> config, String authorizer, Function<String, Optional<String>> settings,
            Consumer<String> warnings) {
        KubeCel cel = environment(authorizer);
        List<ConfigFiles.Document> documents = PolicyHost.readConfiguration(FUNCTION, config);
        // tollgate.cel-policy.namespaces, unknown-namespace, namespace-cache-ttl, namespace-cache-size,
        // namespace-lookup-timeout: see NamespaceOptions and application.properties.
        Loaded loaded = fromDocuments(documents, cel, NamespaceOptions.read("tollgate.cel-policy", settings));
        List<ConfigFiles.Document> vap = documents.stream().filter(d -> !GatekeeperPolicies.isGatekeeper(d)).toList();
        typeCheck(cel, vap, loaded.policies()).forEach(warnings);
        if (!loaded.gatekeeper().compileErrors().isEmpty()) {
            // Gatekeeper refuses a template whose CEL does not compile (its status says why): so does this function.
            throw new IllegalArgumentException("cel-policy: Gatekeeper would refuse these templates: "
                    + String.join("; ", loaded.gatekeeper().compileErrors()));
        }
        return loaded;
    }

    /**
     * The ValidatingAdmissionPolicies (with their bindings and params) and the Gatekeeper templates and constraints
     * among the documents; Namespaces serve both.
     *
     * @throws dev.tollgate.cel.admission.PolicyConfig.InvalidConfigException listing every problem of either kind
     */
    public static Loaded fromDocuments(List<ConfigFiles.Document> documents, KubeCel cel, NamespaceOptions namespaces) {
        List<ConfigFiles.Document> vap = documents.stream().filter(d -> !GatekeeperPolicies.isGatekeeper(d)).toList();
        return new Loaded(ValidatingPolicies.load(vap, cel, namespaces),
                GatekeeperPolicies.load(documents, cel, namespaces));
    }

    /**
     * The type-checking warnings of the configuration, each on one line.
     *
     * @throws IllegalArgumentException (one line) for an expression the API server would refuse, including one that
     *                                  only this function's own compilation catches
     */
    static List<String> typeCheck(KubeCel cel, List<ConfigFiles.Document> documents, ValidatingPolicies loaded) {
        return PolicyTypeChecker.checkFunctionConfiguration(FUNCTION, cel, documents, loaded.compileErrors());
    }

    /** The API server's CEL environment, {@code authorizer} checks answered by a static decision (none: errors). */
    public static KubeCel environment(String authorizer) {
        return PolicyHost.environment(FUNCTION, authorizer);
    }

    public ValidatingPolicies policies() {
        return policies;
    }

    public GatekeeperPolicies gatekeeper() {
        return gatekeeper;
    }

    @Override
    public Verdict validate(AdmissionRequest request) {
        Verdict vap = policies.validate(request);
        if (gatekeeper.isEmpty()) {
            return vap;
        }
        return combined(vap, gatekeeper.validate(request));
    }

    /** A denial of either (the first's when both deny), with the warnings and audit annotations of both. */
    static Verdict combined(Verdict first, Verdict second) {
        Verdict decided = !first.allowed() ? first : second;
        Verdict other = decided == first ? second : first;
        Verdict out = decided.withWarnings(other.warnings());
        for (var a : other.auditAnnotations().entrySet()) {
            if (!out.auditAnnotations().containsKey(a.getKey())) {
                out = out.withAuditAnnotation(a.getKey(), a.getValue());
            }
        }
        return out;
    }
}
