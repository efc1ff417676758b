package dev.tollgate.simulator;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import dev.tollgate.admission.conversion.ConversionPolicy;
import io.quarkus.arc.Unremovable;

/**
 * The conversion policies bundled with the simulator (their beans, e.g. crd-conversion's), for
 * {@code tollgate convert} in-process. Injecting them here keeps Quarkus from removing them as unused.
 */
@ApplicationScoped
@Unremovable
public class ConversionPolicies {

    private final List<ConversionPolicy> policies;

    @Inject
    public ConversionPolicies(Instance<ConversionPolicy> policies) {
        this.policies = policies.stream().sorted(java.util.Comparator.comparing(ConversionPolicy::name)).toList();
    }

    public List<ConversionPolicy> all() {
        return policies;
    }
}
