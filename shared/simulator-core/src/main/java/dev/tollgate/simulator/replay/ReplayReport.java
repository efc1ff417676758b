package dev.tollgate.simulator.replay;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a replay found, accumulated request by request in bounded memory: counts per function and change, at most
 * {@code examples} examples of each, the requests not replayed by reason (with the first of each), the unreadable
 * lines (with the first few).
 */
public final class ReplayReport {

    /** One request whose answer changed for a function. */
    public record Example(String ref, String source, String before, String after) {
    }

    /** One function's counts. */
    public static final class FunctionStats {
        long replayed;
        long unchanged;
        final Map<Change, Long> counts = new EnumMap<>(Change.class);
        final Map<Change, List<Example>> examples = new EnumMap<>(Change.class);

        public long replayed() {
            return replayed;
        }

        public long unchanged() {
            return unchanged;
        }

        public long count(Change c) {
            return counts.getOrDefault(c, 0L);
        }

        public List<Example> examples(Change c) {
            return examples.getOrDefault(c, List.of());
        }
    }

    /** The requests not replayed for one reason. */
    public static final class Skipped {
        long count;
        final String firstSource;
        final String firstDetail;

        Skipped(String source, String detail) {
            this.firstSource = source;
            this.firstDetail = detail;
        }

        public long count() {
            return count;
        }

        public String firstSource() {
            return firstSource;
        }

        public String firstDetail() {
            return firstDetail;
        }
    }

    /** Reason for a request that called no webhook on either side. */
    public static final String NO_WEBHOOK = "no webhook matches it (on either side)";

    /**
     * Requests whose answer differs only for functions none of whose webhooks was registered when the request was
     * made ({@link Registrations}): listed apart, not as changes.
     */
    public static final String BEFORE_REGISTRATION = "before registration (made before the webhooks whose answer "
            + "differs were registered)";

    private final int examples;
    private final Map<String, FunctionStats> functions = new TreeMap<>();
    private final Map<String, Skipped> notReplayed = new TreeMap<>();
    private final Map<String, Long> namespacesFrom = new TreeMap<>();
    private Skipped beforeRegistration;
    private final List<ReplayItem.Unreadable> unreadableExamples = new ArrayList<>();
    private long lines;
    private long ignored;
    private long replayed;
    private long changed;
    private long unreadable;
    private boolean warningsCompared;

    public ReplayReport(int examples) {
        if (examples < 0) {
            throw new IllegalArgumentException("examples must be 0 or more, got " + examples);
        }
        this.examples = examples;
    }

    public void line() {
        lines++;
    }

    public void ignored() {
        ignored++;
    }

    public void unreadable(ReplayItem.Unreadable u) {
        unreadable++;
        if (unreadableExamples.size() < Math.max(examples, 1)) {
            unreadableExamples.add(u);
        }
    }

    public void notReplayed(String source, String reason, String detail) {
        notReplayed.computeIfAbsent(reason, r -> new Skipped(source, detail)).count++;
    }

    /** Compares one replayed request's two sides and counts what changed, per function. */
    public void compared(ReplayItem.Request request, Outcome before, Outcome after) {
        compared(request, before, after, (function, time) -> true);
    }

