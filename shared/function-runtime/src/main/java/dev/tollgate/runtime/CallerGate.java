package dev.tollgate.runtime;

import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

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

import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.configuration.ConfigurationException;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;

/**
 * Decides whether a caller may reach a policy: a verified client certificate (mTLS), a bearer token and a path
 * token, each when configured, all of them when several are. A refused caller learns nothing: the endpoint answers
 * 401 with a fixed body, whatever check failed; the check is only counted.
 */
@ApplicationScoped
public class CallerGate {

    private static final Logger LOG = Logger.getLogger(CallerGate.class);
    private static final String BEARER = "bearer ";

    /** The outcome for one request: the path to dispatch (path token removed), or the check that failed. */
    public record Admission(String policyPath, String failedCheck) {
        public boolean admitted() {
            return failedCheck == null;
        }
    }

    private final TokenSet bearer;
    private final TokenSet pathTokens;
    private final boolean mtls;
    private final List<String> allowedNames;
    private final Vertx vertx;
    private long reloadTimer = -1;

    CallerGate() {
        // for CDI proxies
        this.bearer = null;
        this.pathTokens = null;
        this.mtls = false;
        this.allowedNames = null;
        this.vertx = null;
    }

    @Inject
    public CallerGate(CallerConfig config, Config all, Vertx vertx) {
        this.vertx = vertx;
        this.bearer = new TokenSet("bearer token", TokenSet.TOKEN68, config.bearer().values().orElse(List.of()),
                config.bearer().files().orElse(List.of()));
        this.pathTokens = new TokenSet("path token", TokenSet.PATH_SAFE,
                config.pathToken().values().orElse(List.of()), config.pathToken().files().orElse(List.of()));
        this.mtls = config.mtls().enabled();
        this.allowedNames = config.mtls().allowedNames().orElse(List.of());
        if (mtls) {
            requireClientCertificates(all);
        }
        List<String> checks = checks();
        if (checks.isEmpty()) {
            if (config.required()) {
                throw new ConfigurationException("no caller check is configured, so anyone who finds this "
                        + "function's URL could call it: set tollgate.auth.bearer.values|files, "
                        + "tollgate.auth.path-token.values|files or tollgate.auth.mtls.enabled=true; on a laptop, or "
                        + "where the platform authenticates callers, start it with -Dtollgate.auth.required=false "
                        + "(environment: TOLLGATE_AUTH_REQUIRED=false). See shared/function-runtime/README.md, "
                        + "\"Who may call\"");
            }
            // A warning where someone chose it (a laptop, a platform that authenticates); in test mode it is the
            // runtime's own default (%test.tollgate.auth.required=false), nothing to warn a test run about.
            LOG.log(LaunchMode.current() == LaunchMode.TEST ? Logger.Level.INFO : Logger.Level.WARN,
                    "no caller check is configured (tollgate.auth.required=false): every caller is accepted");
        } else {
            LOG.infof("callers must pass: %s", String.join(", ", checks));
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
        if (mtls && !verifiedClient(ctx)) {
            failed = "mtls";
        }
        if (bearer.configured() && !bearer.matches(bearerToken(ctx.request().getHeader(HttpHeaders.AUTHORIZATION)))
                && failed == null) {
            failed = "bearer";
        }
        String policyPath = path;
        if (pathTokens.configured()) {
            int end = path.indexOf('/', 1);
            String token = end < 0 ? path.substring(1) : path.substring(1, end);
            if (!pathTokens.matches(token) && failed == null) {
                failed = "path-token";
            }
            policyPath = end < 0 ? "/" : path.substring(end);
        }
        return new Admission(failed == null ? policyPath : null, failed);
    }

    private boolean verifiedClient(RoutingContext ctx) {
        if (!ctx.request().isSSL()) {
            return false;
        }
        SSLSession session = ctx.request().sslSession();
        if (session == null) {
            return false;
        }
        Certificate[] chain;
        try {
            // Present only when the TLS handshake verified the chain against the trust store.
            chain = session.getPeerCertificates();
        } catch (SSLPeerUnverifiedException e) {
            return false;
        }
        if (chain.length == 0 || !(chain[0] instanceof X509Certificate leaf)) {
            return false;
        }
        return allowedNames.isEmpty() || commonName(leaf).map(allowedNames::contains).orElse(false);
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
