package dev.tollgate.functions.celpolicy;

import dev.tollgate.cel.admission.BakedPolicies;

/**
 * cel-policy's start, as its build runs it on the policies baked in ({@code tollgate.cel-policy.baked-config},
 * shared/policy-bake): the same {@link CelPolicy#load}, with the build's settings.
 */
public final class CelPolicyBake extends BakedPolicies.FunctionStart {

    public CelPolicyBake() {
        super(CelPolicy.FUNCTION, CelPolicy::load);
    }
}
