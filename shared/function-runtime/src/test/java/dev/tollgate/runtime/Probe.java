package dev.tollgate.runtime;

import static io.restassured.RestAssured.given;

import java.net.URI;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.eclipse.microprofile.config.ConfigProvider;

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
        return given().get(management("/q/metrics")).then().statusCode(200).extract().asString();
    }

    /** {@code path} on the management interface of the application under test (its port is random in tests). */
    static String management(String path) {
        URI base = URI.create(ConfigProvider.getConfig().getValue("test.management.url", String.class));
        return base.getScheme() + "://" + base.getHost() + ":" + base.getPort() + path;
    }

    /** The value of the metric line that starts with {@code name{} and holds every given label. */
    static double metric(String text, String name, String... labels) {
        double sum = 0;
        Pattern line = Pattern.compile("^" + Pattern.quote(name) + "\\{([^}]*)\\} ([0-9.eE+-]+)$", Pattern.MULTILINE);
        Matcher m = line.matcher(text);
        while (m.find()) {
            boolean all = true;
            for (String l : labels) {
                all &= m.group(1).contains(l);
            }
            if (all) {
                sum += Double.parseDouble(m.group(2));
            }
        }
        return sum;
    }
}
