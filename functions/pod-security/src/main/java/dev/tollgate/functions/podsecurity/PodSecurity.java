package dev.tollgate.functions.podsecurity;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.ValidatingPolicy;
import dev.tollgate.admission.Verdict;
import dev.tollgate.functions.podsecurity.policy.CheckRegistry;

/**
 * The Pod Security Standards as a validating function. One deployment serves every mode, level and version, chosen
 * by the URL path so that each webhook entry names its own:
 *
 * <pre>
 * /pod-security/&lt;mode&gt;/&lt;level&gt;/&lt;version&gt;   e.g. /pod-security/enforce/restricted/v1.30
 *   mode    enforce | warn | audit
 *   level   privileged | baseline | restricted
 *   version latest | v1.&lt;minor&gt;
 * /pod-security                            all three modes at once, with the configured defaults
 * </pre>
 */
@ApplicationScoped
public class PodSecurity implements ValidatingPolicy {

    private final PodSecurityAdmission admission;
    private final Policy defaults;

    @Inject
    public PodSecurity(PodSecurityConfig config) {
        this(Exemptions.of(config.exemptions().usernames().orElse(List.of()),
                config.exemptions().runtimeClassNames().orElse(List.of()),
                config.exemptions().namespaces().orElse(List.of())),
                defaults(config.defaults()));
    }

    public PodSecurity(Exemptions exemptions, Policy defaults) {
        this.admission = new PodSecurityAdmission(exemptions, CheckRegistry.standard());
        this.defaults = defaults;
    }

    private static Policy defaults(PodSecurityConfig.DefaultModes d) {
        try {
            return new Policy(LevelVersion.parse(d.enforce(), d.enforceVersion()),
                    LevelVersion.parse(d.audit(), d.auditVersion()),
                    LevelVersion.parse(d.warn(), d.warnVersion()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("tollgate.pod-security.defaults: " + e.getMessage(), e);
        }
    }

    /** The bare path: the configured defaults for all three modes, as PSA applies them to unlabelled namespaces. */
    @Override
    public Verdict validate(AdmissionRequest request) {
        return admission.admit(request, defaults);
    }

    public Policy defaults() {
        return defaults;
    }

    @Override
    public Optional<ValidatingPolicy> forSubPath(String subPath) {
        return parse(subPath).map(policy -> new ModeEndpoint(subPath, policy));
    }

    /** The policy a sub-path {@code <mode>/<level>/<version>} names, or empty when it names none. */
    public static Optional<Policy> parse(String subPath) {
        String[] parts = subPath.split("/", -1);
        if (parts.length != 3) {
            return Optional.empty();
        }
        try {
            return Optional.of(Policy.single(Mode.parse(parts[0]), LevelVersion.parse(parts[1], parts[2])));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** One mode at one level and version, served at {@code /pod-security/<subPath>}. */
    private final class ModeEndpoint implements ValidatingPolicy {

        private final String subPath;
        private final Policy policy;

        ModeEndpoint(String subPath, Policy policy) {
            this.subPath = subPath;
            this.policy = policy;
        }

        @Override
        public Verdict validate(AdmissionRequest request) {
            return admission.admit(request, policy);
        }

        @Override
        public String toString() {
            return "sub-path " + subPath;
        }
    }
}
