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
}
