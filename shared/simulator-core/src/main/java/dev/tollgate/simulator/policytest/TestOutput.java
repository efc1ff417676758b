package dev.tollgate.simulator.policytest;

import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.simulator.policytest.CaseResult.Mismatch;
import dev.tollgate.simulator.policytest.TestRunner.FileRun;
import dev.tollgate.simulator.policytest.TestRunner.TypeCheckLine;
import dev.tollgate.simulator.policytest.TestRunner.Run;

/** A test run for people (a table, then each failure with its diff), for machines (JSON) and for CI (JUnit XML). */
public final class TestOutput {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private TestOutput() {
    }

    public static String text(Run run) {
        StringBuilder sb = new StringBuilder();
        if (!run.typeCheck().isEmpty()) {
            sb.append("type check:\n");
            run.typeCheck().forEach(l -> sb.append("  ").append(l.line().replace("\n", "\n    ")).append('\n'));
            sb.append('\n');
        }
        List<CaseResult> all = run.files().stream().flatMap(f -> f.cases().stream()).toList();
        int fileWidth = Math.max(4, all.stream().mapToInt(c -> c.file().length()).max().orElse(4));
        int caseWidth = Math.max(4, all.stream().mapToInt(c -> c.name().length()).max().orElse(4));
        String row = "%-" + fileWidth + "s  %-" + caseWidth + "s  %-6s %s%n";
        sb.append(String.format(Locale.ROOT, row, "FILE", "CASE", "RESULT", "OUTCOME"));
        for (CaseResult c : all) {
            sb.append(String.format(Locale.ROOT, row, c.file(), c.name(), c.passed() ? "PASS" : "FAIL",
                    shorten(c.outcome())));
        }
        for (FileRun f : run.files()) {
            f.notes().forEach(n -> sb.append("note: ").append(f.file()).append(": ").append(n).append('\n'));
        }
        for (CaseResult c : all) {
            if (c.passed()) {
                continue;
            }
            sb.append("\nFAIL ").append(c.file()).append(": case '").append(c.name()).append("'\n");
            for (Mismatch m : c.mismatches()) {
                sb.append(failure(m).indent(2));
            }
        }
        sb.append('\n').append(summary(run)).append('\n');
        return sb.toString();
    }

    /** {@code 12 cases: 11 passed, 1 failed} and, when there are, the type errors. */
    static String summary(Run run) {
        long errors = run.typeCheck().stream().filter(TypeCheckLine::error).count();
        return run.cases() + " case" + (run.cases() == 1 ? "" : "s") + ": " + (run.cases() - run.failed())
                + " passed, " + run.failed() + " failed" + (errors == 0 ? ""
                : "; " + errors + " policy expression" + (errors == 1 ? "" : "s") + " the API server would refuse");
    }

    /** One mismatch: the expectation, and expected vs actual (as a diff for trees). */
    static String failure(Mismatch m) {
        if (m.diff().isEmpty()) {
            return m.field() + ": expected " + m.expected() + ", got " + m.actual() + "\n";
        }
        StringBuilder sb = new StringBuilder(m.field()).append(": expected vs actual\n");
        m.diff().forEach(l -> sb.append("  ").append(l).append('\n'));
        return sb.toString();
    }

    private static String shorten(String s) {
        String line = s.replaceAll("\\s*\\R\\s*", " ");
        return line.length() <= 120 ? line : line.substring(0, 117) + "...";
    }

