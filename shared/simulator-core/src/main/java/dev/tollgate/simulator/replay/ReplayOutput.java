package dev.tollgate.simulator.replay;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The replay's report for people (a table per function, examples, what was not replayed) and machines (JSON). */
public final class ReplayOutput {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * How the replay ran.
     *
     * @param sources  the files read ({@code -} for stdin)
     * @param target   the candidate set, e.g. {@code the in-process bundle}
     * @param baseline {@code recorded} or a description of the served set
     */
    public record Run(List<String> sources, String target, String baseline, int cacheCapacity, long cacheEvicted) {
    }

    private ReplayOutput() {
    }

    public static String text(Run run, ReplayReport r) {
        StringBuilder sb = new StringBuilder();
        sb.append("replay of ").append(String.join(", ", run.sources())).append(": ").append(r.lines())
                .append(r.lines() == 1 ? " line, " : " lines, ").append(r.replayed())
                .append(r.replayed() == 1 ? " request" : " requests").append(" replayed against ").append(run.target())
                .append("; baseline: ").append(run.baseline()).append('\n');
        if (!r.functions().isEmpty()) {
            sb.append('\n');
            String head = String.format(Locale.ROOT, "%-24s %9s", "FUNCTION", "REPLAYED");
            StringBuilder header = new StringBuilder(head);
            for (Change c : Change.values()) {
                header.append(String.format(Locale.ROOT, " %16s", c.label().toUpperCase(Locale.ROOT)));
            }
            header.append(String.format(Locale.ROOT, " %10s", "UNCHANGED"));
            sb.append(header).append('\n');
            for (Map.Entry<String, ReplayReport.FunctionStats> e : r.functions().entrySet()) {
                ReplayReport.FunctionStats s = e.getValue();
                sb.append(String.format(Locale.ROOT, "%-24s %9d", e.getKey(), s.replayed()));
                for (Change c : Change.values()) {
                    boolean compared = !(c == Change.WARNINGS_ADDED || c == Change.WARNINGS_LOST)
                            || r.warningsCompared();
                    sb.append(String.format(Locale.ROOT, " %16s", compared ? Long.toString(s.count(c)) : "-"));
                }
                sb.append(String.format(Locale.ROOT, " %10d", s.unchanged())).append('\n');
            }
            for (Map.Entry<String, ReplayReport.FunctionStats> e : r.functions().entrySet()) {
                for (Change c : Change.values()) {
                    List<ReplayReport.Example> examples = e.getValue().examples(c);
                    if (examples.isEmpty()) {
                        continue;
                    }
                    long count = e.getValue().count(c);
                    sb.append("\n== ").append(e.getKey()).append(": ").append(c.label()).append(" (").append(count)
                            .append(count > examples.size() ? ", " + examples.size() + " shown" : "").append(")\n");
                    for (ReplayReport.Example x : examples) {
                        sb.append("  ").append(x.ref()).append("  ").append(x.source()).append('\n');
                        sb.append("    before: ").append(x.before().isEmpty() ? "-" : x.before()).append('\n');
                        sb.append("    after:  ").append(x.after().isEmpty() ? "-" : x.after()).append('\n');
                    }
                }
            }
        }
        if (r.beforeRegistration() != null) {
            ReplayReport.Skipped b = r.beforeRegistration();
            sb.append("\nBefore registration: ").append(b.count()).append(" (answered differently now, but made "
                    + "before the webhooks whose answer differs were registered: not changes)\n")
                    .append("          e.g. ").append(b.firstSource()).append(": ").append(b.firstDetail())
                    .append('\n');
        }
        if (!r.namespacesFrom().isEmpty()) {
            sb.append("\nNamespaces of the replayed requests: ").append(namespaces(r)).append('\n');
        }
        if (!r.notReplayed().isEmpty()) {
            sb.append("\nNot replayed: ").append(r.notReplayedTotal()).append('\n');
            r.notReplayed().forEach((reason, s) -> sb.append(String.format(Locale.ROOT,
                    "  %6d  %s%n          e.g. %s: %s%n", s.count(), reason, s.firstSource(), s.firstDetail())));
        }
        if (r.unreadable() > 0) {
            sb.append("\nUnreadable lines: ").append(r.unreadable()).append('\n');
            r.unreadableExamples().forEach(u -> sb.append("  ").append(u.source()).append(": ").append(u.why())
                    .append('\n'));
        }
        sb.append('\n');
        if (!r.warningsCompared()) {
            sb.append("Warnings are compared only against a served baseline (--baseline-url): audit logs and "
                    + "decision logs do not record them.\n");
        }
        if (run.cacheEvicted() > 0) {
            sb.append("The cache of stored objects (").append(run.cacheCapacity()).append(") was full: ")
                    .append(run.cacheEvicted()).append(" objects left it; later UPDATEs and DELETEs of them were "
                            + "not replayed.\n");
        }
        sb.append(summary(r)).append('\n');
        return sb.toString();
    }

