package dev.tollgate.simulator.policytest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import dev.tollgate.simulator.Conversions;
import dev.tollgate.simulator.LineDiff;
import dev.tollgate.simulator.ManifestReport;
import dev.tollgate.simulator.Yaml;
import dev.tollgate.simulator.policytest.CaseResult.Mismatch;
import dev.tollgate.simulator.policytest.TestFile.Expect;

/** Compares what a case gave with what it expects; every expectation that does not hold is one {@link Mismatch}. */
final class Expectations {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private Expectations() {
    }

    /** An admission case: the API server's answer and the admitted object. */
    static List<Mismatch> check(Expect e, ManifestReport r) {
        List<Mismatch> out = new ArrayList<>();
        if (e.allowed() != null && e.allowed() != r.allowed()) {
            out.add(new Mismatch("expect.allowed", e.allowed() ? "allowed" : "denied", outcome(r), List.of()));
        }
        if (e.code() != null && e.code() != r.code()) {
            out.add(new Mismatch("expect.code", String.valueOf(e.code()), r.code() + " (" + outcome(r) + ")",
                    List.of()));
        }
        if (e.message() != null && !r.message().contains(e.message())) {
            out.add(new Mismatch("expect.message", "a message containing \"" + e.message() + "\"",
                    r.message().isEmpty() ? "no message (" + outcome(r) + ")" : "\"" + r.message() + "\"",
                    List.of()));
        }
        if (e.warnings() != null && !warningsMatch(e.warnings(), r.warnings())) {
            out.add(tree("expect.warnings", strings(e.warnings()), strings(r.warnings())));
        }
        if (e.patch() != null && !e.patch().equals(r.patch())) {
            out.add(tree("expect.patch", e.patch(), r.patch()));
        }
        if (e.object() != null) {
            if (r.result() == null) {
                out.add(new Mismatch("expect.object", "an admitted object", "none (" + r.operation() + ")",
                        List.of()));
            } else if (!Subset.matches(e.object(), r.result())) {
                out.add(tree("expect.object", e.object(), Subset.project(e.object(), r.result())));
            }
        }
        if (e.auditAnnotations() != null) {
            var expected = F.objectNode();
            var actual = F.objectNode();
            boolean ok = true;
            for (Map.Entry<String, String> a : e.auditAnnotations().entrySet()) {
                expected.put(a.getKey(), a.getValue());
                String got = r.auditAnnotations().get(a.getKey());
                if (got != null) {
                    actual.put(a.getKey(), got);
                }
                ok &= a.getValue().equals(got);
            }
            if (e.auditAnnotations().isEmpty() && !r.auditAnnotations().isEmpty()) {
                ok = false; // {} expects none
            }
            if (!ok) {
                r.auditAnnotations().keySet().stream().sorted().filter(k -> !actual.has(k))
                        .forEach(k -> actual.put(k, r.auditAnnotations().get(k)));
                out.add(tree("expect.auditAnnotations", expected, actual));
            }
        }
        return out;
    }

    /** A conversion case: per desired apiVersion, the outcome of converting the object to it. */
    static List<Mismatch> check(Expect e, Map<String, Conversions.Outcome> outcomes) {
        List<Mismatch> out = new ArrayList<>();
        for (Map.Entry<String, JsonNode> v : e.converted().entrySet()) {
            String field = "expect.converted." + v.getKey();
            Conversions.Outcome o = outcomes.get(v.getKey());
            if (o.status().equals(Conversions.Outcome.FAILED)) {
                out.add(new Mismatch(field, "converted", "failed: " + o.message(), List.of()));
            } else if (!Subset.matches(v.getValue(), o.converted())) {
                out.add(tree(field, v.getValue(), Subset.project(v.getValue(), o.converted())));
            }
        }
        return out;
    }

    /** As many warnings as expected, each containing the expected text at its position. */
    static boolean warningsMatch(List<String> expected, List<String> actual) {
        if (expected.size() != actual.size()) {
            return false;
        }
        for (int i = 0; i < expected.size(); i++) {
            if (!actual.get(i).contains(expected.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** {@code allowed}, {@code allowed, 2 patch operations} or {@code denied (403): <message>}. */
    static String outcome(ManifestReport r) {
        if (!r.allowed()) {
            return "denied (" + r.code() + "): " + r.message();
        }
        int ops = r.patch() == null ? 0 : r.patch().size();
        return ops == 0 ? "allowed" : "allowed, " + ops + " patch operation" + (ops == 1 ? "" : "s");
    }

    private static JsonNode strings(List<String> values) {
        var a = F.arrayNode();
        values.forEach(a::add);
        return a;
    }

    private static Mismatch tree(String field, JsonNode expected, JsonNode actual) {
        String exp = expected == null ? "(nothing)" : Yaml.write(expected).stripTrailing();
        String act = actual == null ? "(nothing)" : Yaml.write(actual).stripTrailing();
        List<String> diff = new ArrayList<>();
        diff.add("--- expected");
        diff.add("+++ actual");
        diff.addAll(LineDiff.unified(exp, act));
        return new Mismatch(field, exp, act, diff);
    }
}
