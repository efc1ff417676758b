package dev.tollgate.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.jboss.logmanager.ExtLogRecord;

/**
 * The log records of some categories while a test provokes them on purpose (a slow review, a deadline overrun, a
 * policy that throws, a token file that cannot be used): kept for the test's assertions and off the console, so a
 * passing build does not print warnings and errors that are the expected outcome.
 *
 * <p>Works for plain tests and for {@code @QuarkusTest}: the application runs in the test JVM and logs through the
 * one JBoss LogManager, whose loggers are shared by every class loader; the handler sits on the category's logger
 * and stops its records from reaching the parent (console) handlers until closed. Records logged on another thread
 * after the answer (a policy that returns after its deadline) are waited for with {@link #await}.
 *
 * <pre>{@code
 * try (CapturedLog log = CapturedLog.of(AnswerRecorder.class)) {
 *     post(slowReview).then().statusCode(200);
 *     log.await(Level.WARNING, "slow review: policy probe took");
 * }
 * }</pre>
 *
 * (shared/admission has a plain copy for its own tests: this kit depends on that module, not the other way.)
 */
public final class CapturedLog implements AutoCloseable {

    /** How long {@link #await} waits for a record: far beyond any deadline the tests configure. */
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private final List<Logger> loggers = new ArrayList<>();
    private final List<Boolean> parentHandlers = new ArrayList<>();
    private final List<LogRecord> records = new ArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            synchronized (records) {
                records.add(record);
                records.notifyAll();
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private CapturedLog(List<String> categories) {
        for (String category : categories) {
            Logger logger = Logger.getLogger(category);
            loggers.add(logger);
            parentHandlers.add(logger.getUseParentHandlers());
            logger.addHandler(handler);
            logger.setUseParentHandlers(false);
        }
    }

    /** Captures what the loggers named after {@code sources} (and their sub-categories) write until closed. */
    public static CapturedLog of(Class<?>... sources) {
        List<String> names = new ArrayList<>();
        for (Class<?> source : sources) {
            names.add(source.getName());
        }
        return new CapturedLog(names);
    }

    /** Captures what the named log categories (and their sub-categories) write until closed. */
    public static CapturedLog of(String... categories) {
        return new CapturedLog(List.of(categories));
    }

    public List<LogRecord> records() {
        synchronized (records) {
            return List.copyOf(records);
        }
    }

    /** Each record as {@code LEVEL message}, with the message's parameters filled in. */
    public List<String> lines() {
        return records().stream().map(CapturedLog::line).toList();
    }

    /** The record's message with its parameters filled in (printf or MessageFormat style, as it was logged). */
    public static String message(LogRecord record) {
        if (record instanceof ExtLogRecord ext) {
            return ext.getFormattedMessage();
        }
        return new java.util.logging.SimpleFormatter().formatMessage(record);
    }

    private static String line(LogRecord record) {
        return record.getLevel() + " " + message(record);
    }

    /** The one record written, failing the test when there are more or none. */
    public LogRecord only() {
        List<LogRecord> all = records();
        if (all.size() != 1) {
            throw new AssertionError("expected one log record, got " + all.size() + ": " + lines());
        }
        return all.get(0);
    }

    /**
     * The first record at {@code level} whose message contains every fragment, waiting for it when it has not been
     * written yet (another thread may log it after the test saw the answer); fails the test with what was captured
     * when it does not come.
     */
    public LogRecord await(Level level, String... fragments) {
        Predicate<LogRecord> wanted = r -> {
            // By value: JBoss Logging's WARN and ERROR are levels of their own with the values of WARNING and SEVERE.
            if (r.getLevel().intValue() != level.intValue()) {
                return false;
            }
            String message = message(r);
            for (String fragment : fragments) {
                if (!message.contains(fragment)) {
                    return false;
                }
            }
            return true;
        };
        long until = System.nanoTime() + PATIENCE.toNanos();
        synchronized (records) {
            while (true) {
                for (LogRecord r : records) {
                    if (wanted.test(r)) {
                        return r;
                    }
                }
                long left = until - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("no " + level + " record containing " + List.of(fragments)
                            + " was logged; captured: " + lines());
                }
                try {
                    records.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted while waiting for a log record", e);
                }
            }
        }
    }

    @Override
    public void close() {
        for (int i = 0; i < loggers.size(); i++) {
            loggers.get(i).removeHandler(handler);
            loggers.get(i).setUseParentHandlers(parentHandlers.get(i));
        }
    }
}
