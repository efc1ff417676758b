package dev.tollgate.knative;

import java.time.Duration;

/** Virtual time: sleeping advances the clock and lets the test's stand-in for the Knative controller act. */
final class FakeTicker implements Deployer.Ticker {

    private long now = 1_000_000_000L;
    private Runnable onSleep = () -> { };
    int sleeps;

    FakeTicker onSleep(Runnable r) {
        this.onSleep = r;
        return this;
    }

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public void sleep(Duration d) {
        now += d.toNanos();
        sleeps++;
        onSleep.run();
    }
}
