package dev.tollgate.simulator.policytest;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What one case gave: its expectations that did not hold (none: passed), the outcome in a few words, and the
 * simulator's full report of it (the JSON of {@code tollgate review} or {@code tollgate convert}).
 *
 * @param outcome e.g. {@code allowed}, {@code denied (403)}, {@code converted to data.tollgate.dev/v1}
 */
public record CaseResult(String file, String name, List<Mismatch> mismatches, String outcome, double millis,
        JsonNode report) {

    /**
     * One expectation that did not hold.
     *
     * @param field    the expectation ({@code expect.message}, {@code expect.converted.data.tollgate.dev/v1})
     * @param expected what was expected, in words or YAML
     * @param actual   what came out
     * @param diff     a unified diff from expected to actual (YAML), when the values are trees; else empty
     */
    public record Mismatch(String field, String expected, String actual, List<String> diff) {
    }

    public boolean passed() {
        return mismatches.isEmpty();
    }
}
