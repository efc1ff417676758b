package dev.tollgate.simulator.audit;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The progress line on stderr for long runs: objects done / total (as far as the lists have told), the rate, and
 * what is being listed. On a terminal it rewrites one line every second; elsewhere (a Job's log) it prints a line
 * every ten seconds. Off with --no-progress. {@code tollgate audit} counts objects it lists; {@code tollgate replay}
 * counts lines it reads (its own command, unit and activity words).
 */
public final class Progress implements AutoCloseable {

    private final PrintStream err;
    private final boolean enabled;
    private final boolean terminal;
    private final AtomicLong done = new AtomicLong();
    private final AtomicLong total = new AtomicLong();
    private volatile boolean totalKnown = true;
    private volatile String current = "";
    private final long start = System.nanoTime();
    private Thread ticker;
    private final String command;
    private final String unit;
    private final String activity;

    public Progress(PrintStream err, boolean enabled, boolean terminal) {
        this(err, enabled, terminal, "audit", "objects", "listing");
    }

    /** E.g. {@code replay}, {@code lines}, {@code reading}: "replay: 1200 lines, 300 lines/s, reading audit.log". */
    public Progress(PrintStream err, boolean enabled, boolean terminal, String command, String unit,
            String activity) {
        this.err = err;
        this.enabled = enabled;
        this.terminal = terminal;
        this.command = command;
        this.unit = unit;
        this.activity = activity;
    }

    public void start() {
        if (!enabled) {
            return;
        }
        long every = terminal ? 1_000 : 10_000;
        ticker = new Thread(() -> {
            try {
                while (true) {
                    Thread.sleep(every);
                    print(terminal ? "\r" : "", terminal ? "" : "\n");
                }
            } catch (InterruptedException e) {
                // finished
            }
        }, command + "-progress");
        ticker.setDaemon(true);
        ticker.start();
    }

    /** More objects announced by a list (its items plus remainingItemCount), or an unknown count. */
    public void expect(Long count) {
        if (count == null) {
            totalKnown = false;
        } else {
            total.addAndGet(count);
        }
    }

    public void listing(String what) {
        current = what;
    }

    public void done() {
        done.incrementAndGet();
    }

    public long count() {
        return done.get();
    }

    public double seconds() {
        return (System.nanoTime() - start) / 1e9;
    }

    public double rate() {
        double s = seconds();
        return s <= 0 ? 0 : done.get() / s;
    }

    private synchronized void print(String prefix, String suffix) {
        long n = done.get();
        String of = totalKnown && total.get() >= n ? "/" + total.get() : "";
        err.print(prefix + String.format(Locale.ROOT, "%s: %d%s %s, %.0f %s/s, %s %s", command, n, of,
                unit, rate(), unit, activity, current) + (terminal ? "\u001b[K" : "") + suffix);
        err.flush();
    }

    /** The closing line (also with --no-progress: it states the throughput). */
    public void finish() {
        stopTicker();
        synchronized (this) {
            if (enabled && terminal) {
                err.print("\r\u001b[K");
            }
            err.println(String.format(Locale.ROOT, "%s: %d %s in %.1f s (%.0f %s/s)", command, done.get(), unit,
                    seconds(), rate(), unit));
        }
    }

    private void stopTicker() {
        if (ticker != null) {
            ticker.interrupt();
            try {
                ticker.join(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ticker = null;
        }
    }

    /** Stops the ticker; after a failure the error line follows on a line of its own. */
    @Override
    public void close() {
        boolean wasTicking = ticker != null;
        stopTicker();
        if (wasTicking && terminal) {
            err.print("\r\u001b[K");
        }
    }
}
