package dev.tollgate.cel.library;

import java.util.List;

import dev.tollgate.cel.internal.KubeLibrary;

/** The Kubernetes CEL libraries, as the API server's base environment enables them. */
public final class KubeLibraries {

    private KubeLibraries() {
    }

    public static List<KubeLibrary> all() {
        return List.of(new UrlsLibrary(), new RegexLibrary(), new ListsLibrary(), new StringsExtras(),
                new QuantityLibrary(), new NetLibrary(), new FormatLibrary(), new AuthzLibrary(),
                new SemverLibrary(), new JsonPatchLibrary());
    }
}
