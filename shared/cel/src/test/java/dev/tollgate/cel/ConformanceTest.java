package dev.tollgate.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.cel.internal.CelCompare;

/**
 * Runs the upstream-transcribed cases in ../shared/fixtures/cel/cel-cases-v2.json: {@code expr} with {@code self}
 * bound to the JSON value must yield {@code expect}, or fail where {@code error} is given (at compile time when
 * upstream's error is a compilation error, else at compile or run time).
 * An error case passes only when cel-go's message (the fixture's) appears word for word in ours. Prints the pass count
 * per group, and with -Dtollgate.cel.printErrors=true the expected and actual messages side by side.
 */
class ConformanceTest {

    @Test
    void allCasesPass() throws Exception {
        String dir = System.getProperty("tollgate.fixtures.dir");
        Path file = dir == null ? null : Path.of(dir, "cel", "cel-cases-v2.json");
        String missing = dir == null ? "system property tollgate.fixtures.dir is not set; cannot find cel/cel-cases-v2.json"
                : Files.isRegularFile(file) ? null
                : "fixture " + file.toAbsolutePath().normalize() + " is absent: CEL conformance cases not run";
        if (missing != null) {
            System.out.println("SKIPPED ConformanceTest.allCasesPass: " + missing);
        }
        assumeTrue(missing == null, missing);
        JsonNode cases = Requests.JSON.readTree(file.toFile()).get("cases");

        KubeCel cel = KubeCel.builder().variables("self").build();
        Map<String, int[]> perGroup = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        List<String> errorPairs = new ArrayList<>();
        for (JsonNode c : cases) {
            String group = c.get("group").asText();
            String expr = c.get("expr").asText();
            int[] counts = perGroup.computeIfAbsent(group, g -> new int[2]);
            counts[1]++;
            String outcome;
            Object actual = null;
            String error = null;
            boolean compileError = false;
            try {
                CompiledExpression e = cel.compile(expr, ResultType.ANY);
                actual = cel.newEvaluation(Map.of("self", c.has("self") ? c.get("self")
                        : com.fasterxml.jackson.databind.node.NullNode.getInstance())).evaluate(e);
            } catch (CelCompileException x) {
                error = x.details();
                compileError = true;
            } catch (CelEvaluationError x) {
                error = x.getMessage();
            }
            if (c.has("error")) {
                // upstream's "compilation failed: ..." errors must be compile errors here too, not runtime ones
                boolean wantsCompileError = c.get("error").asText().startsWith("compilation failed");
                if (error != null && wantsCompileError && !compileError) {
                    failures.add(group + " | " + expr + " -> expected a compile error (" + c.get("error").asText()
                            + ") but it failed only when evaluated: " + error);
                    continue;
                }
                if (error != null) {
                    errorPairs.add(group + " | " + expr + "\n    expected: " + c.get("error").asText()
                            + "\n    actual:   " + error.replace('\n', ' '));
                    if (sameMessage(c.get("error").asText(), error)) {
                        counts[0]++;
                    } else {
                        failures.add(group + " | " + expr + " -> message differs: expected \""
                                + c.get("error").asText() + "\" but got \"" + error.replace('\n', ' ') + "\"");
                    }
                    continue;
                }
                outcome = "expected an error (" + c.get("error").asText() + ") but got " + actual;
            } else if (error != null) {
                outcome = "failed: " + error;
            } else if (CelCompare.equal(CelValues.fromJson(c.get("expect")), actual)) {
                counts[0]++;
                continue;
            } else {
                outcome = "expected " + c.get("expect") + " but got " + actual;
            }
            failures.add(group + " | " + expr + " -> " + outcome);
        }
        System.out.println("CEL conformance (" + file + "):");
        int pass = 0;
        int total = 0;
        int width = perGroup.keySet().stream().mapToInt(String::length).max().orElse(5);
        String row = "  %-" + width + "s %3d / %3d%n";
        for (Map.Entry<String, int[]> g : perGroup.entrySet()) {
            System.out.printf(row, g.getKey(), g.getValue()[0], g.getValue()[1]);
            pass += g.getValue()[0];
            total += g.getValue()[1];
        }
        System.out.printf(row, "TOTAL", pass, total);
        if (Boolean.getBoolean("tollgate.cel.printErrors")) {
            errorPairs.forEach(p -> System.out.println("  " + p));
        }
        failures.forEach(f -> System.out.println("  FAIL " + f));
        assertEquals(0, failures.size(), failures.size() + " of " + total + " cases failed (see FAIL lines above)");
    }

    /**
     * Whether cel-go's message (the fixture's, without the wrapper the CRD validator puts around it) appears word for
     * word in ours. The wrappers are apiextensions-apiserver's: "compilation failed: " (compile errors),
     * "compile error: " (program errors) and " evaluating rule: <expr>" (runtime errors); cel-go's text is what is
     * left. A fixture message with {@code .*} is a pattern (the upstream test matches it as one).
     */
    static boolean sameMessage(String expected, String actual) {
        String want = expected.replaceFirst("^compilation failed: ", "").replaceFirst("^compile error: ", "")
                .replaceFirst(" evaluating rule: .*$", "");
        String got = actual.replace('\n', ' ');
        if (want.contains(".*")) {
            String regex = java.util.Arrays.stream(want.split("\\.\\*", -1))
                    .map(java.util.regex.Pattern::quote).collect(java.util.stream.Collectors.joining(".*"));
            return java.util.regex.Pattern.compile(regex).matcher(got).find();
        }
        return got.contains(want);
    }
}