    public static String summary(ReplayReport r) {
        return r.changed() + " of " + r.replayed() + " replayed requests changed; "
                + (r.beforeRegistration() == null ? "" : r.beforeRegistration().count() + " before registration, ")
                + r.notReplayedTotal() + " not replayed, " + r.unreadable() + " unreadable lines"
                + (r.namespacesFrom().isEmpty() ? "" : "; namespaces from " + namespaces(r));
    }

    /** e.g. {@code the log 12, --namespaces 3}: where the replayed requests' Namespaces came from, most first. */
    static String namespaces(ReplayReport r) {
        return r.namespacesFrom().entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .map(e -> e.getKey() + " " + e.getValue()).collect(java.util.stream.Collectors.joining(", "));
    }

    public static String json(Run run, ReplayReport r) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode sources = root.putArray("sources");
        run.sources().forEach(sources::add);
        root.put("target", run.target());
        root.put("baseline", run.baseline());
        root.put("lines", r.lines());
        root.put("ignoredLines", r.ignoredLines());
        root.put("replayed", r.replayed());
        root.put("changed", r.changed());
        root.put("warningsCompared", r.warningsCompared());
        ObjectNode functions = root.putObject("functions");
        r.functions().forEach((f, s) -> {
            ObjectNode n = functions.putObject(f);
            n.put("replayed", s.replayed());
            n.put("unchanged", s.unchanged());
            ObjectNode changes = n.putObject("changes");
            for (Change c : Change.values()) {
                ObjectNode cn = changes.putObject(key(c));
                cn.put("count", s.count(c));
                ArrayNode ex = cn.putArray("examples");
                for (ReplayReport.Example x : s.examples(c)) {
                    ex.addObject().put("object", x.ref()).put("source", x.source()).put("before", x.before())
                            .put("after", x.after());
                }
            }
        });
        ObjectNode namespaces = root.putObject("namespacesFrom");
        r.namespacesFrom().forEach(namespaces::put);
        ReplayReport.Skipped b = r.beforeRegistration();
        root.putObject("beforeRegistration").put("count", b == null ? 0 : b.count())
                .put("example", b == null ? "" : b.firstSource()).put("detail", b == null ? "" : b.firstDetail());
        ArrayNode skipped = root.putArray("notReplayed");
        r.notReplayed().forEach((reason, s) -> skipped.addObject().put("reason", reason).put("count", s.count())
                .put("example", s.firstSource()).put("detail", s.firstDetail()));
        ObjectNode unreadable = root.putObject("unreadable");
        unreadable.put("count", r.unreadable());
        ArrayNode ux = unreadable.putArray("examples");
        r.unreadableExamples().forEach(u -> ux.addObject().put("source", u.source()).put("why", u.why()));
        root.putObject("cache").put("capacity", run.cacheCapacity()).put("evicted", run.cacheEvicted());
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** allowed->denied as allowedToDenied, message changed as messageChanged. */
    static String key(Change c) {
        String[] words = c.name().toLowerCase(Locale.ROOT).split("_");
        StringBuilder sb = new StringBuilder(words[0]);
        for (int i = 1; i < words.length; i++) {
            sb.append(Character.toUpperCase(words[i].charAt(0))).append(words[i].substring(1));
        }
        return sb.toString();
    }
}
