package dev.tollgate.runtime;

import java.io.IOException;
import java.io.StringWriter;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;

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
     * @param cluster         the caller's cluster, or "" for a refused caller
     * @param verdict         what was answered: the result's outcome label (allowed, denied, patched, converted,
     *                        failed, invalid, error, bad_request) or refused; the line adds what the policy decided
     *                        ({@code decision}) and the call's {@code enforcement} mode when a review was decoded
     * @param deadlineExceeded whether the answer was given at the deadline, without the policy's answer
     */
    void log(String function, String cluster, CallResult result, String verdict, long latencyMicros,
            boolean deadlineExceeded) {
        if (!enabled || !LOG.isInfoEnabled()) {
            return;
        }
        LOG.info(line(function, cluster, result, verdict, latencyMicros, deadlineExceeded));
    }

    /**
     * Admission and conversion lines share every field but those the result adds (its subject and details). Written
     * straight to a generator: building a tree first cost a node per field on every request.
     */
    String line(String function, String cluster, CallResult result, String verdict, long latencyMicros,
            boolean deadlineExceeded) {
        StringWriter out = new StringWriter(512); // a line is 300-500 characters: one buffer
        try (JsonGenerator line = JSON.createGenerator(out)) {
            line.writeStartObject();
            line.writeStringField("uid", result.uid());
            line.writeStringField("function", function);
            line.writeStringField("cluster", cluster);
            line.writeStringField("operation", result.operation());
            line.writeStringField("kind", result.kind());
            result.subject(line);
            line.writeStringField("verdict", verdict);
            if (!result.decision().isEmpty()) {
                line.writeStringField("decision", result.decision());
                line.writeStringField("enforcement", result.enforcement());
            }
            line.writeNumberField("status", result.status());
            result.details(line);
            line.writeNumberField("latencyMs", latencyMicros / 1000.0);
            if (deadlineExceeded) {
                line.writeBooleanField("deadlineExceeded", true);
            }
            if (!result.error().isEmpty()) {
                line.writeStringField("error", result.error());
            }
            if (includeObjects) {
                result.objects(line);
            }
            line.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException("a decision line always serializes", e);
        }
        return out.toString();
    }
}
