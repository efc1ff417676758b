package dev.tollgate.simulator.audit;

import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.simulator.audit.AuditResults.Finding;
import dev.tollgate.simulator.audit.AuditResults.KindCounts;
import dev.tollgate.simulator.audit.AuditResults.WebhookCounts;
import dev.tollgate.simulator.audit.AuditResults.WebhookOutcome;

/** The audit's report for people (tables, then what would be denied or changed) and for machines (JSON). */
public final class AuditOutput {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** Where and how the run happened, for the report's head. */
    public record Run(String cluster, String operation, String scope, double seconds) {
    }

    private AuditOutput() {
    }

    public static String text(Run run, AuditResults r) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Audit of %s (%s) as %s: %d objects in %.1f s%n", run.cluster(),
                run.scope(), run.operation(), r.objects(), run.seconds()));
        sb.append('\n');
        List<WebhookCounts> hooks = r.webhooks();
        int width = Math.max(7, hooks.stream().mapToInt(w -> w.webhook.length()).max().orElse(7));
        sb.append(String.format(Locale.ROOT, "%-" + width + "s  %-10s %8s %6s %6s %6s %6s%n", "WEBHOOK", "PHASE",
                "MATCHED", "DENY", "WARN", "PATCH", "ERRORS"));
        for (WebhookCounts w : hooks) {
            sb.append(String.format(Locale.ROOT, "%-" + width + "s  %-10s %8d %6d %6d %6d %6d%n", w.webhook, w.phase,
                    w.matched, w.denied, w.warned, w.patched, w.errors));
        }
        sb.append('\n');
        List<KindCounts> kinds = r.kinds();
        int kw = Math.max(4, kinds.stream().mapToInt(k -> (k.apiVersion + " " + k.kind).length()).max().orElse(4));
        sb.append(String.format(Locale.ROOT, "%-" + kw + "s %8s %7s %8s%n", "KIND", "OBJECTS", "DENIED", "CHANGED"));
        for (KindCounts k : kinds) {
            sb.append(String.format(Locale.ROOT, "%-" + kw + "s %8d %7d %8d%n", k.apiVersion + " " + k.kind,
                    k.objects, k.denied, k.changed));
        }
        List<Finding> findings = r.findings();
        List<Finding> denied = findings.stream().filter(f -> !f.allowed()).toList();
        List<Finding> changed = findings.stream().filter(Finding::changed).toList();
        if (!denied.isEmpty()) {
            sb.append("\nWould be denied (").append(denied.size()).append("):\n");
            for (Finding f : denied) {
                sb.append("  ").append(f.ref()).append(": ").append(f.message()).append('\n');
            }
        }
        if (!changed.isEmpty()) {
            sb.append("\nWould be changed (").append(changed.size()).append("):\n");
            for (Finding f : changed) {
                sb.append("  ").append(f.ref()).append(": ");
                String by = String.join(", ", f.webhooks().stream().filter(o -> o.patch() != null
                        && !o.patch().isEmpty()).map(WebhookOutcome::webhook).distinct().toList());
                sb.append(f.patch()).append(by.isEmpty() ? "" : " (" + by + ")").append('\n');
            }
        }
        if (!r.notes().isEmpty() || !r.unreviewed().isEmpty()) {
            sb.append("\nNotes:\n");
            r.notes().forEach(n -> sb.append("  ").append(n).append('\n'));
            r.unreviewed().forEach(n -> sb.append("  not reviewed: ").append(n).append('\n'));
        }
        sb.append('\n').append(summary(r)).append('\n');
        return sb.toString();
    }

    public static String summary(AuditResults r) {
        return r.objects() + " object" + (r.objects() == 1 ? "" : "s") + ": " + (r.objects() - r.denied())
                + " allowed (" + r.changed() + " would be changed, " + r.warned() + " with warnings), " + r.denied()
                + " would be denied, " + r.untouched() + " matched by no webhook";
    }

    public static String json(Run run, AuditResults r) {
        ObjectNode root = F.objectNode();
        root.put("cluster", run.cluster());
        root.put("scope", run.scope());
        root.put("operation", run.operation());
        ObjectNode s = root.putObject("summary");
        s.put("objects", r.objects());
        s.put("allowed", r.objects() - r.denied());
        s.put("denied", r.denied());
        s.put("changed", r.changed());
        s.put("warned", r.warned());
        s.put("untouched", r.untouched());
        s.put("errors", r.errors());
        s.put("seconds", Math.round(run.seconds() * 1000) / 1000.0);
        s.put("objectsPerSecond", run.seconds() <= 0 ? 0 : Math.round(r.objects() / run.seconds()));
        ArrayNode hooks = root.putArray("webhooks");
        for (WebhookCounts w : r.webhooks()) {
            hooks.addObject().put("webhook", w.webhook).put("configuration", w.configuration).put("phase", w.phase)
                    .put("matched", w.matched).put("denied", w.denied).put("warned", w.warned)
                    .put("patched", w.patched).put("errors", w.errors);
        }
        ArrayNode kinds = root.putArray("kinds");
        for (KindCounts k : r.kinds()) {
            kinds.addObject().put("apiVersion", k.apiVersion).put("kind", k.kind).put("objects", k.objects)
                    .put("denied", k.denied).put("changed", k.changed);
        }
        ArrayNode list = root.putArray("findings");
        for (Finding f : r.findings()) {
            ObjectNode n = list.addObject();
            n.put("apiVersion", f.apiVersion()).put("kind", f.kind()).put("namespace", f.namespace())
                    .put("name", f.name()).put("uid", f.uid()).put("allowed", f.allowed()).put("code", f.code())
                    .put("message", f.message());
            n.set("patch", f.patch() == null ? F.arrayNode() : f.patch());
            ArrayNode w = n.putArray("warnings");
            f.warnings().forEach(w::add);
            ArrayNode outcomes = n.putArray("webhooks");
            for (WebhookOutcome o : f.webhooks()) {
                ObjectNode on = outcomes.addObject().put("webhook", o.webhook()).put("phase", o.phase())
                        .put("result", o.verdict().wire()).put("detail", o.detail());
                if (o.patch() != null) {
                    on.set("patch", o.patch());
                }
            }
        }
        ArrayNode notes = root.putArray("notes");
        r.notes().forEach(notes::add);
        ArrayNode unreviewed = root.putArray("unreviewed");
        r.unreviewed().forEach(unreviewed::add);
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
