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
import dev.tollgate.admission.AdmissionHandler;
import dev.tollgate.admission.AdmissionReview;
import dev.tollgate.admission.HandlerResult;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.Namespaces;
import dev.tollgate.functions.celpolicy.CelPolicy;
import dev.tollgate.functions.celpolicy.ValidatingPolicies;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.ReviewBuilder;

/**
 * A whole cel-policy review per operation: decode the ~4 KB realistic pod review, match a ValidatingAdmissionPolicy
 * with five validations and its binding, evaluate the five validations, encode the answer. The pod passes all five
 * (every validation runs); {@link #fiveValidationsDenied()} sends a pod that fails two, with a messageExpression.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CelPolicyBenchmark {

    static final String POLICY = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: pod-baseline.example.com}
            spec:
              failurePolicy: Fail
              matchConstraints:
                resourceRules:
                - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [pods]}
              validations:
              - expression: "object.spec.containers.all(c, c.image.startsWith('registry.example.com/'))"
                messageExpression: "'untrusted images: ' + object.spec.containers.filter(c, !c.image.startsWith('registry.example.com/')).map(c, c.image).join(', ')"
              - expression: "object.spec.containers.all(c, has(c.resources.limits) && 'memory' in c.resources.limits)"
                message: "every container needs a memory limit"
              - expression: "has(object.metadata.labels) && 'app.kubernetes.io/name' in object.metadata.labels"
                message: "label app.kubernetes.io/name is required"
              - expression: "!has(object.spec.hostNetwork) || !object.spec.hostNetwork"
                message: "hostNetwork is not allowed"
                reason: Forbidden
              - expression: "object.spec.containers.all(c, has(c.securityContext) && c.securityContext.allowPrivilegeEscalation == false)"
                message: "allowPrivilegeEscalation must be false"
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicyBinding
            metadata: {name: pod-baseline-binding.example.com}
            spec: {policyName: pod-baseline.example.com, validationActions: [Deny]}
            """;

    private AdmissionHandler handler;
    private CelPolicy policy;
    private byte[] allowedReview;
    private byte[] deniedReview;

    @Setup
    public void setUp() {
        handler = new AdmissionHandler(new AdmissionCodec());
        policy = new CelPolicy(ValidatingPolicies.load(ConfigFiles.parse(POLICY, "benchmark"),
                CelPolicy.environment("none"), Namespaces.Unknown.ERROR));
        var pod = Manifests.resource("/realistic-pod.yaml");
        allowedReview = ReviewBuilder.create(pod).bytes();
        var bad = pod.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) bad.at("/spec/containers/1")).put("image",
                "docker.io/envoyproxy/envoy:v1.31");
        bad.withObject("/spec").put("hostNetwork", true);
        deniedReview = ReviewBuilder.create(bad).bytes();
        check(fiveValidationsAllowed(), HandlerResult.Outcome.ALLOWED);
        check(fiveValidationsDenied(), HandlerResult.Outcome.DENIED);
    }

    private static void check(HandlerResult<AdmissionReview> r, HandlerResult.Outcome expected) {
        if (r.outcome() != expected) {
            throw new IllegalStateException("benchmark set-up: expected " + expected + ", got " + r.outcome() + " "
                    + new String(r.body(), java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    @Benchmark
    public HandlerResult<AdmissionReview> fiveValidationsAllowed() {
        return handler.handle(allowedReview, "cel-policy", policy);
    }

    @Benchmark
    public HandlerResult<AdmissionReview> fiveValidationsDenied() {
        return handler.handle(deniedReview, "cel-policy", policy);
    }
}
