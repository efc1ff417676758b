package dev.tollgate.runtime;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Context;

/**
 * Runs a bound review's policy under the deadline (counted from the request's arrival) and gives the answer: the
 * policy's, or at the deadline the deadline's ({@code tollgate.deadline.on-timeout}: an error, or an allow or deny in
 * the review's version). At the deadline the policy is interrupted, and counted until it returns; its late answer
 * is dropped.
 */
@ApplicationScoped
public class PolicyRunner {

    private static final Logger LOG = Logger.getLogger(PolicyRunner.class);

    private final AnswerRecorder recorder;
    private final ReviewMetrics metrics;
    private final DeadlineConfig deadline;

    PolicyRunner() {
        this.recorder = null; // for CDI proxies
        this.metrics = null;
        this.deadline = null;
    }

    @Inject
    public PolicyRunner(AnswerRecorder recorder, ReviewMetrics metrics, DeadlineConfig deadline) {
        this.recorder = recorder;
        this.metrics = metrics;
        this.deadline = deadline;
        if (deadline.timeout().isNegative() || deadline.timeout().isZero()) {
            throw new IllegalStateException("tollgate.deadline.timeout must be positive, got " + deadline.timeout());
        }
    }

    /**
     * The answer to {@code input}. The policy runs when Funqy subscribes, on the thread Funqy invoked the function
     * on (a worker thread; should that ever be an event loop, on Mutiny's worker pool instead); the deadline is
     * Mutiny's {@code ifNoItem} timeout, so the answer Funqy writes is always the first of the two.
     */
    Uni<Answer> answer(ReviewInput input) {
        Call call = input.call;
        if (input.error != null) {
            call.finish(metrics);
            return Uni.createFrom().item(recorder.answer(call,
                    call.codecs.refusal(input.error.status(), input.error.getMessage()), false));
        }
        long remainingMicros = deadline.timeout().toNanos() / 1000 - call.elapsedMicros();
        if (remainingMicros <= 0) {
            return Uni.createFrom().item(() -> timedOut(call)); // waited for a worker past the deadline
        }
        Uni<Answer> run = Uni.createFrom().item(() -> run(call));
        if (Context.isOnEventLoopThread()) {
            run = run.runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
        }
        return run.ifNoItem().after(Duration.ofNanos(remainingMicros * 1000)).recoverWithItem(() -> timedOut(call));
    }

    private Answer run(Call call) {
        if (call.answered()) {
            call.finish(metrics); // the deadline passed before a thread was free
            return call.answer();
        }
        CallResult result;
        call.enter();
        try {
            result = call.review().run();
        } finally {
            call.leave();
            call.finish(metrics);
        }
        Answer answer = recorder.answer(call, result, false);
        if (answer.body() != result.body()) {
            LOG.warnf("policy %s returned after %d ms for uid=%s; its answer was dropped, the deadline had already "
                    + "answered", call.functionLabel(), call.elapsedMicros() / 1000, call.uid());
        }
        return answer;
    }

    private Answer timedOut(Call call) {
        String message = "policy " + call.functionLabel() + " did not answer within the deadline of "
                + deadline.timeout().toMillis() + " ms";
        CallResult result = call.review().timedOut(deadline.onTimeout(), message);
        Answer answer = recorder.answer(call, result, true);
        if (answer.body() == result.body()) {
            metrics.deadlineOverrun(call.functionLabel());
            call.abandon(metrics);
            // What was answered, not what was configured: a conversion gets the error whatever on-timeout says.
            String answered = result.status() == 200 ? deadline.onTimeout().name().toLowerCase() : "error";
            LOG.warnf("policy %s did not answer within the deadline of %d ms for uid=%s: answered %d (%s)",
                    call.functionLabel(), deadline.timeout().toMillis(), call.uid(), result.status(), answered);
        }
        return answer;
    }
}
