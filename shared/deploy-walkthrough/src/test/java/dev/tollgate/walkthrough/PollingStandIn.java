package dev.tollgate.walkthrough;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A controller the kit's kube-apiservers do not run, played by the test: {@link #reconcile()} every 100 ms on a
 * daemon thread until closed; what goes wrong is kept for the test to assert on ({@link #problems()}).
 */
abstract class PollingStandIn implements AutoCloseable {

    private final List<String> problems = new CopyOnWriteArrayList<>();
    private final Thread loop;
    private volatile boolean running = true;

    PollingStandIn(String name) {
        this.loop = new Thread(this::loop, name);
        this.loop.setDaemon(true);
    }

    /** Starts polling; called by the subclass once it is constructed. */
    final void start() {
        loop.start();
    }

    /** One pass: bring what the cluster holds to what the controller would make of it. */
    abstract void reconcile();

    final void problem(String problem) {
        problems.add(problem);
    }

    private void loop() {
        while (running) {
            try {
                reconcile();
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (running) {
                    problems.add(e.getMessage());
                }
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    /** What went wrong while standing in (empty when nothing did). */
    final List<String> problems() {
        return new ArrayList<>(problems);
    }

    @Override
    public void close() {
        running = false;
        loop.interrupt();
    }
}
