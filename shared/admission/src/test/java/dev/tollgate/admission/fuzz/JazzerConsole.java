package dev.tollgate.admission.fuzz;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import com.code_intelligence.jazzer.utils.Log;

/**
 * Keeps Jazzer's progress notes off the console of a normal build. Replaying the regression inputs, Jazzer's agent
 * prints an {@code INFO:} line for every hook class it loads, every class it instruments and every dictionary it
 * merges, unconditionally (its {@code utils/Log.java} has no switch for them); a quiet build showed 70 such lines.
 * The agent stays installed, so the bug detectors still check every regression input; only lines starting with
 * {@code INFO: } are dropped, and Jazzer's warnings, errors and findings still reach the console. While fuzzing
 * ({@code JAZZER_FUZZ} set) nothing is filtered.
 */
public final class JazzerConsole {

    private JazzerConsole() {
    }

    /** Call before the first fuzz test of a class runs (a {@code @BeforeAll}): Jazzer installs its agent then. */
    public static void dropInfoUnlessFuzzing() {
        if (System.getenv("JAZZER_FUZZ") != null) {
            return;
        }
        PrintStream console = System.err;
        Log.fixOutErr(System.out, new PrintStream(new InfoLineFilter(console), true, StandardCharsets.UTF_8));
    }

    /** Passes lines through to the console unless they start with {@code INFO: }. */
    static final class InfoLineFilter extends OutputStream {
        private static final byte[] INFO = "INFO: ".getBytes(StandardCharsets.US_ASCII);
        private final PrintStream console;
        private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();

        InfoLineFilter(PrintStream console) {
            this.console = console;
        }

        @Override
        public synchronized void write(int b) {
            line.write(b);
            if (b == '\n') {
                flushLine();
            }
        }

        @Override
        public synchronized void flush() {
            // Lines are passed on whole; a partial line waits for its end.
        }

        private void flushLine() {
            byte[] bytes = line.toByteArray();
            line.reset();
            if (!startsWithInfo(bytes)) {
                console.write(bytes, 0, bytes.length);
                console.flush();
            }
        }

        private static boolean startsWithInfo(byte[] bytes) {
            if (bytes.length < INFO.length) {
                return false;
            }
            for (int i = 0; i < INFO.length; i++) {
                if (bytes[i] != INFO[i]) {
                    return false;
                }
            }
            return true;
        }
    }
}
