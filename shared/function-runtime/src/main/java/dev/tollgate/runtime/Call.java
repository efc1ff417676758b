package dev.tollgate.runtime;

import io.vertx.core.buffer.Buffer;

/**
 * One request's state from the moment its headers arrive: made by the edge ({@link ReviewEdge}), carried into the
 * function by its input ({@link ReviewInput}), finished by {@link PolicyRunner}. It refers to nothing of theirs.
 * Exactly one answer is recorded for it: the first {@link #claim}.
 */
final class Call {

    final long start = System.nanoTime();
    /** What the path resolves to, and the codecs that decode its review. */
    final ServedPolicy policy;
    final ReviewCodecs codecs;
    /** The caller's cluster ({@link CallerGate}), or "" when the caller was refused. */
    final String cluster;
    /** Cancels the edge's timer (body-read timeout and deadline before the review is bound). */
    private final Runnable disarm;
    private Answer answer;
    private volatile DecodedReview<?, ?> review;
    private volatile boolean bound;
    private volatile Buffer body;
    private Thread worker;
    private boolean workerDone;
    private boolean abandoned;
    /** Gives the edge's body-budget reservation back; null once given back (or when nothing was reserved). */
    private Runnable budget;
    private boolean responseEnded;

    Call(ServedPolicy policy, ReviewCodecs codecs, String cluster, Runnable disarm) {
        this.policy = policy;
        this.codecs = codecs;
        this.cluster = cluster;
        this.disarm = disarm;
    }

    /** The body has been read (within the byte limit): what the codec decodes when Funqy binds the input. */
    void received(Buffer body) {
        this.body = body;
    }

    /** The body read, or null before it is. */
    Buffer body() {
        return body;
    }

    /** Funqy is binding the body to the function's input: from here on the function answers, not the edge. */
    void bound(DecodedReview<?, ?> decoded) {
        bound = true;
        review = decoded;
        disarm.run();
    }

    boolean isBound() {
        return bound;
    }

    /** The decoded review, or null. */
    DecodedReview<?, ?> review() {
        return review;
    }

    /** Makes {@code candidate} the answer unless one was already chosen. */
    synchronized boolean claim(Answer candidate) {
        if (answer != null) {
            return false;
        }
        answer = candidate;
        disarm.run();
        return true;
    }

    /** The answer chosen, or null. */
    synchronized Answer answer() {
        return answer;
    }

    synchronized boolean answered() {
        return answer != null;
    }

    synchronized void enter() {
        worker = Thread.currentThread();
    }

    synchronized void leave() {
        worker = null;
        Thread.interrupted(); // a late interrupt must not leak into this thread's next task
        if (responseEnded) {
            giveBudgetBack(); // the deadline answered while the policy ran: its objects are free only now
        }
    }

    /** The body bytes this call reserved, given back by {@code release} once, when the call holds them no longer. */
    synchronized void holdBudget(Runnable release) {
        budget = release;
    }

    /**
     * The response has ended. Its body bytes come back now, unless a policy is still running on the review (the
     * deadline answered for it): its decoded review and working copies stay on the heap until it returns, so the
     * bytes come back then ({@link #leave}), or the budget would admit new reviews into a heap still full.
     */
    synchronized void responseEnded() {
        responseEnded = true;
        if (worker == null) {
            giveBudgetBack();
        }
    }

    private void giveBudgetBack() {
        Runnable release = budget;
        budget = null;
        if (release != null) {
            release.run();
        }
    }

    /** The deadline answered: interrupt the policy if it runs, and count it until the worker returns. */
    synchronized void abandon(ReviewMetrics metrics) {
        if (workerDone) {
            return;
        }
        abandoned = true;
        metrics.abandonedStarted();
        if (worker != null) {
            worker.interrupt();
        }
    }

    /** The worker is done with this call (or will never start it). */
    synchronized void finish(ReviewMetrics metrics) {
        if (workerDone) {
            return;
        }
        workerDone = true;
        if (abandoned) {
            metrics.abandonedFinished();
        }
    }

    String functionLabel() {
        return policy == null ? "" : policy.name();
    }

    /** The decoded review's uid, or "". */
    String uid() {
        DecodedReview<?, ?> r = review;
        return r == null ? "" : r.uid();
    }

    long elapsedMicros() {
        return (System.nanoTime() - start) / 1000;
    }
}
