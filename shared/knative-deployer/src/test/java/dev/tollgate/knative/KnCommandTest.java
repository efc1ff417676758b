package dev.tollgate.knative;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class KnCommandTest {

    @Test
    void everyFieldBecomesAFlag() {
        assertEquals("""
                kn service create require-labels \\
                  --image ghcr.io/tollgate/require-labels:0.1.0-SNAPSHOT \\
                  --pull-policy IfNotPresent \\
                  --env TOLLGATE_AUTH_PATH_TOKEN_FILES=/var/run/tollgate/auth/path-tokens \\
                  --arg -Xmx128m \\
                  --port http1:8080 \\
                  --probe-liveness http:::/q/health/live \\
                  --probe-liveness-opts InitialDelaySeconds=0,PeriodSeconds=10,TimeoutSeconds=3,SuccessThreshold=1,FailureThreshold=3 \\
                  --probe-readiness http:::/q/health/ready \\
                  --probe-readiness-opts InitialDelaySeconds=0,PeriodSeconds=0,TimeoutSeconds=0,SuccessThreshold=1,FailureThreshold=0 \\
                  --request cpu=250m,memory=96Mi \\
                  --limit memory=192Mi \\
                  --volume tollgate-auth=secret:tollgate-auth \\
                  --mount /var/run/tollgate/auth=tollgate-auth \\
                  --security-context strict \\
                  --concurrency-limit 100 \\
                  --timeout 10 \\
                  --label app.kubernetes.io/managed-by=quarkus \\
                  --label app.kubernetes.io/name=require-labels \\
                  --scale-max 10 \\
                  --scale-metric concurrency \\
                  --scale-min 0 \\
                  --scale-target 20 \\
                  --annotation app.quarkus.io/quarkus-version=3.34.1 \\
                  --annotation-revision autoscaling.knative.dev/scale-down-delay=5m
                """, KnCommand.of(Manifests.manifest("require-labels")).shell());
    }

    @Test
    void aFieldKnCannotExpressFailsTheRendering() {
        String yaml = Manifests.yaml("a").replace("      timeoutSeconds: 10", "      timeoutSeconds: 10\n"
                + "      enableServiceLinks: false");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KnCommand.of(ServiceManifest.parse(yaml, "a.yaml")));
        assertTrue(e.getMessage().contains("no flag for spec.template.spec.[enableServiceLinks]"), e.getMessage());
    }

    @Test
    void aSecretVolumeModeKnCannotSetIsRefused() {
        String yaml = Manifests.yaml("a").replace("defaultMode: 420", "defaultMode: 384");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KnCommand.of(ServiceManifest.parse(yaml, "a.yaml")));
        assertTrue(e.getMessage().contains("defaultMode 384"), e.getMessage());
    }

    @Test
    void anotherSecurityContextIsRefused() {
        String yaml = Manifests.yaml("a").replace("runAsNonRoot: true", "runAsNonRoot: false");
        assertThrows(IllegalArgumentException.class, () -> KnCommand.of(ServiceManifest.parse(yaml, "a.yaml")));
    }

    @Test
    void valuesWithShellCharactersAreQuoted() {
        assertEquals("'a b'", KnCommand.quote("a b"));
        assertEquals("'it'\\''s'", KnCommand.quote("it's"));
        assertEquals("k=v,x=1", KnCommand.quote("k=v,x=1"));
    }
}
