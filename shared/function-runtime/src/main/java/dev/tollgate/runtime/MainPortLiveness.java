package dev.tollgate.runtime;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

import io.quarkus.vertx.http.HttpServer;

/**
 * Liveness ({@code /q/health/live} on the management port): DOWN when the main HTTP server, the one the policies are
 * served on, no longer answers. Health lives on its own port (the management interface), so without this check a
 * function whose main port had stopped accepting, or whose event loops were stuck, would still report itself live.
 * Each call sends one request to the main port over loopback ({@link MainPortProbe}, at most
 * {@code tollgate.health.main-port-timeout}) to a path under the non-application root, which the caller check leaves
 * alone and no route serves: it is answered 404, counted nowhere and not in the decision log.
 */
@Liveness
@ApplicationScoped
public class MainPortLiveness implements HealthCheck {

    static final String NAME = "tollgate-main-port";

    private final HttpServer server;
    private final Duration timeout;
    private final String host;
    private final boolean plainDisabled;
    private final String path;

    @Inject
    public MainPortLiveness(HttpServer server,
            @ConfigProperty(name = "tollgate.health.main-port-timeout", defaultValue = "2s") Duration timeout,
            Config all) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalStateException("tollgate.health.main-port-timeout must be positive, got " + timeout);
        }
        this.server = server;
        this.timeout = timeout;
        this.host = all.getOptionalValue("quarkus.http.host", String.class).orElse("0.0.0.0");
        this.plainDisabled = "disabled".equalsIgnoreCase(
                all.getOptionalValue("quarkus.http.insecure-requests", String.class).orElse("enabled"));
        String root = all.getOptionalValue("quarkus.http.non-application-root-path", String.class).orElse("q");
        this.path = "/" + root.replaceAll("^/+|/+$", "") + "/tollgate-liveness";
    }

    @Override
    public HealthCheckResponse call() {
        boolean tls = plainDisabled || server.getPort() <= 0;
        int port = tls ? server.getSecurePort() : server.getPort();
        if (port <= 0) {
            // No listening main server (a Lambda function serves its events in-process): nothing to check.
            return HealthCheckResponse.named(NAME).up().withData("port", "none").build();
        }
        InetSocketAddress address = new InetSocketAddress(probeHost(host), port);
        MainPortProbe.Result result = MainPortProbe.probe(address, tls, path, timeout);
        return HealthCheckResponse.named(NAME).status(result.answered())
                .withData("port", port)
                .withData("scheme", tls ? "https" : "http")
                .withData("probe", result.detail())
                .build();
    }

    /** A wildcard bind address is probed on loopback; a specific one as it is. */
    static InetAddress probeHost(String host) {
        try {
            InetAddress address = InetAddress.getByName(host);
            return address.isAnyLocalAddress() ? InetAddress.getLoopbackAddress() : address;
        } catch (java.net.UnknownHostException e) {
            return InetAddress.getLoopbackAddress();
        }
    }
}
