package dev.tollgate.runtime;

import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import dev.tollgate.admission.AdmissionRequest;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.configuration.ConfigurationException;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;

/**
 * Decides whether a caller may reach a policy, and which cluster it is: a verified client certificate (mTLS), a bearer
 * token and a path token, each when configured, all of them when several are. Each credential belongs to one cluster
 * ({@link CallerClusters}); the credentials of one call must name the same cluster, which is the call's. A refused
 * caller learns nothing: the endpoint answers 401 with a fixed body, whatever check failed; the check is only counted.
 */
@ApplicationScoped
public class CallerGate {

    private static final Logger LOG = Logger.getLogger(CallerGate.class);
    private static final String BEARER = "bearer ";
    /** The failed check of a call whose credentials belong to different clusters. */
    static final String CLUSTER_CHECK = "cluster";

    /**
     * The outcome for one request: the path to dispatch (path token removed) and the caller's cluster, or the check
     * that failed.
     */
    public record Admission(String policyPath, String cluster, String failedCheck) {
        public boolean admitted() {
            return failedCheck == null;
        }
    }

    private final TokenSet bearer;
    private final TokenSet pathTokens;
    private final boolean mtls;
    /** Client-certificate CN to cluster; empty: any verified certificate, naming no cluster. */
    private final Map<String, String> certificateNames;
    private final List<String> clusters;
    private final Vertx vertx;
    private long reloadTimer = -1;

    CallerGate() {
        // for CDI proxies
        this.bearer = null;
        this.pathTokens = null;
        this.mtls = false;
        this.certificateNames = null;
        this.clusters = null;
        this.vertx = null;
    }

    @Inject
    public CallerGate(CallerConfig config, Config all, Vertx vertx) {
        this.vertx = vertx;
        CallerClusters sources = CallerClusters.read(config);
        this.bearer = new TokenSet("bearer token", TokenSet.TOKEN68, sources.bearer);
        this.pathTokens = new TokenSet("path token", TokenSet.PATH_SAFE, sources.pathTokens);
        this.mtls = config.mtls().enabled();
        this.certificateNames = sources.certificateNames;
        if (mtls) {
            requireClientCertificates(all);
        } else if (!certificateNames.isEmpty()) {
            throw new ConfigurationException("client certificate names are configured (mtls.allowed-names) but "
                    + "tollgate.auth.mtls.enabled is not true: set it, or remove the names");
        }
        Map<String, Set<String>> byKind = new LinkedHashMap<>();
        if (mtls && !certificateNames.isEmpty()) {
            byKind.put("client certificate name (mtls.allowed-names)", new LinkedHashSet<>(certificateNames.values()));
        }
        if (bearer.configured()) {
            byKind.put("bearer token", new LinkedHashSet<>(bearer.clusters()));
        }
        if (pathTokens.configured()) {
            byKind.put("path token", new LinkedHashSet<>(pathTokens.clusters()));
        }
        CallerClusters.requireEveryKind(byKind);
        Set<String> named = new LinkedHashSet<>();
        byKind.values().forEach(named::addAll);
        this.clusters = named.isEmpty() ? List.of(AdmissionRequest.DEFAULT_CLUSTER) : List.copyOf(named);
        List<String> checks = checks();
        if (checks.isEmpty()) {
            if (config.required()) {
                throw new ConfigurationException("no caller check is configured, so anyone who finds this "
                        + "function's URL could call it: set tollgate.auth.bearer.values|files, "
                        + "tollgate.auth.path-token.values|files, tollgate.auth.clusters.<name>.*, "
                        + "tollgate.auth.clusters-dir or tollgate.auth.mtls.enabled=true; on a laptop, or "
                        + "where the platform authenticates callers, start it with -Dtollgate.auth.required=false "
                        + "(environment: TOLLGATE_AUTH_REQUIRED=false). See shared/function-runtime/README.md, "
                        + "\"Who may call\"");
            }
            // A warning where someone chose it (a laptop, a platform that authenticates); in test mode it is the
            // runtime's own default (%test.tollgate.auth.required=false), nothing to warn a test run about.
            LOG.log(LaunchMode.current() == LaunchMode.TEST ? Logger.Level.INFO : Logger.Level.WARN,
                    "no caller check is configured (tollgate.auth.required=false): every caller is accepted");
        } else {
            LOG.infof("callers must pass: %s; caller clusters: %s", String.join(", ", checks),
                    String.join(", ", clusters));
        }
        if (bearer.configured() || pathTokens.configured()) {
            long period = Math.max(1, config.reloadPeriod().toMillis());
            reloadTimer = vertx.setPeriodic(period, id -> vertx.executeBlocking(() -> {
                bearer.reload();
                pathTokens.reload();
                return null;
            }, false));
        }
    }

    @PreDestroy
    void stop() {
        if (reloadTimer >= 0) {
            vertx.cancelTimer(reloadTimer);
        }
    }

