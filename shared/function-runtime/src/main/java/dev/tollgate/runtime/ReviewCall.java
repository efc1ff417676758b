package dev.tollgate.runtime;

import java.util.concurrent.atomic.AtomicBoolean;

import dev.tollgate.admission.AdmissionReview;
import dev.tollgate.admission.conversion.ConversionReview;
import io.vertx.ext.web.RoutingContext;

/**
 * One request's state from the moment its headers arrive, for an admission or a conversion review alike: shared by
 * the gate (event loop), the Funqy function (a worker thread) and the timers. Exactly one answer is sent: whoever claims {@link #answered} first.
 */
final class ReviewCall {

    final long start = System.nanoTime();
    final RoutingContext ctx;
    final FunctionGate gate;
    final AtomicBoolean answered = new AtomicBoolean();
    /** The name of the function whose @Funq method must serve this call (the first path segment). */
    volatile String functionName = "";
    /** What the path resolves to: the function's policy, one of its sub-path policies, or a conversion policy. */
    volatile ServedPolicy policy;
    /** The decoded review, once the function runs: an admission review ... */
    volatile AdmissionReview review;
    /** ... or a conversion review. */
    volatile ConversionReview conversion;
    /** The one timer of the call: the body-read timeout or the deadline, whichever comes next. */
    volatile long timer = -1;
    /** Handed to Funqy's route: from here on a worker will call serve, which finishes the call. */
    volatile boolean dispatched;
    private Thread worker;
    private boolean workerDone;
    private boolean abandoned;

    ReviewCall(RoutingContext ctx, FunctionGate gate) {
        this.ctx = ctx;
        this.gate = gate;
    }

    synchronized void enter() {
        worker = Thread.currentThread();
    }

    synchronized void leave() {
        worker = null;
        Thread.interrupted(); // a late interrupt must not leak into this thread's next task
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

    /** The worker is done with this call. */
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
        ServedPolicy p = policy;
        return p == null ? "" : p.name();
    }

    /** The decoded review's uid, or "". */
    String uid() {
        AdmissionReview r = review;
        ConversionReview c = conversion;
        return r != null ? r.request().uid() : c != null ? c.request().uid() : "";
    }

    long elapsedMicros() {
        return (System.nanoTime() - start) / 1000;
    }
}
