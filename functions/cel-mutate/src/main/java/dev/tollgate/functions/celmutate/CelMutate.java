package dev.tollgate.functions.celmutate;

import java.nio.file.Path;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.MutatingPolicy;
import dev.tollgate.admission.Verdict;
import dev.tollgate.cel.Authorizer;
import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.NamespaceOptions;
import dev.tollgate.cel.admission.RegistrationCoverage;

/**
 * Serves MutatingAdmissionPolicies from configuration files at {@code /cel-mutate}: JSONPatch and
 * ApplyConfiguration mutations written in CEL. Read, validated and compiled at startup, like cel-policy.
 */
@ApplicationScoped
public class CelMutate implements MutatingPolicy {

    private static final Logger LOG = Logger.getLogger(CelMutate.class);

    private final MutatingPolicies policies;

    @Inject
    public CelMutate(
            @ConfigProperty(name = "tollgate.cel-mutate.config") List<String> config,
            @ConfigProperty(name = "tollgate.cel-mutate.authorizer", defaultValue = "none") String authorizer,
            Config all) {
        // tollgate.cel-mutate.namespaces, unknown-namespace, namespace-cache-ttl, namespace-cache-size,
        // namespace-lookup-timeout: see NamespaceOptions and application.properties.
        this(MutatingPolicies.load(ConfigFiles.read(config.stream().map(String::strip).filter(s -> !s.isEmpty())
                .map(Path::of).toList()), environment(authorizer),
                NamespaceOptions.read("tollgate.cel-mutate", key -> all.getOptionalValue(key, String.class))));
        LOG.infof("cel-mutate: %s (configuration %s)", policies.summary(), config);
        policies.warnings().forEach(w -> LOG.warn("cel-mutate: " + w));
        policies.compileErrors().forEach(e -> LOG.error("cel-mutate: " + e));
        // Without a packaged webhook.yaml (e.g. embedded in a tool) there is no registration to check against.
        var registration = RegistrationCoverage.packagedRules("/cel-mutate");
        if (!registration.isEmpty()) {
            policies.uncoveredBy(registration).forEach(w -> LOG.warn("cel-mutate: " + w));
        }
    }

    public CelMutate(MutatingPolicies policies) {
        this.policies = policies;
    }

    /** The API server's CEL environment with a static answer to {@code authorizer} checks (none: errors). */
    public static KubeCel environment(String authorizer) {
        Authorizer a = switch (authorizer.strip()) {
            case "none" -> Authorizer.none("set tollgate.cel-mutate.authorizer to allow or deny to answer them with a"
                    + " static decision");
            case "allow" -> Authorizer.allowAll();
            case "deny" -> Authorizer.denyAll("static decision: deny (tollgate.cel-mutate.authorizer=deny)");
            default -> throw new IllegalArgumentException("tollgate.cel-mutate.authorizer must be none, allow or "
                    + "deny, got '" + authorizer + "'");
        };
        return KubeCel.builder().authorizer(a).build();
    }

    public MutatingPolicies policies() {
        return policies;
    }

    @Override
    public Verdict mutate(AdmissionRequest request, ObjectNode object) {
        return policies.mutate(request, object);
    }
}