    public static String json(Run run) {
        ObjectNode root = F.objectNode();
        ObjectNode summary = root.putObject("summary");
        summary.put("cases", run.cases());
        summary.put("passed", run.cases() - run.failed());
        summary.put("failed", run.failed());
        summary.put("typeErrors", run.typeCheck().stream().filter(TypeCheckLine::error).count());
        ArrayNode types = root.putArray("typeCheck");
        for (TypeCheckLine l : run.typeCheck()) {
            types.addObject().put("severity", l.error() ? "error" : "warning").put("message", l.line());
        }
        ArrayNode files = root.putArray("files");
        for (FileRun f : run.files()) {
            ObjectNode file = files.addObject();
            file.put("file", f.file().toString());
            ArrayNode notes = file.putArray("notes");
            f.notes().forEach(notes::add);
            ArrayNode cases = file.putArray("cases");
            for (CaseResult c : f.cases()) {
                ObjectNode n = cases.addObject();
                n.put("name", c.name());
                n.put("passed", c.passed());
                n.put("outcome", c.outcome());
                n.put("millis", Math.round(c.millis() * 10) / 10.0);
                ArrayNode failures = n.putArray("failures");
                for (Mismatch m : c.mismatches()) {
                    ObjectNode x = failures.addObject();
                    x.put("field", m.field());
                    x.put("expected", m.expected());
                    x.put("actual", m.actual());
                    ArrayNode diff = x.putArray("diff");
                    m.diff().forEach(diff::add);
                }
                n.set("report", c.report());
            }
        }
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * JUnit XML as CI systems read it (the Ant/Surefire schema): one {@code testsuite} per file, one
     * {@code testcase} per case with a {@code failure} holding the mismatches and diffs, and a {@code type check}
     * suite when the type checker found anything (an error fails its case, warnings go to {@code system-out}).
     */
    public static String junit(Run run) {
        StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        long typeErrors = run.typeCheck().stream().filter(TypeCheckLine::error).count();
        sb.append("<testsuites name=\"tollgate test\" tests=\"").append(run.cases() + (run.typeCheck().isEmpty() ? 0
                : 1)).append("\" failures=\"").append(run.failed() + (typeErrors > 0 ? 1 : 0)).append("\">\n");
        if (!run.typeCheck().isEmpty()) {
            sb.append("  <testsuite name=\"type check\" tests=\"1\" failures=\"").append(typeErrors > 0 ? 1 : 0)
                    .append("\" errors=\"0\" skipped=\"0\">\n");
            sb.append("    <testcase classname=\"type check\" name=\"policy expressions\">\n");
            String lines = String.join("\n", run.typeCheck().stream().map(TypeCheckLine::line).toList());
            if (typeErrors > 0) {
                sb.append("      <failure message=\"").append(xml(typeErrors + " expression(s) the API server would "
                        + "refuse")).append("\">").append(xml(lines)).append("</failure>\n");
            } else {
                sb.append("      <system-out>").append(xml(lines)).append("</system-out>\n");
            }
            sb.append("    </testcase>\n  </testsuite>\n");
        }
        for (FileRun f : run.files()) {
            long failed = f.cases().stream().filter(c -> !c.passed()).count();
            double seconds = f.cases().stream().mapToDouble(CaseResult::millis).sum() / 1000;
            sb.append("  <testsuite name=\"").append(xml(f.file().toString())).append("\" tests=\"")
                    .append(f.cases().size()).append("\" failures=\"").append(failed)
                    .append("\" errors=\"0\" skipped=\"0\" time=\"").append(seconds(seconds)).append("\">\n");
            for (CaseResult c : f.cases()) {
                sb.append("    <testcase classname=\"").append(xml(f.file().toString())).append("\" name=\"")
                        .append(xml(c.name())).append("\" time=\"").append(seconds(c.millis() / 1000)).append("\"");
                if (c.passed()) {
                    sb.append("/>\n");
                    continue;
                }
                StringBuilder body = new StringBuilder();
                c.mismatches().forEach(m -> body.append(failure(m)));
                sb.append(">\n      <failure message=\"").append(xml(String.join(", ", c.mismatches().stream()
                        .map(Mismatch::field).toList()) + " did not hold; " + shorten(c.outcome()))).append("\">")
                        .append(xml(body.toString())).append("</failure>\n    </testcase>\n");
            }
            sb.append("  </testsuite>\n");
        }
        return sb.append("</testsuites>\n").toString();
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.3f", s);
    }

    /** Text for an XML attribute or element: the five entities, and characters XML 1.0 cannot hold dropped. */
    static String xml(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&apos;");
                default -> {
                    if (c >= 0x20 || c == '\n' || c == '\t' || c == '\r') {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }
}
