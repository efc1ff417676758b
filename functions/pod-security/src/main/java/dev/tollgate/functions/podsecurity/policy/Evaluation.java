package dev.tollgate.functions.podsecurity.policy;

import java.util.List;
import java.util.stream.Collectors;

/** The failing checks of one evaluation, in upstream's order; none means the pod is allowed. */
public record Evaluation(List<CheckResult> failures) {

    public static final Evaluation ALLOWED = new Evaluation(List.of());

    public Evaluation {
        failures = List.copyOf(failures);
    }

    public boolean allowed() {
        return failures.isEmpty();
    }

    /** Every failing check as {@code reason (detail)}, comma-separated: the text after {@code violates PodSecurity}. */
    public String forbiddenDetail() {
        return failures.stream().map(CheckResult::describe).collect(Collectors.joining(", "));
    }

    /** The reasons alone, comma-separated. */
    public String forbiddenReason() {
        return failures.stream().map(CheckResult::reason).collect(Collectors.joining(", "));
    }
}
