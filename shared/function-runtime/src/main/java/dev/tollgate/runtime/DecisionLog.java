package dev.tollgate.runtime;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.HandlerResult;

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
     * @param verdict         allowed, denied, patched, error or bad_request
     * @param deadlineExceeded whether the answer was given at the deadline, without the policy's verdict
     */
    public void log(String function, HandlerResult result, String verdict, long latencyMicros,
            boolean deadlineExceeded) {
        if (!enabled || !LOG.isInfoEnabled()) {
            return;
        }
        LOG.info(line(function, result, verdict, latencyMicros, deadlineExceeded));
    }

    String line(String function, HandlerResult result, String verdict, long latencyMicros,
            boolean deadlineExceeded) {
        ObjectNode line = JSON.createObjectNode();
        AdmissionRequest request = result.review() == null ? null : result.review().request();
        line.put("uid", request == null ? "" : request.uid());
        line.put("function", function);
        line.put("operation", request == null ? "" : request.operation().name());
        line.put("kind", request == null ? "" : request.kind().kind());
        line.put("namespace", request == null ? "" : request.namespace());
        line.put("name", request == null ? "" : request.name());
        line.put("user", request == null ? "" : request.userInfo().username());
        line.put("verdict", verdict);
        line.put("status", result.status());
        if (result.verdict() != null && !result.verdict().allowed()) {
            line.put("code", result.verdict().code());
        }
        line.put("patchOps", result.patchOps());
        line.put("latencyMs", latencyMicros / 1000.0);
        if (deadlineExceeded) {
            line.put("deadlineExceeded", true);
        }
        if (!result.error().isEmpty()) {
            line.put("error", result.error());
        }
        if (includeObjects && request != null) {
            line.set("object", request.object() == null ? null : request.object().json());
            line.set("oldObject", request.oldObject() == null ? null : request.oldObject().json());
        }
        try {
            return JSON.writeValueAsString(line);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serializes", e);
        }
    }
}
