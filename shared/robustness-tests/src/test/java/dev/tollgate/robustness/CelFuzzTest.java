package dev.tollgate.robustness;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionCodec;
import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.ReviewDecodeException;
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
 * inputs in src/test/resources/.../CelFuzzTestInputs/; fuzz with JAZZER_FUZZ=1 (see function-runtime README).
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

    @FuzzTest(maxDuration = "10m")
    void expressions(FuzzedDataProvider data) throws ReviewDecodeException {
        String expression = data.consumeString(300);
        AdmissionRequest request = request(data.consumeString(100), data.consumeRemainingAsString());
        CompiledExpression compiled;
        try {
            compiled = CEL.compile(expression, ResultType.ANY);
        } catch (CelCompileException e) {
            return;
        }
        try {
            CEL.newEvaluation(AdmissionInput.of(request)).evaluate(compiled);
        } catch (CelEvaluationError e) {
            // refused: a runtime error or the cost limit
        }
    }

    @FuzzTest(maxDuration = "10m")
    void libraries(FuzzedDataProvider data) throws ReviewDecodeException {
        assertTrue(COMPILED.size() >= LIBRARY_CALLS.size() - 2, "most library calls compile: " + COMPILED.size());
        AdmissionRequest request = request(data.consumeString(200), data.consumeRemainingAsString());
        Evaluation ev = CEL.newEvaluation(AdmissionInput.of(request));
        for (CompiledExpression e : COMPILED) {
            try {
                ev.evaluate(e);
            } catch (CelEvaluationError expected) {
                // refused input
            }
        }
    }

    private static AdmissionRequest request(String a, String b) throws ReviewDecodeException {
        ObjectNode pod = Pods.withLabels(Pods.minimal("fuzz"), "a", a, "b", b);
        return CODEC.decode(ReviewBuilder.create(pod).bytes()).request();
    }
}
