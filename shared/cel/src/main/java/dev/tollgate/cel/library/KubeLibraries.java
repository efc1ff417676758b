package dev.tollgate.cel.library;

import java.util.List;

import dev.tollgate.cel.internal.KubeLibrary;

/** The Kubernetes CEL libraries, in the order the API server's base environment adds them. */
public final class KubeLibraries {

    private KubeLibraries() {
    }

    public static List<KubeLibrary> all() {
        return List.of(new AuthzLibrary());
    }
}
