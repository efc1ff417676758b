package dev.tollgate.admission;

import java.util.Optional;

/**
 * An admission policy: either {@link ValidatingPolicy} or {@link MutatingPolicy}. The function runtime serves a
 * policy at {@code /<name>}.
 */
public sealed interface AdmissionPolicy permits ValidatingPolicy, MutatingPolicy {

    /** The function name, a DNS label such as {@code require-labels}; the policy is served at {@code /<name>}. */
    String name();

    /**
     * Resolves a path below {@code /<name>} (for example {@code enforce/restricted/v1.30}) to the policy serving
     * it, so one deployment can back several webhook entries. Empty means no such path (HTTP 404).
     */
    default Optional<? extends AdmissionPolicy> forSubPath(String subPath) {
        return Optional.empty();
    }
}
