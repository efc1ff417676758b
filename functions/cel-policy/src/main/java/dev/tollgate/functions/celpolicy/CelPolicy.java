package dev.tollgate.functions.celpolicy;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.ValidatingPolicy;
import dev.tollgate.admission.Verdict;
import dev.tollgate.cel.Authorizer;
import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.NamespaceOptions;
import dev.tollgate.cel.admission.PolicyTypeChecker;
import dev.tollgate.cel.admission.RegistrationCoverage;

/**
 * Serves ValidatingAdmissionPolicies from configuration files at {@code /cel-policy}. Everything is read, validated,
 * compiled and type checked at startup: an invalid document or an expression the API server would refuse stops the
 * function; a type-checking warning is logged ({@link #load}).
 */
@ApplicationScoped
public class CelPolicy implements ValidatingPolicy {

    private static final Logger LOG = Logger.getLogger(CelPolicy.class);

    private final ValidatingPolicies policies;

    @Inject
    public CelPolicy(
            @ConfigProperty(name = "tollgate.cel-policy.config") List<String> config,
            @ConfigProperty(name = "tollgate.cel-policy.authorizer", defaultValue = "none") String authorizer,
            Config all) {
        this(load(config, authorizer, key -> all.getOptionalValue(key, String.class)));
        LOG.infof("cel-policy: %s (configuration %s)", policies.summary(), config);
        policies.warnings().forEach(w -> LOG.warn("cel-policy: " + w));
        // Without a packaged webhook.yaml (e.g. embedded in a tool) there is no registration to check against.
        var registration = RegistrationCoverage.packagedRules("/cel-policy");
        if (!registration.isEmpty()) {
            policies.uncoveredBy(registration).forEach(w -> LOG.warn("cel-policy: " + w));
        }
    }

    public CelPolicy(ValidatingPolicies policies) {
        this.policies = policies;
    }

    /**
     * Reads, validates and compiles the configuration, then type checks every policy as the API server does when it
     * is created ({@link PolicyTypeChecker#checkAtStartup}: against the built-in kinds' schemas and the
     * CustomResourceDefinitions among the files). A policy the API server would refuse stops the function with one
     * line naming the file, the policy and the field in the API server's words; a type-checking warning (a field
     * the matched kind does not have, an operator on the wrong types) is logged once, and the policy is served.
     */
    static ValidatingPolicies load(List<String> config, String authorizer,
            Function<String, Optional<String>> settings) {
        KubeCel cel = environment(authorizer);
        List<ConfigFiles.Document> documents = ConfigFiles.read(config.stream().map(String::strip)
                .filter(s -> !s.isEmpty()).map(Path::of).toList());
        // tollgate.cel-policy.namespaces, unknown-namespace, namespace-cache-ttl, namespace-cache-size,
        // namespace-lookup-timeout: see NamespaceOptions and application.properties.
        ValidatingPolicies loaded = ValidatingPolicies.load(documents, cel,
                NamespaceOptions.read("tollgate.cel-policy", settings));
        typeCheck(cel, documents, loaded).forEach(w -> LOG.warn("cel-policy: type checking: " + w));
        return loaded;
    }

    /**
     * The type-checking warnings of the configuration, each on one line.
     *
     * @throws IllegalArgumentException (one line) for an expression the API server would refuse, including one that
     *                                  only this function's own compilation catches
     */
    static List<String> typeCheck(KubeCel cel, List<ConfigFiles.Document> documents, ValidatingPolicies loaded) {
        return PolicyTypeChecker.checkFunctionConfiguration("cel-policy", cel, documents, loaded.compileErrors());
    }

    /**
     * The CEL environment: the API server's, with {@code authorizer} checks answered by a static decision, since a
     * function cannot ask the cluster ({@code none}: every check is an evaluation error).
     */
    public static KubeCel environment(String authorizer) {
        Authorizer a = switch (authorizer.strip()) {
            case "none" -> Authorizer.none("set tollgate.cel-policy.authorizer to allow or deny to answer them with a"
                    + " static decision");
            case "allow" -> Authorizer.allowAll();
            case "deny" -> Authorizer.denyAll("static decision: deny (tollgate.cel-policy.authorizer=deny)");
            default -> throw new IllegalArgumentException("tollgate.cel-policy.authorizer must be none, allow or "
                    + "deny, got '" + authorizer + "'");
        };
        return KubeCel.builder().authorizer(a).build();
    }

    public ValidatingPolicies policies() {
        return policies;
    }

    @Override
    public Verdict validate(AdmissionRequest request) {
        return policies.validate(request);
    }
}
