package dev.tollgate.runtime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.logging.Level;

import org.junit.jupiter.api.Test;

import dev.tollgate.testing.CapturedLog;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

/** What a function says at start when no caller check is configured: refused by default, a warning when chosen. */
class CallerCheckStartupTest {

    private static final String NO_CHECK =
            "no caller check is configured (tollgate.auth.required=false): every caller is accepted";

    private static CallerGate start(Map<String, String> values) {
        // Quarkus's duration syntax (reload-period's default "10s"), as the application's configuration reads it.
        SmallRyeConfig config = new SmallRyeConfigBuilder().withMapping(CallerConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter())
                .withDefaultValues(values).build();
        return new CallerGate(config.getConfigMapping(CallerConfig.class), config, null);
    }

    @Test
    void withoutACheckTheFunctionRefusesToStartWithOneLineThatSaysWhatToSet() {
        var e = assertThrows(ConfigurationException.class, () -> start(Map.of()));
        String message = e.getMessage();
        assertFalse(message.contains("\n"), message);
        for (String part : new String[] { "tollgate.auth.bearer.values|files", "tollgate.auth.path-token.values|files",
                "tollgate.auth.mtls.enabled=true", "-Dtollgate.auth.required=false", "TOLLGATE_AUTH_REQUIRED=false",
                "shared/function-runtime/README.md" }) {
            assertTrue(message.contains(part), part + " in: " + message);
        }
    }

    @Test
    void runningWithoutACheckIsAWarningWhereChosenAndANoteInTests() {
        LaunchMode before = LaunchMode.current();
        try (CapturedLog log = CapturedLog.of(CallerGate.class)) {
            LaunchMode.set(LaunchMode.NORMAL);
            start(Map.of("tollgate.auth.required", "false"));
            log.await(Level.WARNING, NO_CHECK);

            // Tests run without a check by the runtime's %test default: no warning in every test run's output.
            LaunchMode.set(LaunchMode.TEST);
            start(Map.of("tollgate.auth.required", "false"));
            log.await(Level.INFO, NO_CHECK);
        } finally {
            LaunchMode.set(before);
        }
    }

    private static final String EAST = "east-token-0123456789abcdef";
    private static final String WEST = "west-token-0123456789abcdef";

    @Test
    void aTokenOfTwoClustersStopsTheFunctionNamingBothAndNotTheToken() {
        var e = assertThrows(IllegalStateException.class, () -> start(Map.of(
                "tollgate.auth.clusters.east.path-token.values", EAST,
                "tollgate.auth.clusters.west.path-token.values", WEST + "," + EAST)));
        assertTrue(e.getMessage().contains("of cluster west is also a token of cluster east"), e.getMessage());
        assertFalse(e.getMessage().contains(EAST), e.getMessage());
        // The cluster-less keys are the cluster "default"'s.
        var d = assertThrows(IllegalStateException.class, () -> start(Map.of(
                "tollgate.auth.bearer.values", EAST,
                "tollgate.auth.clusters.east.bearer.values", EAST)));
        assertTrue(d.getMessage().contains("cluster east is also a token of cluster default"), d.getMessage());
    }

    @Test
    void aClusterWithoutACheckedKindOfCredentialStopsTheFunction() {
        // Every check runs on every call: west, with no path token, could never call.
        var e = assertThrows(ConfigurationException.class, () -> start(Map.of(
                "tollgate.auth.clusters.east.path-token.values", EAST,
                "tollgate.auth.clusters.east.bearer.values", "east-bearer-0123456789abcdef",
                "tollgate.auth.clusters.west.bearer.values", "west-bearer-0123456789abcdef")));
        assertTrue(e.getMessage().startsWith("cluster west has no path token"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void clusterNamesAreDnsLabelsAndCertificateNamesBelongToOneCluster() {
        var e = assertThrows(ConfigurationException.class, () -> start(Map.of(
                "tollgate.auth.clusters.East_1.path-token.values", EAST)));
        assertTrue(e.getMessage().contains("tollgate.auth.clusters.East_1: 'East_1' is not a cluster name"),
                e.getMessage());
        var names = assertThrows(ConfigurationException.class, () -> start(Map.of(
                "tollgate.auth.clusters.east.mtls.allowed-names", "apiserver.example.com",
                "tollgate.auth.clusters.west.mtls.allowed-names", "apiserver.example.com")));
        assertTrue(names.getMessage().contains("'apiserver.example.com' is also cluster east's"), names.getMessage());
        var off = assertThrows(ConfigurationException.class, () -> start(Map.of(
                "tollgate.auth.clusters.east.mtls.allowed-names", "east.example.com")));
        assertTrue(off.getMessage().contains("tollgate.auth.mtls.enabled is not true"), off.getMessage());
    }

    @Test
    void aClustersDirectoryNamesItsClustersByFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        java.nio.file.Files.writeString(dir.resolve("east.path-tokens"), EAST + "\n");
        java.nio.file.Files.writeString(dir.resolve("west.path-tokens"), EAST + "\n");
        var e = assertThrows(IllegalStateException.class, () -> start(Map.of(
                "tollgate.auth.clusters-dir", dir.toString())));
        assertTrue(e.getMessage().contains("west.path-tokens: line 1 is also a token of cluster east"),
                e.getMessage());
        java.nio.file.Files.writeString(dir.resolve("Bad.path-tokens"), WEST + "\n");
        var bad = assertThrows(ConfigurationException.class, () -> start(Map.of(
                "tollgate.auth.clusters-dir", dir.toString())));
        assertTrue(bad.getMessage().contains("'Bad' is not a cluster name"), bad.getMessage());
    }
}
