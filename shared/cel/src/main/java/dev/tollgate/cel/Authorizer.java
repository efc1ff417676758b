package dev.tollgate.cel;

import java.util.Objects;

/**
 * Answers the {@code authorizer} checks of CEL expressions ({@code authorizer.group('apps').resource('deployments')
 * .check('create').allowed()}, {@code authorizer.requestResource.check('update')}, {@code authorizer.path(...)}).
 *
 * <p>In the API server these go to the cluster's authorizer (SubjectAccessReview). A function has no such access,
 * so the decision is configured: {@link #allowAll()}, {@link #denyAll(String)}, or your own implementation. When
 * nothing is configured ({@link #NONE}), every {@code check()} fails the evaluation with a clear error, so a
 * policy that depends on authorization can never be silently allowed.
 */
@FunctionalInterface
public interface Authorizer {

    /** What is being asked: the user, then a resource (group..name) or a non-resource path, and the verb. */
    record Attributes(String user, java.util.List<String> groups, String verb, String group, String resource,
            String subresource, String namespace, String name, String path) {
        /** True for a non-resource check ({@code authorizer.path(...)}). */
        public boolean isPathCheck() {
            return path != null;
        }
    }

    /** The decision: allowed or not, the reason, or an error (then {@code errored()} is true in CEL). */
    record Decision(boolean allowed, String reason, String error) {
        public Decision {
            reason = reason == null ? "" : reason;
        }

        public static Decision allow(String reason) {
            return new Decision(true, reason, null);
        }

        public static Decision deny(String reason) {
            return new Decision(false, reason, null);
        }

        public static Decision errored(String error) {
            return new Decision(false, "", Objects.requireNonNull(error, "error"));
        }
    }

    Decision authorize(Attributes attributes);

    /**
     * No authorizer: {@code check()} fails the evaluation with an error that says how to configure one, in terms of
     * the Java API ({@code KubeCel.builder().authorizer(...)}). An embedding function whose users configure the
     * decision elsewhere uses {@link #none(String)} instead.
     */
    Authorizer NONE = none("configure a static decision with KubeCel.builder().authorizer(...)");

    /**
     * No authorizer: every {@code check()} fails the evaluation with "no authorizer is configured for this function:
     * authorizer checks cannot be answered (<i>howToConfigure</i>)". The advice is the embedding's: a function names
     * its own setting, e.g. {@code "set tollgate.cel-policy.authorizer to allow or deny"}.
     */
    static Authorizer none(String howToConfigure) {
        if (howToConfigure == null || howToConfigure.isBlank()) {
            throw new IllegalArgumentException("say how to configure an authorizer: the advice must not be empty");
        }
        String message = "no authorizer is configured for this function: authorizer checks cannot be answered ("
                + howToConfigure.strip() + ")";
        return attributes -> {
            throw new IllegalStateException(message);
        };
    }

    /** Every check allowed, reason {@code "static decision: allow"}. */
    static Authorizer allowAll() {
        return attributes -> Decision.allow("static decision: allow");
    }

    /** Every check denied with this reason. */
    static Authorizer denyAll(String reason) {
        return attributes -> Decision.deny(reason);
    }
}
