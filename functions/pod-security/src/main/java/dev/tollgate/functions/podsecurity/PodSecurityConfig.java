package dev.tollgate.functions.podsecurity;

import java.util.List;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * {@code tollgate.pod-security.*} in application.properties (or the matching environment variables): the
 * exemptions and defaults of upstream's PodSecurity AdmissionConfiguration.
 */
@ConfigMapping(prefix = "tollgate.pod-security")
public interface PodSecurityConfig {

    Exempt exemptions();

    /** The policy of the bare {@code /pod-security} path, which evaluates all three modes at once. */
    DefaultModes defaults();

    interface Exempt {
        /** Requests by these users are never evaluated. */
        Optional<List<String>> usernames();

        /** Pods (and templates) with these runtimeClassName values are never evaluated. */
        Optional<List<String>> runtimeClassNames();

        /** Requests in these namespaces are never evaluated. */
        Optional<List<String>> namespaces();
    }

    interface DefaultModes {
        @WithDefault("privileged")
        String enforce();

        @WithDefault("latest")
        String enforceVersion();

        @WithDefault("privileged")
        String audit();

        @WithDefault("latest")
        String auditVersion();

        @WithDefault("privileged")
        String warn();

        @WithDefault("latest")
        String warnVersion();
    }
}
