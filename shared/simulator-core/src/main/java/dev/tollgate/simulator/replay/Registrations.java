package dev.tollgate.simulator.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.simulator.Webhook;

/**
 * When the audit log shows each webhook registered: the writes of Mutating/ValidatingWebhookConfigurations
 * (admissionregistration.k8s.io; logged at Metadata level or above). A request the log records before its webhook's
 * configuration was created was never sent to that webhook, so a replay that finds its answer different has found
 * no change ({@link ReplayReport#BEFORE_REGISTRATION}): the API server's own bootstrap objects (Service
 * default/kubernetes, its namespaces) are logged before any webhook exists. The whole log is read for these writes
 * before the replay ({@link #scan}), because a request is logged before the registration that comes after it.
 *
 * <p>
 * At Request level and above the event holds the configuration, whose webhooks are known by name from the time of
 * its first create or update. At Metadata level it does not: such a configuration stands for every webhook of its
 * kind (mutating or validating) that no configuration in the log names. A webhook the log says nothing about was
 * registered before the log begins.
 */
public final class Registrations {

    private static final String GROUP = "admissionregistration.k8s.io";

    /** Webhook name to the earliest time a configuration holding it was written. */
    private final Map<String, Instant> byWebhook = new HashMap<>();
    /** Mutating (true) or validating to the earliest write of a configuration whose webhooks the log does not hold. */
    private final Map<Boolean, Instant> unknownContent = new HashMap<>();

    /** A log with no registrations: every webhook registered before it begins. */
    public static Registrations none() {
        return new Registrations();
    }

    /** Reads every line of one log for the configurations' writes. */
    public void scan(BufferedReader in) throws IOException {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.contains("webhookconfigurations")) {
                read(line);
            }
        }
    }

    void read(String line) {
        JsonNode e;
        try {
            e = ReplayReader.JSON.readTree(line);
        } catch (JsonProcessingException ex) {
            return;
        }
        JsonNode ref = e.path("objectRef");
        String resource = ref.path("resource").asText();
        boolean mutating = resource.equals("mutatingwebhookconfigurations");
        if (!e.path("stage").asText().equals("ResponseComplete") || !GROUP.equals(ref.path("apiGroup").asText())
                || !(mutating || resource.equals("validatingwebhookconfigurations"))
                || !List.of("create", "update", "patch").contains(e.path("verb").asText())) {
            return;
        }
        int code = e.path("responseStatus").path("code").asInt(0);
        Instant at = time(e, "stageTimestamp");
        if (code < 200 || code >= 300 || at == null) {
            return;
        }
        JsonNode object = e.path("responseObject").path("webhooks").isArray() ? e.path("responseObject")
                : e.path("requestObject");
        if (object.path("webhooks").isArray()) {
            object.path("webhooks").forEach(w -> byWebhook.merge(w.path("name").asText(), at, Registrations::min));
        } else {
            unknownContent.merge(mutating, at, Registrations::min);
        }
    }

    /** Whether the log shows this webhook registered at {@code t} (null: the time is not known, taken as yes). */
    public boolean registeredAt(Webhook webhook, Instant t) {
        if (t == null) {
            return true;
        }
        Instant since = byWebhook.get(webhook.name());
        if (since == null) {
            since = unknownContent.get(webhook.mutating());
        }
        return since == null || !t.isBefore(since);
    }

    /** Whether the log shows any configuration written. */
    public boolean any() {
        return !byWebhook.isEmpty() || !unknownContent.isEmpty();
    }

    /** An event's RFC 3339 time field, or null. */
    static Instant time(JsonNode e, String field) {
        String text = e.path(field).asText("");
        if (text.isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException ex) {
            return null;
        }
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
