package dev.tollgate.simulator.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.simulator.CallRecord;
import dev.tollgate.simulator.ManifestReport;

/** How one call's outcome counts in an audit: what a function in audit or warn mode did not enforce is a warning. */
class AuditResultsTest {

    @Test
    void aDenialAllowedByAuditOrWarnModeIsAWarningAndAnExceptionASkip() {
        AuditResults results = new AuditResults();
        results.add(new ServedResource("apps", "v1", "deployments", "Deployment", true, List.of("list")), "uid-1",
                report(List.of(
                        call("audit.example.com", "audit mode: the policy denied: no team label", List.of()),
                        call("warn.example.com", "warn mode: the policy denied, answered as a warning",
                                List.of("Validation failed for function 'require-labels': no team label")),
                        call("excepted.example.com", "excepted by legacy-shop (applied by the function)",
                                List.of()),
                        new CallRecord("validating", 0, 3, "v", "batch.example.com", CallRecord.Result.SKIPPED,
                                "matchConditions: excepted by batch-jobs ('exception.tollgate.dev/batch-jobs' is "
                                        + "false)", 0, null, List.of()),
                        new CallRecord("validating", 0, 4, "v", "other.example.com", CallRecord.Result.SKIPPED,
                                "matchConditions: 'team-only' is false", 0, null, List.of()))));
        Map<String, AuditResults.Verdict> verdicts = new java.util.TreeMap<>();
        results.findings().get(0).webhooks().forEach(w -> verdicts.put(w.webhook(), w.verdict()));
        // A webhook skipped for another reason is not part of the audit.
        assertEquals(Map.of("audit.example.com", AuditResults.Verdict.WARN, "warn.example.com",
                AuditResults.Verdict.WARN, "excepted.example.com", AuditResults.Verdict.SKIP, "batch.example.com",
                AuditResults.Verdict.SKIP), verdicts);
        assertEquals(List.of(1L, 1L, 0L, 0L), results.webhooks().stream().map(w -> w.warned).toList());
        assertEquals(List.of(1L, 1L, 0L, 0L), results.webhooks().stream().map(w -> w.matched).toList());

        // PolicyReports: result skip, saying which exception.
        ObjectNode report = PolicyReports.build(results, "CREATE", Instant.EPOCH).get(0);
        assertEquals(2, report.path("summary").path("skip").asInt(), report.toString());
        assertEquals(2, report.path("summary").path("warn").asInt(), report.toString());
        List<String> skips = new ArrayList<>();
        report.path("results").forEach(r -> {
            if (r.path("result").asText().equals("skip")) {
                skips.add(r.path("policy").asText() + ": " + r.path("message").asText());
            }
        });
        assertEquals(List.of("excepted.example.com: excepted by legacy-shop (applied by the function)",
                "batch.example.com: matchConditions: excepted by batch-jobs ('exception.tollgate.dev/batch-jobs' is "
                        + "false)"), skips);
    }

    private static CallRecord call(String webhook, String detail, List<String> warnings) {
        return new CallRecord("validating", 0, 0, "v", webhook, CallRecord.Result.ALLOWED, detail, 1000, null,
                warnings);
    }

    private static ManifestReport report(List<CallRecord> calls) {
        return new ManifestReport("cluster", "Deployment", "shop", "web", "CREATE", true, true, 0, "", calls,
                List.of(), Map.of(), List.of(), null, null, null, List.of());
    }
}
