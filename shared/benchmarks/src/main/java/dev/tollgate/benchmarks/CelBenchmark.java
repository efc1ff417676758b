package dev.tollgate.benchmarks;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import dev.tollgate.admission.AdmissionCodec;
import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.cel.AdmissionInput;
import dev.tollgate.cel.CelEvaluationError;
import dev.tollgate.cel.CompiledExpression;
import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.ResultType;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.ReviewBuilder;

/**
 * One CEL evaluation per operation, compiled once: {@code object.spec.containers.all(c,
 * c.image.startsWith('registry.example.com/'))} against the realistic ~4 KB pod (request already decoded), including
 * the per-request setup (binding the variables, metering cost).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CelBenchmark {

    private KubeCel cel;
    private CompiledExpression allImagesFromRegistry;
    private AdmissionInput input;

    @Setup
    public void setUp() throws Exception {
        cel = KubeCel.standard();
        allImagesFromRegistry = cel.compile(
                "object.spec.containers.all(c, c.image.startsWith('registry.example.com/'))", ResultType.BOOL);
        AdmissionRequest request = new AdmissionCodec()
                .decode(ReviewBuilder.create(Manifests.resource("/realistic-pod.yaml")).bytes()).request();
        input = AdmissionInput.of(request);
    }

    @Benchmark
    public boolean containersAllFromRegistry() throws CelEvaluationError {
        return cel.newEvaluation(input).evaluateBool(allImagesFromRegistry);
    }
}
