package dev.tollgate.runtime;

import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.quarkus.runtime.configuration.ConfigurationException;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Counts the body bytes in flight across all requests against {@link BudgetConfig}: a request reserves its declared
 * Content-Length (a whole maximal body when it declares none) before its body is read, and gives it back when its
 * answer has been sent or its connection closed.
 */
@ApplicationScoped
public class BodyBudget {

    private static final Logger LOG = Logger.getLogger(BodyBudget.class);

    private final long capacity;
    private final AtomicLong used = new AtomicLong();

    BodyBudget() {
        this.capacity = 0; // for CDI proxies
    }

    @Inject
    public BodyBudget(BudgetConfig config, AdmissionConfig admission, MeterRegistry registry) {
        this(capacity(config, admission.maxBodyBytes(), Runtime.getRuntime().maxMemory()));
        registry.gauge("tollgate.in.flight.body.bytes", used);
        LOG.infof("in-flight body budget: %d MiB (max heap %d MiB, body limit %d MiB)", capacity >> 20,
                Runtime.getRuntime().maxMemory() >> 20, admission.maxBodyBytes() >> 20);
    }

    BodyBudget(long capacity) {
        this.capacity = capacity;
    }

    /** The configured budget, or the one the heap affords; at least one maximal body, so every review can pass. */
    static long capacity(BudgetConfig config, long maxBodyBytes, long maxHeap) {
        if (config.inFlightBodyBytes().isPresent()) {
            long explicit = config.inFlightBodyBytes().get();
            if (explicit < maxBodyBytes) {
                throw new ConfigurationException("tollgate.budget.in-flight-body-bytes=" + explicit + " is below "
                        + "tollgate.admission.max-body-bytes=" + maxBodyBytes + ": a review at the body limit could "
                        + "never be served");
            }
            return explicit;
        }
        if (config.heapPerBodyByte() < 1) {
            throw new ConfigurationException("tollgate.budget.heap-per-body-byte must be at least 1, got "
                    + config.heapPerBodyByte());
        }
        return Math.max(maxBodyBytes, (maxHeap - config.heapReserveBytes()) / config.heapPerBodyByte());
    }

    public long capacity() {
        return capacity;
    }


    /** Takes {@code bytes} from the budget; false (nothing taken) when they do not fit. */
    boolean tryReserve(long bytes) {
        long now;
        do {
            now = used.get();
            if (now + bytes > capacity) {
                return false;
            }
        } while (!used.compareAndSet(now, now + bytes));
        return true;
    }

    void release(long bytes) {
        used.addAndGet(-bytes);
    }
}
