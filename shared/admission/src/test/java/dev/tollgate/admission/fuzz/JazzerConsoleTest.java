package dev.tollgate.admission.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class JazzerConsoleTest {

    @Test
    void dropsInfoLinesAndKeepsEverythingElse() {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream filtered = new PrintStream(new JazzerConsole.InfoLineFilter(
                new PrintStream(console, true, StandardCharsets.UTF_8)), true, StandardCharsets.UTF_8);
        // Jazzer's Log prints the prefix and the message in two calls.
        filtered.print("INFO: ");
        filtered.println("Loaded 442 hooks from com.code_intelligence.jazzer.runtime.TraceCmpHooks");
        filtered.print("WARN: ");
        filtered.println("Failed to instrument x");
        filtered.println("INFO:without the space stays");
        filtered.print("\n== Java Exception: ");
        filtered.println("java.lang.IllegalStateException: found");
        filtered.print("INFO: a line still open");
        assertEquals("WARN: Failed to instrument x\nINFO:without the space stays\n\n== Java Exception: "
                + "java.lang.IllegalStateException: found\n", console.toString(StandardCharsets.UTF_8));
    }
}
