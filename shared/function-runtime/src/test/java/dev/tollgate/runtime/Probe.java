package dev.tollgate.runtime;


import java.net.URI;

import org.eclipse.microprofile.config.ConfigProvider;

import dev.tollgate.testing.ManagementEndpoints;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.Pods;
import dev.tollgate.testing.ReviewBuilder;

/** Test helpers: review bodies for {@link ProbePolicy} and reading counters from /q/metrics (on the management port). */
final class Probe {

    private Probe() {
    }

    /** A pod review whose labels steer the probe policy, e.g. {@code body("probe", "deny")}. */
    static String body(String... labels) {
        return Manifests.toJson(ReviewBuilder.create(Pods.withLabels(Pods.minimal("web"), labels)).build());
    }

    /** The request uid of a review body made by {@link #body}, as the runtime's log lines name it. */
    static String uid(String body) {
        return Manifests.parse(body).path("request").path("uid").asText();
    }

    /** The function's Prometheus metrics, from the management port (the main port does not serve them). */
    static String metrics() {
        return ManagementEndpoints.metrics();
    }

    /** {@code path} on the management interface of the application under test (its port is random in tests). */
    static String management(String path) {
        URI base = URI.create(ConfigProvider.getConfig().getValue("test.management.url", String.class));
        return base.getScheme() + "://" + base.getHost() + ":" + base.getPort() + path;
    }

    /** The value of the metric line that starts with {@code name{} and holds every given label. */
    static double metric(String text, String name, String... labels) {
        return ManagementEndpoints.metric(text, name, labels);
    }
}
