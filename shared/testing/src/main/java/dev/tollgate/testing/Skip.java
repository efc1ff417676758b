package dev.tollgate.testing;

import java.util.function.Supplier;

import org.junit.jupiter.api.Assumptions;

/**
 * A test skipped says so on the console, as every skip in this repository does: {@code SKIPPED <test>: <reason>}
 * (Maven's summary only counts skips; the line says which and why), then JUnit's abort marks it skipped.
 */
public final class Skip {

    private Skip() {
    }

    /** Skips {@code test} (e.g. {@code ValidateTest.modulesAndExamplesValidate[modules/x]}) unless {@code condition}. */
    public static void unless(boolean condition, String test, Supplier<String> reason) {
        if (!condition) {
            String why = reason.get();
            System.out.println("SKIPPED " + test + ": " + why);
            Assumptions.abort(why);
        }
    }
}
