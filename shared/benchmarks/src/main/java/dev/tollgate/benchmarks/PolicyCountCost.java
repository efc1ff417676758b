package dev.tollgate.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionCodec;
import dev.tollgate.admission.AdmissionHandler;
import dev.tollgate.admission.HandlerResult;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.Namespaces;
import dev.tollgate.functions.celpolicy.CelPolicy;
import dev.tollgate.functions.celpolicy.ValidatingPolicies;

/**
 * CPU time of one whole cel-policy review (decode, match, evaluate, encode) with a set of policies written by
 * knative/cold-start/policy-set.py: the cold-start Pod review in namespace sandbox, which one policy of the set
 * selects, and in shop, which all of them select. CPU time of the thread that runs the reviews, not wall time, so a
 * machine busy with other work changes the figure little; after a warm-up of the same reviews.
 *
 * <pre>
 * knative/cold-start/policy-set.py 100 /tmp/set-100
 * java -cp shared/benchmarks/target/benchmarks.jar dev.tollgate.benchmarks.PolicyCountCost /tmp/set-100 \
 *     knative/cold-start/pod-review.v1.json [reviews]
 * </pre>
 */
public final class PolicyCountCost {

    private PolicyCountCost() {
    }

    public static void main(String[] args) throws Exception {
        int reviews = args.length > 2 ? Integer.parseInt(args[2]) : 20_000;
        AdmissionHandler handler = new AdmissionHandler(new AdmissionCodec());
        ValidatingPolicies policies = ValidatingPolicies.load(ConfigFiles.read(List.of(Path.of(args[0]))),
                CelPolicy.environment("none"), Namespaces.Unknown.EMPTY);
        CelPolicy policy = new CelPolicy(policies);
        ObjectMapper json = new ObjectMapper();
        ObjectNode review = (ObjectNode) json.readTree(Files.readAllBytes(Path.of(args[1])));
        byte[] all = json.writeValueAsBytes(review);
        review.with("request").put("namespace", "sandbox");
        review.with("request").with("object").with("metadata").put("namespace", "sandbox");
        byte[] one = json.writeValueAsBytes(review);
        for (byte[] r : List.of(one, all)) {
            if (handler.handle(r, "cel-policy", policy).outcome() != HandlerResult.Outcome.ALLOWED) {
                throw new IllegalStateException("expected the review to be allowed");
            }
        }
        String summary = policies.summary().replaceAll(",.*", "");
        for (String round : List.of("warm-up", "measured")) {
            double perOne = cpuPerReview(handler, policy, one, reviews);
            // The review all policies match costs about as many times more as there are policies: fewer of them.
            double perAll = cpuPerReview(handler, policy, all, Math.max(200, reviews / 20));
            if (round.equals("measured")) {
                System.out.printf("%s: %.1f us CPU per review of the Pod matching 1, %.1f us matching all%n",
                        summary, perOne, perAll);
            }
        }
    }

    private static double cpuPerReview(AdmissionHandler handler, CelPolicy policy, byte[] review, int n) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long start = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < n; i++) {
            handler.handle(review, "cel-policy", policy);
        }
        return (threads.getCurrentThreadCpuTime() - start) / 1000.0 / n;
    }
}
