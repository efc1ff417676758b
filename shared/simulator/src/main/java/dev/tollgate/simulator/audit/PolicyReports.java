package dev.tollgate.simulator.audit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

import dev.tollgate.simulator.InputException;
import dev.tollgate.simulator.audit.AuditResults.Finding;
import dev.tollgate.simulator.audit.AuditResults.Verdict;
import dev.tollgate.simulator.audit.AuditResults.WebhookOutcome;

/**
 * The audit as {@code wgpolicyk8s.io/v1alpha2} PolicyReports (one per namespace) and a ClusterPolicyReport (for
 * cluster-scoped objects), the format of the Policy Reports working group that Kyverno and policy-reporter read
 * (kubernetes-sigs/wg-policy-prototypes, policy-report/apis/wgpolicyk8s.io/v1alpha2/policyreport_types.go).
 *
 * <p>One result per object and webhook called: {@code fail} (would deny), {@code error} (the call failed, either
 * failurePolicy), {@code warn} (would patch, or answered with warnings), {@code pass}; and {@code skip} where an
 * exception kept the request from the policy ("excepted by &lt;name&gt;"). Passing results are counted
 * in the summary but not listed, and at most {@value #MAX_RESULTS} results are listed per report (the rest are
 * counted, and the annotation {@value #OMITTED} says how many), so that a report stays well below the API server's
 * object size limit in namespaces with thousands of objects.
 */
public final class PolicyReports {

    public static final String NAME = "tollgate-audit";
    public static final String SOURCE = "tollgate";
    public static final int MAX_RESULTS = 1000;
    public static final String OMITTED = "tollgate.dev/results-omitted";
    public static final String GROUP = "wgpolicyk8s.io";
    public static final String VERSION = "v1alpha2";

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR).build());

    private PolicyReports() {
    }

    /** The reports, namespaces in name order, the ClusterPolicyReport (if any cluster-scoped object) last. */
    public static List<ObjectNode> build(AuditResults results, String operation, Instant now) {
        Map<String, List<Finding>> byScope = new TreeMap<>();
        for (Finding f : results.findings()) {
            byScope.computeIfAbsent(f.namespace(), k -> new ArrayList<>()).add(f);
        }
        results.passesByNamespace().keySet().forEach(ns -> byScope.computeIfAbsent(ns, k -> new ArrayList<>()));
        List<ObjectNode> reports = new ArrayList<>();
        ObjectNode cluster = null;
        for (Map.Entry<String, List<Finding>> e : byScope.entrySet()) {
            ObjectNode report = report(e.getKey(), e.getValue(), results.passesByNamespace().getOrDefault(e.getKey(),
                    0L), operation, now);
            if (e.getKey().isEmpty()) {
                cluster = report;
            } else {
                reports.add(report);
            }
        }
        if (cluster != null) {
            reports.add(cluster);
        }
        return reports;
    }

    private static ObjectNode report(String namespace, List<Finding> findings, long passes, String operation,
            Instant now) {
        ObjectNode report = F.objectNode();
        report.put("apiVersion", GROUP + "/" + VERSION);
        report.put("kind", namespace.isEmpty() ? "ClusterPolicyReport" : "PolicyReport");
        ObjectNode meta = report.putObject("metadata");
        meta.put("name", NAME);
        if (!namespace.isEmpty()) {
            meta.put("namespace", namespace);
        }
        meta.putObject("labels").put("app.kubernetes.io/managed-by", SOURCE);
        long pass = passes;
        long fail = 0;
        long warn = 0;
        long error = 0;
        long skip = 0;
        List<ObjectNode> listed = new ArrayList<>();
        findings.sort(Comparator.comparing(Finding::kind).thenComparing(Finding::name));
        for (Finding f : findings) {
            for (WebhookOutcome o : f.webhooks()) {
                switch (o.verdict()) {
                    case PASS -> pass++;
                    case FAIL -> fail++;
                    case WARN -> warn++;
                    case ERROR -> error++;
                    case SKIP -> skip++;
                }
                if (o.verdict() != Verdict.PASS) {
                    listed.add(result(f, o, operation, now));
                }
            }
        }
        ObjectNode summary = report.putObject("summary");
        summary.put("pass", pass).put("fail", fail).put("warn", warn).put("error", error).put("skip", skip);
        ArrayNode results = report.putArray("results");
        listed.stream().limit(MAX_RESULTS).forEach(results::add);
        if (listed.size() > MAX_RESULTS) {
            meta.putObject("annotations").put(OMITTED, String.valueOf(listed.size() - MAX_RESULTS));
        }
        return report;
    }

    private static ObjectNode result(Finding f, WebhookOutcome o, String operation, Instant now) {
        ObjectNode r = F.objectNode();
        r.put("source", SOURCE);
        r.put("policy", o.webhook());
        r.put("rule", o.configuration());
        r.put("category", o.phase() + " admission webhook");
        r.putObject("timestamp").put("seconds", now.getEpochSecond()).put("nanos", 0);
        r.put("result", o.verdict().wire());
        r.put("scored", true);
        ObjectNode ref = r.putArray("resources").addObject();
        ref.put("apiVersion", f.apiVersion()).put("kind", f.kind());
        if (!f.namespace().isEmpty()) {
            ref.put("namespace", f.namespace());
        }
        ref.put("name", f.name());
        if (!f.uid().isEmpty()) {
            ref.put("uid", f.uid());
        }
        r.put("message", o.detail());
        ObjectNode props = r.putObject("properties");
        props.put("operation", operation);
        if (o.patch() != null && !o.patch().isEmpty()) {
            props.put("patch", o.patch().toString());
        }
        return r;
    }

    /** Writes each report to {@code dir} as YAML: policyreport-NAMESPACE.yaml, clusterpolicyreport.yaml. */
    public static List<Path> write(Path dir, List<ObjectNode> reports) {
        List<Path> written = new ArrayList<>();
        try {
            Files.createDirectories(dir);
            for (ObjectNode report : reports) {
                String ns = report.path("metadata").path("namespace").asText("");
                Path file = dir.resolve(ns.isEmpty() ? "clusterpolicyreport.yaml" : "policyreport-" + ns + ".yaml");
                Files.writeString(file, YAML.writeValueAsString(report));
                written.add(file);
            }
        } catch (IOException e) {
            throw new InputException("--policy-reports " + dir + ": cannot write (" + e.getMessage() + ")", e);
        }
        return written;
    }

    /** The two resources as the cluster serves them, or a one-line error when the CRDs are not installed. */
    public static List<ServedResource> served(Discovery discovery, String host) {
        var reports = discovery.find(GROUP, VERSION, "policyreports");
        var clusterReports = discovery.find(GROUP, VERSION, "clusterpolicyreports");
        if (reports.isEmpty() || clusterReports.isEmpty()) {
            throw new ClusterException("the cluster at " + host + " does not serve " + GROUP + "/" + VERSION
                    + " policyreports and clusterpolicyreports: install the Policy Reports CRDs (see "
                    + "shared/simulator/README.md, \"Audit a cluster\") or leave out --apply");
        }
        return List.of(reports.get(), clusterReports.get());
    }

    /** Creates or replaces each report in the cluster. */
    public static void apply(Cluster cluster, List<ServedResource> served, List<ObjectNode> reports) {
        for (ObjectNode report : reports) {
            boolean namespaced = report.path("kind").asText().equals("PolicyReport");
            cluster.createOrReplace(namespaced ? served.get(0) : served.get(1), report);
        }
    }
}
