package dev.tollgate.runtime;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Who may call the policy paths. Every configured check must pass (they combine, they do not replace each other).
 * Health and metrics under the non-application root ({@code /q}) are not gated.
 *
 * <p>Each credential belongs to one cluster, which is the caller's cluster ({@link CallerClusters}): those under
 * {@code tollgate.auth.clusters.<name>.}, in {@code tollgate.auth.clusters-dir} and in
 * {@code tollgate.auth.clusters-json} to the cluster they name, the cluster-less ones ({@code tollgate.auth.bearer.*},
 * {@code path-token.*}, {@code mtls.allowed-names}) to {@value dev.tollgate.admission.AdmissionRequest#DEFAULT_CLUSTER}.
 */
@ConfigMapping(prefix = "tollgate.auth")
public interface CallerConfig {

    /**
     * When true (the default outside dev and test), the function refuses to start unless at least one check is
     * configured. Set false only where the platform authenticates callers for us (see the runtime README).
     */
    @WithDefault("true")
    boolean required();

    /** {@code Authorization: Bearer <token>} must carry one of these tokens. */
    Tokens bearer();

    /** The first path segment must be one of these tokens: {@code https://host/<token>/<function path>}. */
    Tokens pathToken();

    /** A verified client certificate (the function serves TLS itself). */
    Mtls mtls();

    /**
     * Per governed cluster (the name as in {@code tollgate.clusters.*}, a DNS label): its own bearer tokens, path
     * tokens and client-certificate names.
     */
    Map<String, ClusterCredentials> clusters();

    /**
     * A directory of token files named per cluster: {@code <cluster>.path-tokens} and {@code <cluster>.bearer-tokens}
     * (one token per line, as in the files above; names starting with '.' skipped), e.g. a Secret with one key per
     * cluster mounted as a volume. The files are listed at startup and re-read every reload period.
     */
    Optional<Path> clustersDir();

    /**
     * The same per-cluster tokens as one JSON value, for platforms that mount no files (AWS Lambda): env
     * {@code TOLLGATE_AUTH_CLUSTERS_JSON}, e.g. {@code {"east":{"path-tokens":["..."]},"west":{"path-tokens":["..."],
     * "bearer-tokens":["..."]}}}. Read at startup only: changing it is a new deployment.
     */
    Optional<String> clustersJson();

    /** How often token files are re-read, so tokens rotate without a restart. */
    @WithDefault("10s")
    Duration reloadPeriod();

    /** Accepted tokens: literal values (e.g. from a secret env var) and files holding one token per line. */
    interface Tokens {
        /** Env: TOLLGATE_AUTH_BEARER_VALUES / TOLLGATE_AUTH_PATH_TOKEN_VALUES (comma-separated). */
        Optional<List<String>> values();

        /** Files with one token per line ('#' starts a comment line); re-read every reload period. */
        Optional<List<Path>> files();
    }

    /** One cluster's credentials. */
    interface ClusterCredentials {
        /** Its {@code Authorization: Bearer} tokens. */
        Tokens bearer();

        /** Its path tokens. */
        Tokens pathToken();

        /** Its client certificates' subject CNs (with {@code tollgate.auth.mtls.enabled=true}). */
        ClusterMtls mtls();
    }

    interface ClusterMtls {
        Optional<List<String>> allowedNames();
    }

    interface Mtls {
        /** Require a client certificate verified against the TLS trust store (quarkus.tls...trust-store). */
        @WithDefault("false")
        boolean enabled();

        /** When set, the client certificate's subject CN must be one of these. */
        Optional<List<String>> allowedNames();
    }
}
