package dev.tollgate.policybake;

import java.util.List;

import dev.tollgate.cel.admission.BakedPolicies;
import io.quarkus.runtime.annotations.Recorder;

/**
 * Installs what the build baked before any bean reads its configuration (Quarkus guide "Writing Your Own Extension",
 * recorders). Recorded for static init: in a native executable that runs when the image is built, so the baked
 * documents and checked expressions are in the image's heap and the start reads nothing.
 */
@Recorder
public class PolicyBakeRecorder {

    public void install(List<String> functions) {
        BakedPolicies.install(functions, Thread.currentThread().getContextClassLoader());
    }
}