    /** The checks in force, for logs: e.g. [mtls, bearer]. */
    public List<String> checks() {
        List<String> out = new ArrayList<>();
        if (mtls) {
            out.add("mtls");
        }
        if (bearer.configured()) {
            out.add("bearer");
        }
        if (pathTokens.configured()) {
            out.add("path-token");
        }
        return out;
    }

    /**
     * The clusters callers can be, in configuration order: those that have a credential, or
     * {@value AdmissionRequest#DEFAULT_CLUSTER} alone when no credential names a cluster. A bounded, configured set
     * (metric labels).
     */
    public List<String> clusters() {
        return clusters;
    }

    /** Whether callers must put a token in front of the policy path. */
    public boolean usesPathToken() {
        return pathTokens.configured();
    }

    /**
     * Checks one request. Every configured check runs, so the time taken does not reveal which one failed.
     *
     * @param path the normalized request path
     */
    public Admission admit(RoutingContext ctx, String path) {
        String failed = null;
        Caller caller = new Caller();
        if (mtls && !caller.is(clientCluster(ctx))) {
            failed = "mtls";
        }
        if (bearer.configured()
                && !caller.is(bearer.owner(bearerToken(ctx.request().getHeader(HttpHeaders.AUTHORIZATION))))
                && failed == null) {
            failed = "bearer";
        }
        String policyPath = path;
        if (pathTokens.configured()) {
            int end = path.indexOf('/', 1);
            String token = end < 0 ? path.substring(1) : path.substring(1, end);
            if (!caller.is(pathTokens.owner(token)) && failed == null) {
                failed = "path-token";
            }
            policyPath = end < 0 ? "/" : path.substring(end);
        }
        if (failed == null && caller.conflict) {
            failed = CLUSTER_CHECK; // credentials of two clusters: one caller is one cluster
        }
        return failed == null ? new Admission(policyPath, caller.cluster(), null) : new Admission(null, null, failed);
    }

    /** The cluster the credentials of one call name, and whether two of them named different clusters. */
    private static final class Caller {
        private String cluster;
        private boolean conflict;

        /**
         * Records a credential's cluster: null when the credential failed, "" when it passed without naming one.
         *
         * @return whether the credential passed
         */
        boolean is(String owner) {
            if (owner == null) {
                return false;
            }
            if (!owner.isEmpty()) {
                conflict |= cluster != null && !cluster.equals(owner);
                cluster = owner;
            }
            return true;
        }

        String cluster() {
            return cluster == null ? AdmissionRequest.DEFAULT_CLUSTER : cluster;
        }
    }

    /**
     * The cluster of a verified client certificate: its CN's, "" when no cluster names certificates (any verified
     * certificate passes), null when there is none or its name is not configured.
     */
    private String clientCluster(RoutingContext ctx) {
        X509Certificate leaf = verifiedClient(ctx);
        if (leaf == null) {
            return null;
        }
        if (certificateNames.isEmpty()) {
            return "";
        }
        return commonName(leaf).map(certificateNames::get).orElse(null);
    }

    /** The client's certificate when the TLS handshake verified its chain against the trust store, else null. */
    private static X509Certificate verifiedClient(RoutingContext ctx) {
        if (!ctx.request().isSSL()) {
            return null;
        }
        SSLSession session = ctx.request().sslSession();
        if (session == null) {
            return null;
        }
        Certificate[] chain;
        try {
            // Present only when the TLS handshake verified the chain against the trust store.
            chain = session.getPeerCertificates();
        } catch (SSLPeerUnverifiedException e) {
            return null;
        }
        if (chain.length == 0 || !(chain[0] instanceof X509Certificate leaf)) {
            return null;
        }
        return leaf;
    }

    static Optional<String> commonName(X509Certificate cert) {
        try {
            for (Rdn rdn : new LdapName(cert.getSubjectX500Principal().getName()).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    return Optional.of(rdn.getValue().toString());
                }
            }
        } catch (InvalidNameException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    static String bearerToken(String authorization) {
        if (authorization == null || authorization.length() <= BEARER.length()
                || !authorization.substring(0, BEARER.length()).toLowerCase(Locale.ROOT).equals(BEARER)) {
            return null;
        }
        return authorization.substring(BEARER.length()).strip();
    }

    /** mTLS needs the HTTP server to ask for client certificates; without that no request could ever pass. */
    private static void requireClientCertificates(Config all) {
        String clientAuth = all.getOptionalValue("quarkus.http.ssl.client-auth", String.class).orElse("none");
        if (!clientAuth.equalsIgnoreCase("request") && !clientAuth.equalsIgnoreCase("required")) {
            throw new ConfigurationException("tollgate.auth.mtls.enabled=true needs quarkus.http.ssl.client-auth="
                    + "request (refused callers get a counted 401) or required (refused in the TLS handshake), "
                    + "and a trust store holding the CA that signs the API server's client certificate; got "
                    + "client-auth=" + clientAuth);
        }
    }
}
