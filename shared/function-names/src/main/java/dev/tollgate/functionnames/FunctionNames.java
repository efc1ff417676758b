package dev.tollgate.functionnames;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The function name of each policy bean in the application, by the bean's class name. The names come from the
 * webhook.yaml packaged in the same archive as the policy (the first segment of its entries' paths), paired at build
 * time; a policy class never states its own name.
 */
public final class FunctionNames {

    private final Map<String, String> byClass;

    public FunctionNames(Map<String, String> byClass) {
        this.byClass = Map.copyOf(byClass);
    }

    /** The function a policy bean class serves, or empty when its archive declared none. */
    public Optional<String> of(Class<?> policyClass) {
        return Optional.ofNullable(byClass.get(policyClass.getName()));
    }

    /** Every pairing, class name to function name, sorted by class name. */
    public Map<String, String> byClass() {
        return new TreeMap<>(byClass);
    }
}
