package dev.tollgate.admission;

import java.util.Optional;

/**
 * An admission policy: either {@link ValidatingPolicy} or {@link MutatingPolicy}. The function runtime serves a
 * policy at {@code /<name>}, the function its module's webhook.yaml names; the policy itself says nothing about it.
 */
public sealed interface AdmissionPolicy permits ValidatingPolicy, MutatingPolicy {

    /**
     * Resolves a path below the function's own (for example {@code enforce/restricted/v1.30}) to the policy serving
     * it, so one deployment can back several webhook entries. Empty means no such path (HTTP 404).
     */
    default Optional<? extends AdmissionPolicy> forSubPath(String subPath) {
        return Optional.empty();
    }
}
