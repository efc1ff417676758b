package dev.tollgate.knative;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class GoDurationTest {

    @ParameterizedTest
    @CsvSource({ "0,0", "30s,30000", "5m,300000", "1h,3600000", "1m30s,90000", "1.5h,5400000", "500ms,500",
            "-2s,-2000", ".5s,500" })
    void parsesGoDurations(String text, long millis) {
        assertEquals(Duration.ofMillis(millis), GoDuration.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "5", "5 m", "m", "1d", "s5", "1h-5m" })
    void rejectsOthers(String text) {
        assertThrows(IllegalArgumentException.class, () -> GoDuration.parse(text));
    }
}
