package dev.tollgate.simulator;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Renders manifest reports for people (text) and for machines (JSON). */
public final class Reports {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private Reports() {
    }

    /** The readable report with every webhook listed, also those skipped. */
    public static String text(List<ManifestReport> reports) {
        return text(reports, true);
    }

    /**
     * The readable report: one block per manifest, then a summary line. Unless {@code verbose}, the webhooks that were
     * skipped are counted rather than listed (most webhooks skip most objects).
     */
    public static String text(List<ManifestReport> reports, boolean verbose) {
        StringBuilder sb = new StringBuilder();
        for (ManifestReport r : reports) {
            text(r, verbose, sb);
            sb.append('\n');
        }
        sb.append(summary(reports)).append('\n');
        return sb.toString();
    }

    public static String summary(List<ManifestReport> reports) {
        long denied = reports.stream().filter(r -> !r.allowed()).count();
        return reports.size() + " manifest" + (reports.size() == 1 ? "" : "s") + ": " + (reports.size() - denied)
                + " allowed, " + denied + " denied";
    }

    private static void text(ManifestReport r, boolean verbose, StringBuilder sb) {
        sb.append("== ").append(r.source()).append(": ").append(r.objectRef()).append(" (").append(r.operation())
                .append(r.dryRun() ? ", dry run" : "").append(")\n");
        if (r.allowed()) {
            sb.append("ALLOWED\n");
        } else {
            sb.append("DENIED (").append(r.code()).append("): ").append(r.message()).append('\n');
        }
        for (String note : r.notes()) {
            sb.append("  note: ").append(note).append('\n');
        }
        if (!r.defaulted().isEmpty()) {
            sb.append("  defaulted before the webhooks (as the API server does): ").append(r.defaulted().size())
                    .append(r.defaulted().size() == 1 ? " field" : " fields");
            if (verbose) {
                sb.append(": ").append(String.join(", ", r.defaulted()));
            } else {
                sb.append(" (-v lists them)");
            }
            sb.append('\n');
        }
        if (!r.calls().isEmpty() && r.calls().stream().noneMatch(c -> c.result().called())) {
            // Said even without -v: an object no webhook is sent looks allowed, yet no policy saw it.
            sb.append("  sent to no webhook: ").append(String.join("; ", r.calls().stream().map(CallRecord::detail)
                    .distinct().toList())).append('\n');
        }
        List<CallRecord> shown = verbose ? r.calls()
                : r.calls().stream().filter(c -> c.result().called()).toList();
        long hidden = r.calls().size() - shown.size();
        if (!r.calls().isEmpty()) {
            sb.append("  webhooks:");
            if (hidden > 0) {
                sb.append(" (").append(hidden).append(" skipped, not shown; -v lists them)");
            }
            sb.append('\n');
            int width = shown.stream().mapToInt(c -> c.webhook().length()).max().orElse(10);
            for (CallRecord c : shown) {
                String where = c.phase() + (c.phase().equals("mutating") ? " round " + c.round() : "") + " #"
                        + c.index();
                sb.append(String.format(Locale.ROOT, "    %-26s %-" + width + "s  %-13s %9s", where, c.webhook(),
                        c.result().name().toLowerCase(Locale.ROOT).replace('_', ' '),
                        c.result().called() && c.latencyMicros() > 0 ? millis(c.latencyMicros()) : ""));
                if (!c.detail().isEmpty()) {
                    sb.append("  ").append(c.detail());
                }
                sb.append('\n');
            }
        }
        if (!r.warnings().isEmpty()) {
            sb.append("  warnings:\n");
            r.warnings().forEach(w -> sb.append("    Warning: ").append(w).append('\n'));
        }
        if (!r.auditAnnotations().isEmpty()) {
            sb.append("  audit annotations:\n");
            r.auditAnnotations().entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .forEach(e -> sb.append("    ").append(e.getKey()).append(": ").append(e.getValue()).append('\n'));
        }
        if (r.result() != null && !r.patch().isEmpty()) {
            sb.append(r.allowed() ? "  final object (diff from submitted, defaults included):\n"
                    : "  object when rejected (diff from submitted, defaults included):\n");
            sb.append("    --- submitted\n    +++ ").append(r.allowed() ? "admitted" : "at rejection").append('\n');
            for (String line : LineDiff.unified(Yaml.write(r.submitted()).stripTrailing(),
                    Yaml.write(r.result()).stripTrailing())) {
                sb.append("    ").append(line).append('\n');
            }
        } else if (r.allowed() && r.result() != null) {
            sb.append("  final object: unchanged\n");
        }
    }

    private static String millis(long micros) {
        return String.format(Locale.ROOT, "%.1f ms", micros / 1000.0);
    }

    /** The JSON report: {@code {"summary": {...}, "manifests": [...]}}. */
    public static String json(List<ManifestReport> reports) {
        ObjectNode root = F.objectNode();
        ObjectNode summary = root.putObject("summary");
        long denied = reports.stream().filter(r -> !r.allowed()).count();
        summary.put("manifests", reports.size());
        summary.put("allowed", reports.size() - denied);
        summary.put("denied", denied);
        ArrayNode list = root.putArray("manifests");
        for (ManifestReport r : reports) {
            list.add(json(r));
        }
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    public static ObjectNode json(ManifestReport r) {
        ObjectNode m = F.objectNode();
        m.put("source", r.source());
        m.put("kind", r.kind());
        m.put("namespace", r.namespace());
        m.put("name", r.name());
        m.put("operation", r.operation());
        m.put("dryRun", r.dryRun());
        m.put("allowed", r.allowed());
        m.put("code", r.code());
        m.put("message", r.message());
        ArrayNode calls = m.putArray("webhooks");
        for (CallRecord c : r.calls()) {
            ObjectNode n = calls.addObject();
            n.put("phase", c.phase());
            n.put("round", c.round());
            n.put("index", c.index());
            n.put("configuration", c.configuration());
            n.put("webhook", c.webhook());
            n.put("result", c.result().name().toLowerCase(Locale.ROOT));
            n.put("detail", c.detail());
            n.put("latencyMillis", c.latencyMicros() / 1000.0);
            if (c.patch() != null) {
                n.set("patch", c.patch());
            }
            ArrayNode w = n.putArray("warnings");
            c.warnings().forEach(w::add);
        }
        ArrayNode warnings = m.putArray("warnings");
        r.warnings().forEach(warnings::add);
        ObjectNode audit = m.putObject("auditAnnotations");
        r.auditAnnotations().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> audit.put(e.getKey(), e.getValue()));
        ArrayNode notes = m.putArray("notes");
        r.notes().forEach(notes::add);
        ArrayNode defaulted = m.putArray("defaulted");
        r.defaulted().forEach(defaulted::add);
        m.set("patch", r.patch());
        m.set("object", r.result() == null ? F.nullNode() : r.result());
        return m;
    }
}
