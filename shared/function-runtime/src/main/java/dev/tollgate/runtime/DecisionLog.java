package dev.tollgate.runtime;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;


/**
 * One JSON line per answered request on the logger category {@value #CATEGORY}, which the runtime's configuration
 * prints bare (one JSON object per line, nothing around it) so log pipelines can parse it. Object content is left
 * out unless {@code tollgate.decision-log.include-objects} is switched on for debugging.
 */
@ApplicationScoped
public class DecisionLog {

    public static final String CATEGORY = "tollgate.decision";

    private static final Logger LOG = Logger.getLogger(CATEGORY);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final boolean enabled;
    private final boolean includeObjects;

    DecisionLog() {
        this.enabled = false;
        this.includeObjects = false;
    }

    @Inject
    public DecisionLog(DecisionLogConfig config) {
        this.enabled = config.enabled();
        this.includeObjects = config.includeObjects();
    }

    /**
     * @param function        the policy's name, or "" when the path served none
     * @param verdict         the result's outcome label (allowed, denied, patched, converted, failed, invalid, error,
     *                        bad_request) or refused
     * @param deadlineExceeded whether the answer was given at the deadline, without the policy's answer
     */
    void log(String function, CallResult result, String verdict, long latencyMicros, boolean deadlineExceeded) {
        if (!enabled || !LOG.isInfoEnabled()) {
            return;
        }
        LOG.info(line(function, result, verdict, latencyMicros, deadlineExceeded));
    }

    /** Admission and conversion lines share every field but those the result adds (its subject and details). */
    String line(String function, CallResult result, String verdict, long latencyMicros, boolean deadlineExceeded) {
        ObjectNode line = JSON.createObjectNode();
        line.put("uid", result.uid());
        line.put("function", function);
        line.put("operation", result.operation());
        line.put("kind", result.kind());
        result.subject(line);
        line.put("verdict", verdict);
        line.put("status", result.status());
        result.details(line);
        line.put("latencyMs", latencyMicros / 1000.0);
        if (deadlineExceeded) {
            line.put("deadlineExceeded", true);
        }
        if (!result.error().isEmpty()) {
            line.put("error", result.error());
        }
        if (includeObjects) {
            result.objects(line);
        }
        try {
            return JSON.writeValueAsString(line);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serializes", e);
        }
    }
}
