package dev.tollgate.functions.celpolicy;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import dev.tollgate.cel.admission.BakedPolicies;

/**
 * cel-policy's start, as its build runs it on the policies baked in ({@code tollgate.cel-policy.baked-config}):
 * the same {@link CelPolicy#load}, with the build's settings.
 */
public final class CelPolicyBake implements BakedPolicies.Loader {

    @Override
    public String function() {
        return CelPolicy.FUNCTION;
    }

    @Override
    public List<String> load(List<String> config) {
        Config settings = ConfigProvider.getConfig();
        List<String> warnings = new ArrayList<>();
        String authorizer = settings.getOptionalValue("tollgate.cel-policy.authorizer", String.class).orElse("none");
        CelPolicy.load(config, authorizer, key -> settings.getOptionalValue(key, String.class), warnings::add);
        return warnings;
    }
}
