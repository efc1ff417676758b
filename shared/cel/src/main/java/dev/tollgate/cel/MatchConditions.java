package dev.tollgate.cel;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.admission.AdmissionRequest;

/**
 * A webhook's {@code matchConditions}, evaluated as the API server does before calling the webhook:
 * <ul>
 * <li>any condition false: {@link Outcome#NO_MATCH} (the webhook is skipped; errors elsewhere do not matter);</li>
 * <li>all true: {@link Outcome#MATCH} (the webhook is called);</li>
 * <li>otherwise (an error, none false): {@link Outcome#ERROR}; the webhook's failurePolicy decides:
 * {@code Fail} rejects the request, {@code Ignore} skips the webhook ({@link Result#decide(String)}).</li>
 * </ul>
 * Conditions see {@code object}, {@code oldObject}, {@code request}, {@code authorizer} and
 * {@code authorizer.requestResource} (not {@code params}, {@code namespaceObject} or {@code variables}). At most
 * 64 conditions, names unique. Compile once, at startup; evaluate per request (thread-safe).
 */
public final class MatchConditions {

    /** The API server's limit on the number of matchConditions of one webhook. */
    public static final int MAX_CONDITIONS = 64;

    /** What the conditions say about one request. */
    public enum Outcome { MATCH, NO_MATCH, ERROR }

    /** What the API server does with the webhook for a request. */
    public enum Decision { CALL_WEBHOOK, SKIP_WEBHOOK, REJECT_REQUEST }

    /**
     * The outcome; for NO_MATCH the name of the (first) false condition, for ERROR the failing condition's name and
     * the error message.
     */
    public record Result(Outcome outcome, String condition, String message) {
        static final Result MATCH = new Result(Outcome.MATCH, null, null);

        /** The API server's decision for this outcome under the webhook's failurePolicy ("Fail" or "Ignore"). */
        public Decision decide(String failurePolicy) {
            return switch (outcome) {
                case MATCH -> Decision.CALL_WEBHOOK;
                case NO_MATCH -> Decision.SKIP_WEBHOOK;
                case ERROR -> switch (failurePolicy == null ? "Fail" : failurePolicy) {
                    case "Fail" -> Decision.REJECT_REQUEST;
                    case "Ignore" -> Decision.SKIP_WEBHOOK;
                    default -> throw new IllegalArgumentException("failurePolicy must be Fail or Ignore, not '"
                            + failurePolicy + "'");
                };
            };
        }
    }

    private final KubeCel cel;
    private final List<NamedExpression> conditions;
    private final List<CompiledExpression> compiled;

    private MatchConditions(KubeCel cel, List<NamedExpression> conditions, List<CompiledExpression> compiled) {
        this.cel = cel;
        this.conditions = conditions;
        this.compiled = compiled;
    }

    /** Compiles in the standard environment (no authorizer configured). */
    public static MatchConditions compile(List<NamedExpression> conditions) throws CelCompileException {
        return compile(KubeCel.standard(), conditions);
    }

    /**
     * Compiles the conditions; fails on more than 64, a duplicate or empty name, or an expression that does not
     * compile to a bool (the exception names the condition).
     */
    public static MatchConditions compile(KubeCel cel, List<NamedExpression> conditions) throws CelCompileException {
        Objects.requireNonNull(conditions, "conditions");
        if (conditions.size() > MAX_CONDITIONS) {
            throw new IllegalArgumentException("too many matchConditions: " + conditions.size() + " (at most "
                    + MAX_CONDITIONS + ")");
        }
        Set<String> names = new HashSet<>();
        ExpressionSet set = new ExpressionSet(cel, List.of(), List.of(),
                Set.of("params", "namespaceObject", "variables"));
        List<CompiledExpression> compiled = new ArrayList<>();
        for (NamedExpression c : conditions) {
            if (c.name().isEmpty()) {
                throw new IllegalArgumentException("matchCondition name must not be empty");
            }
            if (!names.add(c.name())) {
                throw new IllegalArgumentException("duplicate matchCondition name '" + c.name() + "'");
            }
            try {
                compiled.add(set.compile(c.expression(), ResultType.BOOL));
            } catch (CelCompileException e) {
                throw new CelCompileException(c.expression(), e.issues(),
                        "matchCondition '" + c.name() + "': " + e.getMessage());
            }
        }
        return new MatchConditions(cel, List.copyOf(conditions), List.copyOf(compiled));
    }

    /**
     * Reads {@code matchConditions} from a webhook entry (admissionregistration.k8s.io/v1 JSON/YAML tree, e.g.
     * {@code WebhookRegistration.webhook()}); none present means no conditions (always MATCH).
     */
    public static MatchConditions fromWebhook(KubeCel cel, JsonNode webhook) throws CelCompileException {
        List<NamedExpression> list = new ArrayList<>();
        JsonNode mc = webhook == null ? null : webhook.get("matchConditions");
        if (mc != null && !mc.isNull()) {
            if (!mc.isArray()) {
                throw new IllegalArgumentException("matchConditions must be a list");
            }
            for (JsonNode c : mc) {
                JsonNode name = c.get("name");
                JsonNode expr = c.get("expression");
                if (name == null || !name.isTextual() || expr == null || !expr.isTextual()) {
                    throw new IllegalArgumentException("each matchCondition needs a string name and expression: " + c);
                }
                list.add(new NamedExpression(name.asText(), expr.asText()));
            }
        }
        return compile(cel, list);
    }

    public List<NamedExpression> conditions() {
        return conditions;
    }

    public Result evaluate(AdmissionRequest request) {
        return evaluate(AdmissionInput.of(request));
    }

    /** Evaluates the conditions in order: the first false decides; errors are remembered until all are seen. */
    public Result evaluate(AdmissionInput input) {
        Evaluation ev = cel.newEvaluation(input);
        Result firstError = null;
        for (int i = 0; i < compiled.size(); i++) {
            String name = conditions.get(i).name();
            try {
                if (!ev.evaluateBool(compiled.get(i))) {
                    return new Result(Outcome.NO_MATCH, name, null);
                }
            } catch (CelEvaluationError e) {
                if (firstError == null) {
                    firstError = new Result(Outcome.ERROR, name, "matchCondition '" + name + "' failed: "
                            + e.getMessage());
                }
            }
        }
        return firstError != null ? firstError : Result.MATCH;
    }
}
