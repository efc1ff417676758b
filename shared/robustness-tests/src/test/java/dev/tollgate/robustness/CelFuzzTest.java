package dev.tollgate.robustness;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionCodec;
import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.ReviewDecodeException;
import dev.tollgate.admission.fuzz.JazzerConsole;
import dev.tollgate.cel.AdmissionInput;
import dev.tollgate.cel.CelCompileException;
import dev.tollgate.cel.CelEvaluationError;
import dev.tollgate.cel.CompiledExpression;
import dev.tollgate.cel.Evaluation;
import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.ResultType;
import dev.tollgate.testing.Pods;
import dev.tollgate.testing.ReviewBuilder;

/**
 * Fuzz targets over shared/cel: arbitrary expressions compile or fail with CelCompileException and evaluate or fail
 * with CelEvaluationError (cost limits included); the Kubernetes library functions (quantity, url, ip, cidr,
 * semver, regex, format) get arbitrary strings and answer or fail the same way. Nothing else may escape. Regression
 * inputs in src/test/resources/.../CelFuzzTestInputs/ (fields separated by NUL bytes); fuzz with JAZZER_FUZZ=1 and
 * JAZZER_INSTRUMENTATION_INCLUDES='dev.tollgate.**:dev.cel.**' so coverage guides into the CEL code (see the
 * function-runtime README).
 */
class CelFuzzTest {

    private static final KubeCel CEL = KubeCel.standard();
    private static final AdmissionCodec CODEC = new AdmissionCodec();
    private static final String A = "object.metadata.labels.a";
    private static final String B = "object.metadata.labels.b";
    private static final List<String> LIBRARY_CALLS = List.of(
            "isQuantity(" + A + ") && quantity(" + A + ").asApproximateFloat() >= 0.0",
            "quantity(" + A + ").isGreaterThan(quantity('1Gi'))",
            "quantity(" + A + ").add(quantity(" + B + ")).asInteger()",
            "isURL(" + A + ") && url(" + A + ").getHost() != ''",
            "url(" + A + ").getEscapedPath() + url(" + A + ").getQuery().size().string()",
            "isIP(" + A + ") && ip(" + A + ").family() == 4",
            "ip(" + A + ").isCanonical()",
            "isCIDR(" + A + ") && cidr(" + A + ").containsIP(" + B + ")",
            "cidr(" + A + ").masked().prefixLength()",
            "isSemver(" + A + ") && semver(" + A + ").isLessThan(semver(" + B + "))",
            A + ".matches(" + B + ")",
            A + ".find(" + B + ")",
            A + ".findAll(" + B + ").size()",
            A + ".split(" + B + ").size() + " + A + ".indexOf(" + B + ")",
            A + ".replace(" + B + ", 'x').lowerAscii().trim()",
            "'%s-%d'.format([" + A + ", " + B + ".size()])",
            A + ".substring(" + B + ".size())",
            "[" + A + ", " + B + "].isSorted() || " + A + ".charAt(0) == 'x'");
    private static final List<CompiledExpression> COMPILED = new ArrayList<>();

    static {
        for (String e : LIBRARY_CALLS) {
            try {
                COMPILED.add(CEL.compile(e, ResultType.ANY));
            } catch (CelCompileException ex) {
                // A library function this environment does not offer: reported by librariesCompile().
            }
        }
    }

    @BeforeAll
    static void quietJazzer() {
        JazzerConsole.dropInfoUnlessFuzzing();
    }

    /** An expression, then the object's labels a and b, separated by NUL bytes. */
    @FuzzTest(maxDuration = "10m")
    @DictionaryEntries({ "object.", "oldObject", "request.", "metadata", "labels", "spec.containers", ".map(",
            ".all(", ".exists(", ".filter(", "has(", "size(", "quantity(", "url(", "ip(", "cidr(", "semver(",
            ".matches(", "'", "[", "]", "{", "}", "?.", ".orValue(", "int(", "string(", "dyn(", "\u0000" })
    void expressions(byte[] input) throws ReviewDecodeException {
        String[] parts = split(input, 3);
        AdmissionRequest request = request(parts[1], parts[2]);
        CompiledExpression compiled;
        try {
            compiled = CEL.compile(parts[0], ResultType.ANY);
        } catch (CelCompileException e) {
            return;
        }
        try {
            CEL.newEvaluation(AdmissionInput.of(request)).evaluate(compiled);
        } catch (CelEvaluationError e) {
            // refused: a runtime error or the cost limit
        }
    }

    /** Labels a and b (separated by a NUL byte) through every library call. */
    @FuzzTest(maxDuration = "10m")
    @DictionaryEntries({ "Gi", "Mi", "m", "e3", "https://", "http://", "::", ".", "/", "%", "?", "#", "@", "v1.",
            "-rc.", "+", "(", ")", "*", "[", "\\", "\u0000" })
    void libraries(byte[] input) throws ReviewDecodeException {
        assertTrue(COMPILED.size() >= LIBRARY_CALLS.size() - 2, "most library calls compile: " + COMPILED.size());
        String[] parts = split(input, 2);
        Evaluation ev = CEL.newEvaluation(AdmissionInput.of(request(parts[0], parts[1])));
        for (CompiledExpression e : COMPILED) {
            try {
                ev.evaluate(e);
            } catch (CelEvaluationError expected) {
                // refused input
            }
        }
    }

    /** Up to {@code n} UTF-8 strings separated by NUL bytes; missing ones are empty. */
    private static String[] split(byte[] input, int n) {
        String[] out = new String[n];
        java.util.Arrays.fill(out, "");
        String[] parts = new String(input, java.nio.charset.StandardCharsets.UTF_8).split("\u0000", n);
        System.arraycopy(parts, 0, out, 0, Math.min(n, parts.length));
        return out;
    }

    private static AdmissionRequest request(String a, String b) throws ReviewDecodeException {
        ObjectNode pod = Pods.withLabels(Pods.minimal("fuzz"), "a", a, "b", b);
        return CODEC.decode(ReviewBuilder.create(pod).bytes()).request();
    }
}
