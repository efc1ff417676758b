package dev.tollgate.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.Namespaces;
import dev.tollgate.cel.admission.PolicyTypeChecker;
import dev.tollgate.functions.celpolicy.CelPolicy;
import dev.tollgate.functions.celpolicy.ValidatingPolicies;

/**
 * What cel-policy's start spends on its policies, phase by phase, in a fresh JVM: reading the files, parsing and
 * compiling the policies ({@link ValidatingPolicies#load}), and the startup type check that refuses what the API
 * server would refuse ({@link PolicyTypeChecker#checkFunctionConfiguration}), the steps of {@code CelPolicy.load}.
 * CPU time of the thread that does them, and wall time; then the same steps again in the same JVM (warm: the
 * per-policy work without class loading and the interpreter's first runs).
 *
 * <pre>
 * java -cp shared/benchmarks/target/benchmarks.jar dev.tollgate.benchmarks.PolicyStartCost DIR
 * </pre>
 */
public final class PolicyStartCost {

    private PolicyStartCost() {
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        for (String round : List.of("cold", "warm")) {
            KubeCel cel = CelPolicy.environment("none");
            List<ConfigFiles.Document> documents = timed(round, "read", () -> ConfigFiles.read(List.of(dir)));
            ValidatingPolicies loaded = timed(round, "parse+compile", () -> ValidatingPolicies.load(documents, cel,
                    Namespaces.Unknown.EMPTY));
            timed(round, "type check", () -> PolicyTypeChecker.checkFunctionConfiguration("cel-policy", cel,
                    documents, loaded.compileErrors()));
            System.out.println(round + " " + loaded.summary().replaceAll(";.*", ""));
        }
    }

    private static <T> T timed(String round, String what, Supplier<T> step) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpu = threads.getCurrentThreadCpuTime();
        long wall = System.nanoTime();
        T result = step.get();
        System.out.printf("%s %s: %d ms CPU, %d ms wall%n", round, what,
                (threads.getCurrentThreadCpuTime() - cpu) / 1_000_000, (System.nanoTime() - wall) / 1_000_000);
        return result;
    }
}
