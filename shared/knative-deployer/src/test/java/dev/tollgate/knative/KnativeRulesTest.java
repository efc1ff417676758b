package dev.tollgate.knative;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class KnativeRulesTest {

    private static List<Violation> check(String yaml) {
        return KnativeRules.DEFAULTS.check(ServiceManifest.parse(yaml, "test.yaml"));
    }

    private static String edit(String from, String to) {
        String yaml = Manifests.yaml("require-labels");
        assertTrue(yaml.contains(from), "fixture lacks " + from);
        return yaml.replace(from, to);
    }

    @Test
    void functionManifestPasses() {
        assertEquals(List.of(), check(Manifests.yaml("require-labels")));
    }

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            name: http1                               | name: http                                 | ports[0].name
            protocol: TCP                             | protocol: UDP                              | ports[0].protocol
            containerPort: 8080                       | containerPort: 8012                        | reserved port
            timeoutSeconds: 10                        | timeoutSeconds: 601                        | timeoutSeconds
            timeoutSeconds: 10                        | timeoutSeconds: -1                         | timeoutSeconds
            containerConcurrency: 100                 | containerConcurrency: 1001                 | containerConcurrency
            autoscaling.knative.dev/min-scale: "0"    | autoscaling.knative.dev/min-scale: "-1"    | min-scale
            autoscaling.knative.dev/min-scale: "0"    | autoscaling.knative.dev/min-scale: "11"    | less than min-scale
            autoscaling.knative.dev/max-scale: "10"   | autoscaling.knative.dev/max-scale: ten     | not an integer
            autoscaling.knative.dev/target: "20"      | autoscaling.knative.dev/target: "0.001"    | target
            autoscaling.knative.dev/metric: concurrency | autoscaling.knative.dev/metric: cpu      | not a metric
            autoscaling.knative.dev/scale-down-delay: 5m | autoscaling.knative.dev/scale-down-delay: 2h | scale-down-delay
            autoscaling.knative.dev/scale-down-delay: 5m | autoscaling.knative.dev/scale-down-delay: 1.5s | second precision
            autoscaling.knative.dev/scale-down-delay: 5m | autoscaling.knative.dev/scale-down-delay: soon | not a duration
            autoscaling.knative.dev/scale-down-delay: 5m | autoscaling.knative.dev/scaledown-delay: 5m | unknown autoscaling
            autoscaling.knative.dev/scale-down-delay: 5m | autoscaling.knative.dev/window: 5s      | window
            autoscaling.knative.dev/scale-down-delay: 5m | autoscaling.knative.dev/initial-scale: "0" | initial-scale
            autoscaling.knative.dev/scale-down-delay: 5m | autoscaling.knative.dev/target-utilization-percentage: "101" | target-utilization
            autoscaling.knative.dev/scale-down-delay: 5m | autoscaling.knative.dev/panic-threshold-percentage: "100" | panic-threshold
            autoscaling.knative.dev/scale-down-delay: 5m | autoscaling.knative.dev/class: foo.autoscaling.knative.dev | class
            autoscaling.knative.dev/scale-down-delay: 5m | autoscaling.knative.dev/activation-scale: "1" | activation-scale
            failureThreshold: 0                       | failureThreshold: 2                        | disallowed when periodSeconds is zero
            timeoutSeconds: 0                         | timeoutSeconds: 1                          | disallowed when periodSeconds is zero
            name: TOLLGATE_AUTH_PATH_TOKEN_FILES      | name: K_SERVICE                            | reserved environment variable
            readOnly: true                            | readOnly: false                            | should be readOnly
            mountPath: /var/run/tollgate/auth         | mountPath: relative/path                   | mountPath
            - name: tollgate-auth\\n                    | - name: other\\n                             | not mounted
            image: ghcr.io/tollgate/require-labels:0.1.0-SNAPSHOT | image: ""                      | image
            """)
    void knativeRefuses(String from, String to, String expected) {
        List<Violation> v = check(edit(from.replace("\\n", "\n"), to.replace("\\n", "\n")));
        assertTrue(v.stream().anyMatch(x -> x.toString().contains(expected)), () -> "expected '" + expected
                + "' among " + v);
    }

    @Test
    void autoscalingAnnotationOnTheServiceItselfIsRefused() {
        List<Violation> v = check(edit("    app.quarkus.io/quarkus-version: 3.34.1\n  labels:",
                "    app.quarkus.io/quarkus-version: 3.34.1\n    autoscaling.knative.dev/min-scale: \"1\"\n  labels:"));
        assertEquals(1, v.size(), v::toString);
        assertTrue(v.get(0).message().contains("spec.template.metadata.annotations"));
    }

    @Test
    void periodicReadinessProbeNeedsThresholds() {
        String yaml = edit("periodSeconds: 0", "periodSeconds: 5");
        assertEquals(List.of(), check(yaml.replace("failureThreshold: 0", "failureThreshold: 3")
                .replace("timeoutSeconds: 0", "timeoutSeconds: 1")));
        assertTrue(check(yaml.replace("failureThreshold: 0", "failureThreshold: 3")).stream()
                .anyMatch(x -> x.path().endsWith("readinessProbe.timeoutSeconds")));
    }

    @Test
    void namedProbePortMustBeTheContainerPort() {
        String yaml = Manifests.yaml("a");
        String probe = "path: /q/health/ready\n              port: null";
        assertTrue(yaml.contains(probe));
        assertEquals(List.of(), check(yaml.replace(probe, probe.replace("null", "http1"))));
        List<Violation> v = check(yaml.replace(probe, probe.replace("null", "http")));
        assertTrue(v.stream().anyMatch(x -> x.message().contains("must match the container port")), v::toString);
    }

    @Test
    void maxScaleLimitOfTheClusterApplies() {
        KnativeRules strict = new KnativeRules(600, 1000, 5, false);
        assertTrue(strict.check(Manifests.manifest("a")).stream().anyMatch(v -> v.message().contains(
                "max-scale-limit")));
    }

    @Test
    void serviceNameMustBeADns1035Label() {
        String yaml = Manifests.yaml("require-labels").replace("  name: require-labels\nspec:",
                "  name: 9require-labels\nspec:");
        assertTrue(check(yaml).stream().anyMatch(v -> v.path().equals("metadata.name")));
    }
}
