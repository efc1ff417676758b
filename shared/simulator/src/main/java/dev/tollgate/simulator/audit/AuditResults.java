package dev.tollgate.simulator.audit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.node.ArrayNode;

import dev.tollgate.simulator.CallRecord;
import dev.tollgate.simulator.ManifestReport;
import dev.tollgate.simulator.Simulator;

/**
 * What the audit found, folded in object by object (from several threads) so that no object is kept once reviewed:
 * counts per webhook and per kind, pass counts per namespace for the PolicyReports, and a {@link Finding} for each
 * object that would be denied, changed, warned about or that hit an error.
 */
public final class AuditResults {

    /**
     * The outcome of one webhook for one object, as a PolicyReport result: skip (an exception kept the request from
     * the policy), pass, warn, error or fail; in that order, the worst last.
     */
    public enum Verdict {
        SKIP, PASS, WARN, ERROR, FAIL;

        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** One webhook's part for one object (reinvocations folded in: the worst outcome, every detail). */
    public record WebhookOutcome(String webhook, String configuration, String phase, Verdict verdict, String detail,
            ArrayNode patch, List<String> warnings) {
    }

    /** An object worth listing; {@code code} and {@code message} are the API server's answer when denied. */
    public record Finding(String apiVersion, String kind, String namespace, String name, String uid,
            boolean allowed, int code, String message, ArrayNode patch, List<String> warnings,
            List<WebhookOutcome> webhooks) {

        public boolean changed() {
            return allowed && patch != null && !patch.isEmpty();
        }

        public String ref() {
            return kind + " " + (namespace.isEmpty() ? "" : namespace + "/") + name;
        }
    }

    /** Per webhook: objects it was called for, and how many it would deny, warn about, patch, or fail on. */
    public static final class WebhookCounts {
        public final String webhook;
        public final String configuration;
        public final String phase;
        public long matched;
        public long denied;
        public long warned;
        public long patched;
        public long errors;

        WebhookCounts(String webhook, String configuration, String phase) {
            this.webhook = webhook;
            this.configuration = configuration;
            this.phase = phase;
        }
    }

    /** Per listed kind: objects reviewed, denied, changed. */
    public static final class KindCounts {
        public final String apiVersion;
        public final String kind;
        public long objects;
        public long denied;
        public long changed;

        KindCounts(String apiVersion, String kind) {
            this.apiVersion = apiVersion;
            this.kind = kind;
        }
    }

    private final Map<String, WebhookCounts> webhooks = new LinkedHashMap<>();
    private final Map<String, KindCounts> kinds = new TreeMap<>();
    private final Map<String, Long> passesByNamespace = new TreeMap<>();
    private final List<Finding> findings = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final List<String> unreviewed = new ArrayList<>();
    private long objects;
    private long denied;
    private long changed;
    private long warned;
    private long untouched;

    /** Registers the webhooks up front, so the table lists them in calling order even when nothing matched. */
    public synchronized void webhook(String name, String configuration, String phase) {
        webhooks.computeIfAbsent(phase + "/" + name, k -> new WebhookCounts(name, configuration, phase));
    }

    public synchronized void note(String note) {
        notes.add(note);
    }

    /** An object the simulator could not review (an internal error): the audit is incomplete, exit status 2. */
    public synchronized void unreviewed(String problem) {
        unreviewed.add(problem);
    }

    public synchronized List<String> unreviewed() {
        return List.copyOf(unreviewed);
    }

