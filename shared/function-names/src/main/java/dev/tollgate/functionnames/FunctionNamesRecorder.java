package dev.tollgate.functionnames;

import java.util.Map;
import java.util.function.Supplier;

import io.quarkus.runtime.annotations.Recorder;

/** Carries the build step's pairings into the application (Quarkus guide "Writing Your Own Extension", recorders). */
@Recorder
public class FunctionNamesRecorder {

    public Supplier<FunctionNames> functionNames(Map<String, String> byClass) {
        return () -> new FunctionNames(byClass);
    }
}
