package dev.tollgate.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.cel.AdmissionInput;
import dev.tollgate.cel.CelCompileException;
import dev.tollgate.cel.CelEvaluationError;
import dev.tollgate.cel.CompiledExpression;
import dev.tollgate.cel.Evaluation;
import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.ResultType;

/**
 * matchConditions on the project's Kubernetes CEL environment (shared/cel), with the documented semantics: every
 * condition is evaluated; any false skips the webhook (even when others failed); all true calls it; errors with
 * none false are an error, for the webhook's failurePolicy. Expressions are compiled once per webhook.
 */
public final class MatchConditionsSupport implements MatchConditionEvaluator {

    private record Compiled(String name, CompiledExpression expression) {
    }

    private final KubeCel cel;
    private final Map<String, List<Compiled>> byWebhook = new ConcurrentHashMap<>();

    public MatchConditionsSupport(KubeCel cel) {
        this.cel = cel;
    }

    /** The evaluator the CLI uses: the standard Kubernetes environment (no authorizer configured). */
    public static MatchConditionEvaluator evaluator() {
        return new MatchConditionsSupport(KubeCel.standard());
    }

    /**
     * Compiles every webhook's conditions up front: the API server refuses to store a configuration whose
     * conditions do not compile, so these are input errors, not call errors.
     */
    public void compileAll(Configurations configurations) {
        List<String> problems = new ArrayList<>();
        List<Webhook> all = new ArrayList<>(configurations.mutating());
        all.addAll(configurations.validating());
        for (Webhook w : all) {
            try {
                compiled(w);
            } catch (InputException e) {
                problems.add(e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw InputException.of("matchConditions that do not compile", problems);
        }
    }

    @Override
    public Result evaluate(Webhook webhook, AdmissionRequest request, JsonNode namespaceObject) {
        List<Compiled> conditions = compiled(webhook);
        Evaluation ev = cel.newEvaluation(AdmissionInput.of(request).withNamespaceObject(namespaceObject));
        List<String> errors = new ArrayList<>();
        for (Compiled c : conditions) {
            try {
                if (!ev.evaluateBool(c.expression)) {
                    return new Result(Outcome.NO_MATCH, "'" + c.name + "' is false");
                }
            } catch (CelEvaluationError e) {
                errors.add("'" + c.name + "': " + e.getMessage());
            }
        }
        return errors.isEmpty() ? Result.MATCH : new Result(Outcome.ERROR, String.join("; ", errors));
    }

    private List<Compiled> compiled(Webhook webhook) {
        String key = webhook.mutating() + "/" + webhook.configuration() + "/" + webhook.name();
        List<Compiled> done = byWebhook.get(key);
        if (done != null) {
            return done;
        }
        List<Compiled> out = new ArrayList<>();
        for (JsonNode c : webhook.matchConditions()) {
            String name = c.path("name").asText();
            try {
                out.add(new Compiled(name, cel.compile(c.path("expression").asText(), ResultType.BOOL)));
            } catch (CelCompileException e) {
                throw new InputException("webhook " + webhook.name() + " matchCondition '" + name + "': "
                        + e.getMessage());
            }
        }
        byWebhook.put(key, List.copyOf(out));
        return out;
    }
}