    /**
     * Compares one replayed request's two sides and counts what changed, per function; a request whose answer differs
     * only for functions that were not registered at its time ({@code registered}, by function and time) is listed
     * apart ({@link #BEFORE_REGISTRATION}).
     */
    public void compared(ReplayItem.Request request, Outcome before, Outcome after,
            java.util.function.BiPredicate<String, java.time.Instant> registered) {
        if (request.function() != null) {
            before = before.only(request.function());
            after = after.only(request.function());
        }
        Map<String, Set<Change>> changes = Change.compare(before, after, request.function());
        if (changes.isEmpty() || (before.involved().isEmpty() && after.involved().isEmpty()
                && before.deniers().isEmpty() && after.deniers().isEmpty())) {
            notReplayed(request.source(), NO_WEBHOOK, request.ref());
            return;
        }
        List<String> differing = changes.entrySet().stream().filter(e -> !e.getValue().isEmpty())
                .map(Map.Entry::getKey).toList();
        if (!differing.isEmpty() && request.time() != null
                && differing.stream().noneMatch(f -> registered.test(f, request.time()))) {
            if (beforeRegistration == null) {
                beforeRegistration = new Skipped(request.source(), request.ref() + " at " + request.time() + ": "
                        + String.join(", ", differing) + " not registered yet");
            }
            beforeRegistration.count++;
            return;
        }
        replayed++;
        if (request.namespacesFrom() != null) {
            namespacesFrom.merge(request.namespacesFrom(), 1L, Long::sum);
        }
        if (before.warnings() != null && after.warnings() != null) {
            warningsCompared = true;
        }
        boolean any = false;
        for (Map.Entry<String, Set<Change>> e : changes.entrySet()) {
            FunctionStats stats = functions.computeIfAbsent(e.getKey(), f -> new FunctionStats());
            stats.replayed++;
            if (e.getValue().isEmpty()) {
                stats.unchanged++;
                continue;
            }
            any = true;
            for (Change c : e.getValue()) {
                stats.counts.merge(c, 1L, Long::sum);
                List<Example> list = stats.examples.computeIfAbsent(c, k -> new ArrayList<>());
                if (list.size() < examples) {
                    list.add(example(request, before, after, e.getKey(), c));
                }
            }
        }
        if (any) {
            changed++;
        }
    }

    private static Example example(ReplayItem.Request r, Outcome before, Outcome after, String f, Change c) {
        return switch (c) {
            case WARNINGS_ADDED -> new Example(r.ref(), r.source(), "", String.join("; ", Change.missing(after,
                    before, f)));
            case WARNINGS_LOST -> new Example(r.ref(), r.source(), String.join("; ", Change.missing(before, after, f)),
                    "");
            case PATCH_CHANGED -> new Example(r.ref(), r.source(), patch(before, f), patch(after, f));
            case MESSAGE_CHANGED -> new Example(r.ref(), r.source(), String.valueOf(before.denials().get(f)),
                    after.denials().containsKey(f) ? String.valueOf(after.denials().get(f))
                            : "not denied by " + f + "; " + after.brief());
            default -> new Example(r.ref(), r.source(), before.brief(), after.brief());
        };
    }

    private static String patch(Outcome o, String f) {
        if (o.patches() != null) {
            var p = o.patches().get(f);
            return p == null || p.isEmpty() ? "no patch" : p.toString();
        }
        return o.mutated().contains(f) ? "mutated" : "not mutated";
    }

    public long lines() {
        return lines;
    }

    public long ignoredLines() {
        return ignored;
    }

    public long replayed() {
        return replayed;
    }

    /** Requests whose answer changed for at least one function. */
    public long changed() {
        return changed;
    }

    public long unreadable() {
        return unreadable;
    }

    public List<ReplayItem.Unreadable> unreadableExamples() {
        return List.copyOf(unreadableExamples);
    }

    public Map<String, FunctionStats> functions() {
        return functions;
    }

    public Map<String, Skipped> notReplayed() {
        return notReplayed;
    }

    /** The requests listed apart as made before their webhooks were registered, or null when there were none. */
    public Skipped beforeRegistration() {
        return beforeRegistration;
    }

    /** How many replayed requests had their Namespace from each source ({@link ReplayReader#FROM_GIVEN}, ...). */
    public Map<String, Long> namespacesFrom() {
        return namespacesFrom;
    }

    public long notReplayedTotal() {
        return notReplayed.values().stream().mapToLong(s -> s.count).sum();
    }

    /** Whether warnings were compared (both sides recorded them: a served baseline). */
    public boolean warningsCompared() {
        return warningsCompared;
    }

    public int examplesPerChange() {
        return examples;
    }
}
