package dev.tollgate.functions.celmutate;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.MutatingPolicy;
import dev.tollgate.admission.Verdict;
import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.NamespaceOptions;
import dev.tollgate.cel.admission.PolicyHost;
import dev.tollgate.cel.admission.PolicyTypeChecker;

/**
 * Serves MutatingAdmissionPolicies from configuration files at {@code /cel-mutate}: JSONPatch and
 * ApplyConfiguration mutations written in CEL. Read, validated, compiled and type checked at startup, like cel-policy
 * ({@link #load}).
 */
@ApplicationScoped
public class CelMutate implements MutatingPolicy {

    private static final Logger LOG = Logger.getLogger(CelMutate.class);
    /** This function's name in its settings ({@code tollgate.cel-mutate.*}) and messages. */
    static final String FUNCTION = "cel-mutate";

    private final MutatingPolicies policies;

    @Inject
    public CelMutate(
            @ConfigProperty(name = "tollgate.cel-mutate.config") List<String> config,
            @ConfigProperty(name = "tollgate.cel-mutate.authorizer", defaultValue = "none") String authorizer,
            Config all) {
        this(load(config, authorizer, key -> all.getOptionalValue(key, String.class)));
        LOG.infof("cel-mutate: %s (configuration %s)", policies.summary(), config);
        policies.warnings().forEach(w -> LOG.warn("cel-mutate: " + w));
        policies.uncoveredByPackagedRules("/cel-mutate").forEach(w -> LOG.warn("cel-mutate: " + w));
    }

    public CelMutate(MutatingPolicies policies) {
        this.policies = policies;
    }

    /**
     * Reads, validates and compiles the configuration, then type checks every policy as the API server does when it
     * is created ({@link PolicyTypeChecker#checkAtStartup}: against the built-in kinds' schemas and the
     * CustomResourceDefinitions among the files). A policy the API server would refuse stops the function with one
     * line naming the file, the policy and the field in the API server's words; a type-checking warning (a field
     * the matched kind does not have, an operator on the wrong types) is logged once, and the policy is served.
     */
    static MutatingPolicies load(List<String> config, String authorizer,
            Function<String, Optional<String>> settings) {
        return load(config, authorizer, settings, w -> LOG.warn("cel-mutate: type checking: " + w));
    }

    /** {@link #load(List, String, Function)}, each type-checking warning given to {@code warnings}. */
    static MutatingPolicies load(List<String> config, String authorizer, Function<String, Optional<String>> settings,
            Consumer<String> warnings) {
        KubeCel cel = environment(authorizer);
        List<ConfigFiles.Document> documents = PolicyHost.readConfiguration(FUNCTION, config);
        // tollgate.cel-mutate.namespaces, unknown-namespace, namespace-cache-ttl, namespace-cache-size,
        // namespace-lookup-timeout: see NamespaceOptions and application.properties.
        MutatingPolicies loaded = MutatingPolicies.load(documents, cel,
                NamespaceOptions.read("tollgate.cel-mutate", settings));
        typeCheck(cel, documents, loaded).forEach(warnings);
        return loaded;
    }

    /**
     * The type-checking warnings of the configuration, each on one line.
     *
     * @throws IllegalArgumentException (one line) for an expression the API server would refuse, including one that
     *                                  only this function's own compilation catches
     */
    static List<String> typeCheck(KubeCel cel, List<ConfigFiles.Document> documents, MutatingPolicies loaded) {
        return PolicyTypeChecker.checkFunctionConfiguration(FUNCTION, cel, documents, loaded.compileErrors());
    }

    /** The API server's CEL environment, {@code authorizer} checks answered by a static decision (none: errors). */
    public static KubeCel environment(String authorizer) {
        return PolicyHost.environment(FUNCTION, authorizer);
    }

    public MutatingPolicies policies() {
        return policies;
    }

    @Override
    public Verdict mutate(AdmissionRequest request, ObjectNode object) {
        return policies.mutate(request, object);
    }
}
