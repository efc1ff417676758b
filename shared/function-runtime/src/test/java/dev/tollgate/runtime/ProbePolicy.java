package dev.tollgate.runtime;

import jakarta.enterprise.context.ApplicationScoped;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.ValidatingPolicy;
import dev.tollgate.admission.Verdict;

/**
 * A test policy steered by the object's labels: {@code probe=deny} denies, {@code probe=throw} throws,
 * {@code probe=thread} says in a warning whether it ran on an event loop, {@code probe=spin} busy-loops ignoring
 * interrupts for {@code sleep-ms}, {@code probe=cluster} names in a warning the cluster the request says sent it, and
 * {@code sleep-ms=N} sleeps N ms.
 */
@ApplicationScoped
public class ProbePolicy implements ValidatingPolicy {

    @Override
    public Verdict validate(AdmissionRequest request) {
        var labels = request.object() == null ? java.util.Map.<String, String>of() : request.object().labels();
        long sleep = Long.parseLong(labels.getOrDefault("sleep-ms", "0"));
        String mode = labels.getOrDefault("probe", "");
        if (mode.equals("spin")) {
            long until = System.nanoTime() + sleep * 1_000_000;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
        } else if (sleep > 0) {
            try {
                Thread.sleep(sleep);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        return switch (mode) {
            case "deny" -> Verdict.deny(403, "probe says no");
            case "throw" -> throw new IllegalStateException("probe failure");
            case "thread" -> Verdict.allow().withWarning("ran on "
                    + (io.vertx.core.Context.isOnEventLoopThread() ? "an event loop" : "a worker thread"));
            case "cluster" -> Verdict.allow().withWarning("cluster " + request.cluster());
            default -> Verdict.allow();
        };
    }
}
