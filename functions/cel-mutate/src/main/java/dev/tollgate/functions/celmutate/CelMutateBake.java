package dev.tollgate.functions.celmutate;

import dev.tollgate.cel.admission.BakedPolicies;

/**
 * cel-mutate's start, as its build runs it on the policies baked in ({@code tollgate.cel-mutate.baked-config},
 * shared/policy-bake): the same {@link CelMutate#load}, with the build's settings.
 */
public final class CelMutateBake extends BakedPolicies.FunctionStart {

    public CelMutateBake() {
        super(CelMutate.FUNCTION, CelMutate::load);
    }
}
