package dev.tollgate.admission;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The log records of one logger while a test provokes them on purpose: kept for the test's assertions and off the
 * console, so a passing build does not print errors that are the expected outcome.
 */
public final class CapturedLog implements AutoCloseable {

    private final Logger logger;
    private final boolean parentHandlers;
    private final List<LogRecord> records = new ArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            synchronized (records) {
                records.add(record);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private CapturedLog(Class<?> source) {
        logger = Logger.getLogger(source.getName());
        parentHandlers = logger.getUseParentHandlers();
        logger.addHandler(handler);
        logger.setUseParentHandlers(false);
    }

    /** Captures what {@code source}'s logger (named after the class) writes until closed. */
    public static CapturedLog of(Class<?> source) {
        return new CapturedLog(source);
    }

    public List<LogRecord> records() {
        synchronized (records) {
            return List.copyOf(records);
        }
    }

    /** The one record written, failing the test when there are more or none. */
    public LogRecord only() {
        List<LogRecord> all = records();
        if (all.size() != 1) {
            throw new AssertionError("expected one log record, got " + all.size());
        }
        return all.get(0);
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
        logger.setUseParentHandlers(parentHandlers);
    }
}
