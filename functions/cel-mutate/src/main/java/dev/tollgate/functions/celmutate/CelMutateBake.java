package dev.tollgate.functions.celmutate;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import dev.tollgate.cel.admission.BakedPolicies;

/**
 * cel-mutate's start, as its build runs it on the policies baked in ({@code tollgate.cel-mutate.baked-config}):
 * the same {@link CelMutate#load}, with the build's settings.
 */
public final class CelMutateBake implements BakedPolicies.Loader {

    @Override
    public String function() {
        return CelMutate.FUNCTION;
    }

    @Override
    public List<String> load(List<String> config) {
        Config settings = ConfigProvider.getConfig();
        List<String> warnings = new ArrayList<>();
        String authorizer = settings.getOptionalValue("tollgate.cel-mutate.authorizer", String.class).orElse("none");
        CelMutate.load(config, authorizer, key -> settings.getOptionalValue(key, String.class), warnings::add);
        return warnings;
    }
}
