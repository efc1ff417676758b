package dev.tollgate.loadtest;

import jakarta.enterprise.context.ApplicationScoped;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.ValidatingPolicy;
import dev.tollgate.admission.Verdict;

/**
 * A deliberately slow policy for the load and fault test: sleeps for the object's {@code sleep-ms} label (a test
 * knob, bounded at 60 s), then allows. It stands for a policy stuck on a slow dependency.
 */
@ApplicationScoped
public class SlowPolicy implements ValidatingPolicy {

    @Override
    public Verdict validate(AdmissionRequest request) {
        String value = request.object() == null ? "0" : request.object().labels().getOrDefault("sleep-ms", "0");
        long ms;
        try {
            ms = Math.min(60_000, Math.max(0, Long.parseLong(value)));
        } catch (NumberFormatException e) {
            return Verdict.deny(400, "sleep-ms must be a number of milliseconds");
        }
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("abandoned at the deadline", e);
        }
        return Verdict.allow();
    }
}
