package dev.tollgate.simulator.replay;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import dev.tollgate.simulator.CallRecord;
import dev.tollgate.simulator.ManifestReport;

/**
 * One side of a comparison: what admission answered for one request, by function. Built from a replay
 * ({@link #of(ManifestReport, Function)}), from what an audit event recorded, or from a decision-log line.
 *
 * @param message      the message the client saw when denied; null when the source does not record it
 * @param denials      per function that denied (or failed closed), in calling order, the message the client would
 *                     see had its denial been the one reported (the API server reports whichever validating denial
 *                     came first; a log records only that one); a null message when the source does not record it;
 *                     empty when allowed
 * @param patches      per function, the JSON Patch operations its webhooks returned (every round, in order); null
 *                     when the source records only whether each mutated (Metadata level, decision logs)
 * @param mutated      the functions whose webhooks changed the object
 * @param warnings     per function, the warnings its webhooks returned; null when the source does not record them
 *                     (audit logs never do)
 * @param involved     the functions that took part: called, or named by the recorded outcome
 */
public record Outcome(boolean allowed, int code, String message, Map<String, String> denials,
        Map<String, ArrayNode> patches, Set<String> mutated, Map<String, List<String>> warnings,
        Set<String> involved) {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String PATCH_PREFIX = "patch.webhook.admission.k8s.io/";
    static final String MUTATION_PREFIX = "mutation.webhook.admission.k8s.io/";

    /** The functions that denied, in calling order. */
    public List<String> deniers() {
        return List.copyOf(denials.keySet());
    }

    /** What the replay answered: the functions are those of the webhooks called ({@code functionOf} by webhook). */
    public static Outcome of(ManifestReport report, Function<String, String> functionOf) {
        Map<String, String> denials = new LinkedHashMap<>();
        Map<String, List<String>> warnings = new LinkedHashMap<>();
        Set<String> involved = new LinkedHashSet<>();
        for (CallRecord c : report.calls()) {
            if (!c.result().called()) {
                continue;
            }
            String f = functionOf.apply(c.webhook());
            involved.add(f);
            if (!c.warnings().isEmpty()) {
                warnings.computeIfAbsent(f, k -> new ArrayList<>()).addAll(c.warnings());
            }
            if (!report.allowed() && (c.result() == CallRecord.Result.DENIED
                    || c.result() == CallRecord.Result.FAILED_CLOSED || c.result() == CallRecord.Result.REJECTED)
                    && !denials.containsKey(f)) {
                // A denial's detail is the client's message; a failure's is worded as the client sees it only in the
                // message reported.
                boolean reported = report.message().contains("\"" + c.webhook() + "\"");
                denials.put(f, c.result() == CallRecord.Result.DENIED || !reported ? c.detail() : report.message());
            }
        }
        Map<String, ArrayNode> patches = new LinkedHashMap<>();
        Set<String> mutated = new LinkedHashSet<>();
        fromAnnotations(report.auditAnnotations(), functionOf, patches, mutated);
        return new Outcome(report.allowed(), report.code(), report.message(), denials, patches, mutated, warnings,
                involved);
    }

    /**
     * What one call of {@code function} answered in the replay, to compare with a decision-log line (one call). A
     * function may serve several webhooks (Pod Security: one per level and mode) and a line does not say which it
     * was: the line is matched with a first-round call of that function that answered as it did (allowed, patched,
     * denied); only when none did is the answer a change (a denial first, then a patch, as the closest call). A
     * reinvocation (round 1) is another call than the line's.
     */
    public static Outcome forCall(ManifestReport report, Function<String, String> functionOf, String function,
            Outcome recorded) {
        Set<String> answers = new LinkedHashSet<>();
        int code = 403;
        for (CallRecord c : report.calls()) {
            if (c.round() > 0 || !c.result().called() || !functionOf.apply(c.webhook()).equals(function)) {
                continue;
            }
            switch (c.result()) {
                case DENIED, FAILED_CLOSED, REJECTED -> {
                    answers.add("denied");
                    code = report.allowed() ? code : report.code();
                }
                case PATCHED -> answers.add("patched");
                default -> answers.add("allowed");
            }
        }
        String was = !recorded.allowed() ? "denied" : recorded.mutated().contains(function) ? "patched" : "allowed";
        String now = answers.contains(was) ? was : answers.contains("denied") ? "denied"
                : answers.contains("patched") ? "patched" : "allowed";
        Map<String, String> denials = new LinkedHashMap<>();
        if (now.equals("denied")) {
            denials.put(function, null);
        }
        return new Outcome(!now.equals("denied"), now.equals("denied") ? code : 200, null, denials, null,
                now.equals("patched") ? Set.of(function) : Set.of(), null,
                answers.isEmpty() ? Set.of() : Set.of(function));
    }

    /**
     * Reads the API server's admission annotations ({@code mutation.webhook.admission.k8s.io/round_N_index_M}:
     * whether the webhook mutated; {@code patch.webhook.admission.k8s.io/...}: its patch, at Request level and above),
     * as k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/dispatcher.go writes them, in round and index order.
     */
    static void fromAnnotations(Map<String, String> annotations, Function<String, String> functionOf,
            Map<String, ArrayNode> patches, Set<String> mutated) {
        Map<long[], String> ordered = new TreeMap<>(Comparator.<long[]>comparingLong(k -> k[0])
                .thenComparingLong(k -> k[1]).thenComparingLong(k -> k[2]));
        for (Map.Entry<String, String> e : annotations.entrySet()) {
            String key = e.getKey();
            long kind = key.startsWith(MUTATION_PREFIX) ? 0 : key.startsWith(PATCH_PREFIX) ? 1 : -1;
            if (kind < 0) {
                continue;
            }
            long[] roundIndex = roundIndex(key.substring(key.indexOf('/') + 1));
            if (roundIndex != null) {
                ordered.put(new long[] { roundIndex[0], roundIndex[1], kind }, e.getValue());
            }
        }
        for (Map.Entry<long[], String> e : ordered.entrySet()) {
            JsonNode value;
            try {
                value = JSON.readTree(e.getValue());
            } catch (java.io.IOException notJson) {
                continue;
            }
            String f = functionOf.apply(value.path("webhook").asText());
            if (e.getKey()[2] == 0) {
                if (value.path("mutated").asBoolean(false)) {
                    mutated.add(f);
                }
            } else if (value.path("patch").isArray()) {
                patches.computeIfAbsent(f, k -> JsonNodeFactory.instance.arrayNode())
                        .addAll((ArrayNode) value.path("patch"));
                mutated.add(f);
            }
        }
    }

    /** {@code round_N_index_M} as {N, M}, or null. */
    private static long[] roundIndex(String suffix) {
        String[] parts = suffix.split("_");
        if (parts.length != 4 || !parts[0].equals("round") || !parts[2].equals("index")) {
            return null;
        }
        try {
            return new long[] { Long.parseLong(parts[1]), Long.parseLong(parts[3]) };
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * This outcome as one function saw it (a decision-log line records one function's answer): allowed unless that
     * function denied; the message is not compared.
     */
    public Outcome only(String function) {
        boolean denied = denials.containsKey(function);
        Map<String, String> own = new LinkedHashMap<>();
        if (denied) {
            own.put(function, null);
        }
        return new Outcome(!denied, denied ? code : 200, null, own,
                patches == null ? null : patches.containsKey(function) ? Map.of(function, patches.get(function))
                        : Map.of(),
                mutated.contains(function) ? Set.of(function) : Set.of(),
                warnings == null ? null : warnings.containsKey(function) ? Map.of(function, warnings.get(function))
                        : Map.of(),
                involved.contains(function) ? Set.of(function) : Set.of());
    }

    /** The answer in a few words, for an example. */
    public String brief() {
        if (!allowed) {
            return "denied" + (message == null ? " by " + String.join(", ", deniers()) : " (" + code + "): "
                    + message);
        }
        return mutated.isEmpty() ? "allowed" : "allowed, patched by " + String.join(", ", mutated);
    }
}
