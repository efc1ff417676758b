package dev.tollgate.functions.celpolicy;

import java.nio.file.Path;
import java.util.List;

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
import dev.tollgate.cel.admission.RegistrationCoverage;

/**
 * Serves ValidatingAdmissionPolicies from configuration files at {@code /cel-policy}. Everything is read, validated
 * and compiled at startup: an invalid document stops the function (the API server would refuse it too); an
 * expression that does not compile is reported and the policy fails per its failurePolicy when it applies.
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
        // tollgate.cel-policy.namespaces, unknown-namespace, namespace-cache-ttl, namespace-cache-size,
        // namespace-lookup-timeout: see NamespaceOptions and application.properties.
        this(ValidatingPolicies.load(ConfigFiles.read(config.stream().map(String::strip).filter(s -> !s.isEmpty())
                .map(Path::of).toList()), environment(authorizer),
                NamespaceOptions.read("tollgate.cel-policy", key -> all.getOptionalValue(key, String.class))));
        LOG.infof("cel-policy: %s (configuration %s)", policies.summary(), config);
        policies.warnings().forEach(w -> LOG.warn("cel-policy: " + w));
        policies.compileErrors().forEach(e -> LOG.error("cel-policy: " + e));
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
