package dev.tollgate.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.cel.CelCompileException;
import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.MatchConditions;

/**
 * matchConditions through the project's evaluator ({@link MatchConditions} in shared/cel), which applies the
 * documented semantics: any condition false skips the webhook (even when others failed); all true calls it; errors
 * with none false are an error for the webhook's failurePolicy. Conditions see object, oldObject, request and
 * authorizer, as in the API server (not namespaceObject). Compiled once per webhook.
 */
public final class MatchConditionsSupport implements MatchConditionEvaluator {

    /** The prefix of the condition Terraform renders for each exception (terraform/README.md, "Exceptions"). */
    static final String EXCEPTION_CONDITION = "exception.tollgate.dev/";

    private final KubeCel cel;
    private final Map<String, MatchConditions> byWebhook = new ConcurrentHashMap<>();

    public MatchConditionsSupport(KubeCel cel) {
        this.cel = cel;
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
        MatchConditions.Result r = compiled(webhook).evaluate(request);
        return switch (r.outcome()) {
            case MATCH -> Result.MATCH;
            case NO_MATCH -> new Result(Outcome.NO_MATCH, r.condition().startsWith(EXCEPTION_CONDITION)
                    ? Simulator.EXCEPTED + r.condition().substring(EXCEPTION_CONDITION.length()) + " ('" + r.condition()
                            + "' is false)"
                    : "'" + r.condition() + "' is false");
            case ERROR -> new Result(Outcome.ERROR, "'" + r.condition() + "': " + r.message());
        };
    }

    private MatchConditions compiled(Webhook webhook) {
        String key = webhook.mutating() + "/" + webhook.configuration() + "/" + webhook.name();
        MatchConditions done = byWebhook.get(key);
        if (done != null) {
            return done;
        }
        try {
            MatchConditions mc = MatchConditions.fromWebhook(cel, webhook.entry());
            byWebhook.put(key, mc);
            return mc;
        } catch (CelCompileException | IllegalArgumentException e) {
            throw new InputException("webhook " + webhook.name() + " (" + webhook.configuration() + ") "
                    + "matchConditions: " + e.getMessage());
        }
    }
}