    /** Folds in one object's review. */
    public void add(ServedResource resource, String uid, ManifestReport report) {
        Map<String, WebhookOutcome> outcomes = new LinkedHashMap<>();
        for (CallRecord c : report.calls()) {
            // Excepted: by the exception's matchCondition (not called), or by the function itself (allowed).
            boolean excepted = c.detail().startsWith(Simulator.EXCEPTED_BY_CONDITION)
                    || (c.result() == CallRecord.Result.ALLOWED && c.detail().startsWith(Simulator.EXCEPTED));
            if (!c.result().called() && !excepted) {
                continue;
            }
            Verdict v = excepted ? Verdict.SKIP : switch (c.result()) {
                case DENIED -> Verdict.FAIL;
                case FAILED_CLOSED, FAILED_OPEN, REJECTED -> Verdict.ERROR;
                case PATCHED -> Verdict.WARN;
                // A function in audit mode allowed what its policy denied: a warning here, as in warn mode.
                default -> c.warnings().isEmpty() && !c.detail().contains(Simulator.AUDIT_DENIED) ? Verdict.PASS
                        : Verdict.WARN;
            };
            String detail = c.result() == CallRecord.Result.PATCHED ? "would patch: " + c.patch()
                    : !c.detail().isEmpty() ? c.detail() : String.join("; ", c.warnings());
            WebhookOutcome now = new WebhookOutcome(c.webhook(), c.configuration(), c.phase(), v, detail,
                    c.patch(), c.warnings());
            outcomes.merge(c.phase() + "/" + c.webhook(), now, AuditResults::fold);
        }
        boolean isChanged = report.allowed() && report.patch() != null && !report.patch().isEmpty();
        boolean isWarned = !report.warnings().isEmpty();
        boolean anyError = outcomes.values().stream().anyMatch(o -> o.verdict() == Verdict.ERROR);
        // A function in audit mode answers allowed without a warning: its webhook's verdict still makes a finding.
        boolean anyWarn = outcomes.values().stream().anyMatch(o -> o.verdict() == Verdict.WARN);
        boolean anySkip = outcomes.values().stream().anyMatch(o -> o.verdict() == Verdict.SKIP);
        String key = resource.apiVersion() + " " + resource.kind();
        synchronized (this) {
            objects++;
            KindCounts k = kinds.computeIfAbsent(key, x -> new KindCounts(resource.apiVersion(), resource.kind()));
            k.objects++;
            if (!report.allowed()) {
                denied++;
                k.denied++;
            } else if (isChanged) {
                changed++;
                k.changed++;
            }
            if (isWarned) {
                warned++;
            }
            if (outcomes.isEmpty()) {
                untouched++;
            }
            for (WebhookOutcome o : outcomes.values()) {
                WebhookCounts w = webhooks.computeIfAbsent(o.phase() + "/" + o.webhook(),
                        x -> new WebhookCounts(o.webhook(), o.configuration(), o.phase()));
                if (o.verdict() != Verdict.SKIP) {
                    w.matched++;
                }
                switch (o.verdict()) {
                    case FAIL -> w.denied++;
                    case ERROR -> w.errors++;
                    default -> {
                    }
                }
                if (o.patch() != null && !o.patch().isEmpty()) {
                    w.patched++;
                }
                if (!o.warnings().isEmpty() || o.detail().contains(Simulator.AUDIT_DENIED)) {
                    w.warned++;
                }
            }
            if (!report.allowed() || isChanged || isWarned || anyError || anyWarn || anySkip) {
                findings.add(new Finding(resource.apiVersion(), resource.kind(),
                        resource.namespaced() ? report.namespace() : "", report.name(),
                        uid, report.allowed(), report.code(), report.message(), report.patch(), report.warnings(),
                        List.copyOf(outcomes.values())));
            } else if (!outcomes.isEmpty()) {
                passesByNamespace.merge(resource.namespaced() ? report.namespace() : "", (long) outcomes.size(),
                        Long::sum);
            }
        }
    }

    private static WebhookOutcome fold(WebhookOutcome a, WebhookOutcome b) {
        Verdict worst = a.verdict().compareTo(b.verdict()) >= 0 ? a.verdict() : b.verdict();
        String detail = a.detail().isEmpty() ? b.detail() : b.detail().isEmpty() ? a.detail()
                : a.detail() + "; then " + b.detail();
        ArrayNode patch = a.patch();
        if (b.patch() != null) {
            patch = patch == null ? b.patch().deepCopy() : patch.deepCopy().addAll(b.patch());
        }
        List<String> warnings = new ArrayList<>(a.warnings());
        warnings.addAll(b.warnings());
        return new WebhookOutcome(a.webhook(), a.configuration(), a.phase(), worst, detail, patch, warnings);
    }

    // ---- reading (after the run) -------------------------------------------------------------------------

    public synchronized long objects() {
        return objects;
    }

    public synchronized long denied() {
        return denied;
    }

    public synchronized long changed() {
        return changed;
    }

    public synchronized long warned() {
        return warned;
    }

    /** Objects no webhook was called for (every one skipped them: selectors, exclusions, matchConditions). */
    public synchronized long untouched() {
        return untouched;
    }

    public synchronized long errors() {
        return webhooks.values().stream().mapToLong(w -> w.errors).sum();
    }

    public synchronized List<WebhookCounts> webhooks() {
        return List.copyOf(webhooks.values());
    }

    public synchronized List<KindCounts> kinds() {
        return List.copyOf(kinds.values());
    }

    /** Sorted by kind, namespace and name: the run's concurrency does not show in the output. */
    public synchronized List<Finding> findings() {
        List<Finding> out = new ArrayList<>(findings);
        out.sort(Comparator.comparing(Finding::kind).thenComparing(Finding::apiVersion)
                .thenComparing(Finding::namespace).thenComparing(Finding::name));
        return out;
    }

    /** Results that passed, by namespace ("" for cluster-scoped objects), for objects not among the findings. */
    public synchronized Map<String, Long> passesByNamespace() {
        return Map.copyOf(passesByNamespace);
    }

    public synchronized List<String> notes() {
        return List.copyOf(notes);
    }
}
