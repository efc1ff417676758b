package dev.tollgate.runtime;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

/**
 * Makes a result the call's one answer and records it: counted ({@link ReviewMetrics}), logged ({@link DecisionLog})
 * and, when slow, warned about, before it is sent, so whoever reads the answer finds it in the metrics and the log.
 */
@ApplicationScoped
public class AnswerRecorder {

    private static final Logger LOG = Logger.getLogger(AnswerRecorder.class);

    private final ReviewMetrics metrics;
    private final DecisionLog decisions;
    private final DeadlineConfig deadline;

    AnswerRecorder() {
        this.metrics = null; // for CDI proxies
        this.decisions = null;
        this.deadline = null;
    }

    @Inject
    public AnswerRecorder(ReviewMetrics metrics, DecisionLog decisions, DeadlineConfig deadline) {
        this.metrics = metrics;
        this.decisions = decisions;
        this.deadline = deadline;
    }

    /**
     * @return the call's answer: {@code result}'s, or the one chosen before it (then {@code result} is dropped and
     *         nothing is recorded)
     */
    Answer answer(Call call, CallResult result, boolean deadlineExceeded) {
        Answer answer = new Answer(result.status(), result.body());
        if (!call.claim(answer)) {
            return call.answer();
        }
        String function = call.functionLabel();
        long micros = call.elapsedMicros();
        String verdict = result.status() == 503 ? "refused" : result.outcome();
        if (result.refused()) {
            metrics.badRequest(function.isEmpty() ? "none" : function, result.status());
        } else {
            metrics.review(function, call.cluster, orNone(result.operation()), orNone(result.kind()), verdict,
                    result.decision().isEmpty() ? verdict : result.decision(), orNone(result.enforcement()),
                    Duration.ofNanos(micros * 1000));
        }
        decisions.log(function, call.cluster, result, verdict, micros, deadlineExceeded);
        if (!deadlineExceeded && micros >= deadline.slowThreshold().toNanos() / 1000 && !result.refused()) {
            LOG.warnf("slow review: policy %s took %d ms for uid=%s (slow threshold %d ms, deadline %d ms)",
                    function, micros / 1000, result.uid(), deadline.slowThreshold().toMillis(),
                    deadline.timeout().toMillis());
        }
        return answer;
    }

    /** A call whose client went away: nothing is sent, nothing recorded but a debug line. */
    void clientGone(Call call, String why) {
        call.claim(new Answer(499, new byte[0]));
        LOG.debugf("client went away before the answer (%s): %s", call.functionLabel(), why);
    }

    private static String orNone(String label) {
        return label.isEmpty() ? "none" : label;
    }
}
