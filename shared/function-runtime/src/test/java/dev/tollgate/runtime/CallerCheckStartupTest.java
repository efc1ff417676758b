package dev.tollgate.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    private static final String JSON = "tollgate.auth.clusters-json";

    @Test
    void aClustersJsonNamesItsClustersAndIsReadFromTheEnvironment() {
        // As Lambda passes it: the environment variable TOLLGATE_AUTH_CLUSTERS_JSON.
        SmallRyeConfig config = new SmallRyeConfigBuilder().withMapping(CallerConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter())
                .withSources(new io.smallrye.config.EnvConfigSource(Map.of("TOLLGATE_AUTH_CLUSTERS_JSON",
                        "{\"east\":{\"path-tokens\":[\"" + EAST + "\"]},\"west\":{\"path-tokens\":[\"" + WEST
                                + "\"]}}"), 300))
                .build();
        io.vertx.core.Vertx vertx = io.vertx.core.Vertx.vertx(); // the gate re-reads token files on its timer
        try (CapturedLog log = CapturedLog.of(CallerGate.class)) {
            new CallerGate(config.getConfigMapping(CallerConfig.class), config, vertx).stop();
            log.await(Level.INFO, "caller clusters: east, west");
        } finally {
            vertx.close();
        }
    }

    @Test
    void aTokenOfTwoClustersInTheJsonStopsTheFunctionNamingTheKeyAndBothClustersNotTheToken() {
        var e = assertThrows(ConfigurationException.class, () -> start(Map.of(JSON,
                "{\"east\":{\"path-tokens\":[\"" + EAST + "\"]},\"west\":{\"path-tokens\":[\"" + WEST + "\",\""
                        + EAST + "\"]}}")));
        assertEquals("tollgate.auth.clusters-json: path token value #2 of cluster west is also a token of cluster "
                + "east: a credential belongs to one cluster", e.getMessage());
        // A token too short to be a secret: named by cluster and place, never shown.
        var shortToken = assertThrows(ConfigurationException.class, () -> start(Map.of(JSON,
                "{\"east\":{\"bearer-tokens\":[\"tiny\"]}}")));
        assertEquals("tollgate.auth.clusters-json: bearer token value #1 of cluster east is shorter than 16 "
                + "characters", shortToken.getMessage());
    }

    @Test
    void aBadClustersJsonStopsTheFunctionWithOneLineNamingTheKey() {
        Map<String, String> bad = new java.util.LinkedHashMap<>();
        bad.put("{\"east\":{\"path-tokens\":[\"" + EAST + "\"]", "tollgate.auth.clusters-json: not JSON, or a key "
                + "given twice, at line 1, column ");
        bad.put("{\"east\":{\"path-tokens\":[\"" + EAST + "\"]},\n\"east\":{}}", "tollgate.auth.clusters-json: not "
                + "JSON, or a key given twice, at line 2, column ");
        bad.put("[\"" + EAST + "\"]", "tollgate.auth.clusters-json: not a JSON object of clusters");
        bad.put("{\"East\":{\"path-tokens\":[\"" + EAST + "\"]}}",
                "tollgate.auth.clusters-json: 'East' is not a cluster name (a DNS label");
        bad.put("{\"east\":[\"" + EAST + "\"]}", "tollgate.auth.clusters-json: cluster east is not an object of");
        bad.put("{\"east\":{\"path-token\":[\"" + EAST + "\"]}}",
                "tollgate.auth.clusters-json: cluster east: unknown key 'path-token' (path-tokens or bearer-tokens)");
        bad.put("{\"east\":{\"path-tokens\":\"" + EAST + "\"}}",
                "tollgate.auth.clusters-json: cluster east: path-tokens is not an array of strings");
        bad.forEach((json, message) -> {
            var e = assertThrows(ConfigurationException.class, () -> start(Map.of(JSON, json)), json);
            assertTrue(e.getMessage().startsWith(message), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
            assertFalse(e.getMessage().contains(EAST), e.getMessage());
        });
    }

    @Test
    void everyClusterOfTheJsonNeedsEveryCheckedKind() {
        var e = assertThrows(ConfigurationException.class, () -> start(Map.of(JSON,
                "{\"east\":{\"path-tokens\":[\"" + EAST + "\"],\"bearer-tokens\":[\"east-bearer-0123456789abcdef\"]},"
                        + "\"west\":{\"path-tokens\":[\"" + WEST + "\"]}}")));
        assertTrue(e.getMessage().startsWith("cluster west has no bearer token"), e.getMessage());
        // Across sources, one token is still one cluster's.
        var across = assertThrows(IllegalStateException.class, () -> start(Map.of(JSON,
                "{\"east\":{\"path-tokens\":[\"" + EAST + "\"]}}",
                "tollgate.auth.clusters.west.path-token.values", EAST)));
        assertTrue(across.getMessage().contains("is also a token of cluster"), across.getMessage());
        assertFalse(across.getMessage().contains(EAST), across.getMessage());
    }
}
