package dev.tollgate.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.tollgate.cel.admission.ClusterConnection;
import dev.tollgate.cel.admission.ClusterNamespaces;
import dev.tollgate.testing.KubeApiServer;

/**
 * What one more governed cluster costs a function that reads namespaces (cel-policy, cel-mutate): the heap, threads
 * and resident memory of one cluster context ({@link ClusterNamespaces} over its own {@link ClusterConnection}, i.e.
 * its own fabric8 client, connection pool and cache) once it has answered a lookup, and how long a namespace lookup
 * takes: the first of a context (the kubeconfig parsed, the client built, TLS handshake, one GET), one more name on
 * the open connection (one GET), and a cached name.
 *
 * <p>
 * The contexts are N kubeconfigs of one real kube-apiserver (the kit in {@code ../shared/tools/kube-apiserver},
 * started here as instance {@code cluster-context-cost} and stopped at the end): each context builds its own client
 * and connection, as one per governed cluster would; the API server's own cost is not the function's. Run from the
 * repository root (shared/benchmarks/README.md has the command and the figures):
 * {@code java -Xmx512m -cp shared/benchmarks/target/benchmarks.jar dev.tollgate.benchmarks.ClusterContextCost 100}.
 */
public final class ClusterContextCost {

    private ClusterContextCost() {
    }

    public static void main(String[] args) throws Exception {
        int contexts = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        var started = KubeApiServer.start("ClusterContextCost", "cluster-context-cost");
        if (started.isEmpty()) {
            System.exit(2); // the SKIPPED line says why
        }
        try (KubeApiServer kas = started.get()) {
            kas.apply("{apiVersion: v1, kind: Namespace, metadata: {name: shop, labels: {mesh: enabled}}}\n---\n"
                    + "{apiVersion: v1, kind: Namespace, metadata: {name: other}}\n");
            Path dir = Files.createTempDirectory("cluster-context-cost");
            List<Path> kubeconfigs = new ArrayList<>();
            for (int i = 0; i <= contexts; i++) {
                Path copy = dir.resolve("c" + i + ".kubeconfig");
                Files.copy(kas.kubeconfig(), copy);
                kubeconfigs.add(copy);
            }
            // Context 0 loads the classes (fabric8, its HTTP client, TLS) and is not counted.
            List<ClusterNamespaces> live = new ArrayList<>();
            live.add(lookup(kubeconfigs.get(0), new long[3], 0));
            long heapBefore = heapAfterGc();
            long rssBefore = rssKiB();
            int threadsBefore = Thread.activeCount();
            long[] first = new long[contexts];
            long[] another = new long[contexts];
            long[] cached = new long[contexts];
            for (int i = 1; i <= contexts; i++) {
                long[] times = new long[3];
                live.add(lookup(kubeconfigs.get(i), times, i));
                first[i - 1] = times[0];
                another[i - 1] = times[1];
                cached[i - 1] = times[2];
            }
            long heapAfter = heapAfterGc();
            long rssAfter = rssKiB();
            int threadsAfter = Thread.activeCount();
            System.out.printf("%d cluster contexts (kubeconfigs of one kube-apiserver v1.20, each its own client), "
                    + "java %s, %d CPUs%n", contexts, System.getProperty("java.version"),
                    Runtime.getRuntime().availableProcessors());
            System.out.println("| per context | value |");
            System.out.println("| --- | --- |");
            System.out.printf("| heap after GC | %.1f KiB |%n", (heapAfter - heapBefore) / 1024.0 / contexts);
            System.out.printf("| resident memory (RSS) | %.1f KiB |%n", (rssAfter - rssBefore) / (double) contexts);
            System.out.printf("| threads (right after the lookups) | %.2f |%n", (threadsAfter - threadsBefore) / (double) contexts);
            System.out.println();
            System.out.println("| namespace lookup | median | p90 | max |");
            System.out.println("| --- | --- | --- | --- |");
            row("first of a context (client built, TLS handshake, GET)", first);
            row("another name, open connection (GET)", another);
            row("cached name", cached);
            if (live.size() != contexts + 1) {
                throw new IllegalStateException("contexts lost");
            }
        }
        System.exit(0); // the clients' HTTP event loops are not daemon threads
    }

    /** A new context's lookups: the first (timed into times[0]), another name (times[1]), the first again (times[2]). */
    private static ClusterNamespaces lookup(Path kubeconfig, long[] times, int i) {
        ClusterNamespaces ns = new ClusterNamespaces(ClusterConnection.kubeconfig(kubeconfig, null),
                ClusterNamespaces.Settings.defaults());
        long t0 = System.nanoTime();
        String label = ns.get("shop").path("metadata").path("labels").path("mesh").asText();
        long t1 = System.nanoTime();
        ns.get("other");
        long t2 = System.nanoTime();
        ns.get("shop");
        long t3 = System.nanoTime();
        if (!label.equals("enabled") || ns.apiCalls() != 2) {
            throw new IllegalStateException("context " + i + ": label " + label + ", " + ns.apiCalls() + " GETs");
        }
        times[0] = t1 - t0;
        times[1] = t2 - t1;
        times[2] = t3 - t2;
        return ns;
    }

    private static void row(String what, long[] nanos) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        System.out.printf("| %s | %s | %s | %s |%n", what, ms(s[s.length / 2]), ms(s[(int) (s.length * 0.9)]),
                ms(s[s.length - 1]));
    }

    private static String ms(long nanos) {
        return nanos >= 1_000_000 ? String.format("%.1f ms", nanos / 1e6) : String.format("%.1f µs", nanos / 1e3);
    }

    private static long heapAfterGc() throws InterruptedException {
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** VmRSS of this process (Linux), in KiB; 0 where /proc is not there. */
    private static long rssKiB() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return 0;
        }
        return Files.readAllLines(status).stream().filter(l -> l.startsWith("VmRSS:"))
                .map(l -> Long.parseLong(l.replaceAll("[^0-9]", ""))).findFirst().orElse(0L);
    }
}
