package dev.tollgate.benchmarks;

import java.util.List;
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
import dev.tollgate.admission.AdmissionHandler;
import dev.tollgate.admission.AdmissionReview;
import dev.tollgate.admission.HandlerResult;
import dev.tollgate.functions.alwayspullimages.AlwaysPullImages;
import dev.tollgate.functions.requirelabels.RequireLabels;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.ReviewBuilder;

/**
 * One whole review per operation, as the function runs it: decode the body, run the policy, compute the patch (for
 * the mutating one), encode the answer. The body is a realistic pod review of about 4 KB.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ReviewBenchmark {

    private AdmissionHandler handler;
    private RequireLabels requireLabels;
    private AlwaysPullImages alwaysPullImages;
    private byte[] podReview;

    @Setup
    public void setUp() {
        handler = new AdmissionHandler(new AdmissionCodec());
        requireLabels = new RequireLabels(List.of("team", "app.kubernetes.io/name"), List.of("cost-center"));
        alwaysPullImages = new AlwaysPullImages(true);
        podReview = ReviewBuilder.create(Manifests.resource("/realistic-pod.yaml")).bytes();
    }

    @Benchmark
    public HandlerResult<AdmissionReview> requireLabels() {
        return handler.handle(podReview, "require-labels", requireLabels);
    }

    @Benchmark
    public HandlerResult<AdmissionReview> alwaysPullImages() {
        return handler.handle(podReview, "always-pull-images", alwaysPullImages);
    }

    /** The size of the review, printed by {@code main} so the README's figure can name it. */
    public static void main(String[] args) {
        ReviewBenchmark b = new ReviewBenchmark();
        b.setUp();
        System.out.println("review size: " + b.podReview.length + " bytes");
    }
}
