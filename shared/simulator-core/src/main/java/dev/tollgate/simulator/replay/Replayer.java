package dev.tollgate.simulator.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.function.Function;

import dev.tollgate.simulator.InputException;
import dev.tollgate.simulator.ManifestReport;
import dev.tollgate.simulator.Simulator;

/**
 * Feeds recorded requests through a candidate set of webhooks and compares each answer with the baseline: what the
 * log recorded, or (given a baseline simulator) what a served set answers to the same request. Line by line: a log of
 * any size is read in the memory of its caches ({@link ReplayReader}) and the report's capped examples.
 */
public final class Replayer {

    /** Reason for a request the simulator refused (an object that does not decode, an unsupported operation). */
    public static final String REFUSED = "the simulator cannot review it";

    private final Simulator candidate;
    private final Simulator baseline;
    private final Function<String, String> functionOf;
    private final ReplayReader reader;
    private final ReplayReport report;
    private final java.util.function.BiPredicate<String, java.time.Instant> registered;

    /**
     * @param baseline a simulator of the set to compare with, or null to compare with what the log recorded
     */
    public Replayer(Simulator candidate, Simulator baseline, Function<String, String> functionOf, ReplayReader reader,
            ReplayReport report) {
        this(candidate, baseline, functionOf, reader, report, Registrations.none(), java.util.List.of());
    }

    /**
     * @param registrations when the log shows the webhooks registered
     * @param webhooks      the candidate set's webhooks: a function is registered at a time when one of its webhooks
     *                      is
     */
    public Replayer(Simulator candidate, Simulator baseline, Function<String, String> functionOf, ReplayReader reader,
            ReplayReport report, Registrations registrations, java.util.List<dev.tollgate.simulator.Webhook> webhooks) {
        this.candidate = candidate;
        this.baseline = baseline;
        this.functionOf = functionOf;
        this.reader = reader;
        this.report = report;
        this.registered = (function, time) -> {
            boolean any = false;
            for (dev.tollgate.simulator.Webhook w : webhooks) {
                if (functionOf.apply(w.name()).equals(function)) {
                    any = true;
                    if (registrations.registeredAt(w, time)) {
                        return true;
                    }
                }
            }
            return !any; // a function the candidate set does not name: nothing says when it was registered
        };
    }

    /** Replays every line of one source ({@code name} for file:line), calling {@code perLine} after each. */
    public void replay(String name, BufferedReader in, Runnable perLine) throws IOException {
        long n = 0;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            n++;
            handle(line, name + ":" + n);
            perLine.run();
        }
    }

    /** One line. */
    public void handle(String line, String source) {
        report.line();
        ReplayItem item = reader.read(line, source);
        if (item instanceof ReplayItem.Request r) {
            replay(r);
        } else if (item instanceof ReplayItem.NotReplayed s) {
            report.notReplayed(s.source(), s.reason(), s.detail());
        } else if (item instanceof ReplayItem.Unreadable u) {
            report.unreadable(u);
        } else {
            report.ignored();
        }
    }

    private void replay(ReplayItem.Request r) {
        Outcome before;
        Outcome after;
        try {
            before = baseline == null ? r.recorded() : review(baseline, r);
            after = review(candidate, r);
        } catch (InputException e) {
            report.notReplayed(r.source(), REFUSED, r.ref() + ": " + e.getMessage().lines().findFirst().orElse(""));
            return;
        }
        report.compared(r, before, after, registered);
    }

    private Outcome review(Simulator simulator, ReplayItem.Request r) {
        ManifestReport result = simulator.review(r.manifest(), r.settings());
        return r.function() == null ? Outcome.of(result, functionOf)
                : Outcome.forCall(result, functionOf, r.function(), r.recorded());
    }
}
