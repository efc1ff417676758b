package dev.tollgate.knative.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.knative.ServiceManifest;
import dev.tollgate.runtime.AdmissionConfig;
import dev.tollgate.runtime.BodyBudget;
import dev.tollgate.runtime.BudgetConfig;
import io.smallrye.config.WithDefault;

/**
 * The memory arithmetic of every Knative manifest: the container's memory limit, the heap share of it, and the
 * in-flight body budget the runtime derives from that heap (BodyBudget) must leave room outside the heap and for at
 * least one review at the body limit. A manifest that breaks it would be killed by the kubelet (OOMKilled) or refuse
 * every large review with 503. Two kinds: the native executable's Service (knative/*.yaml, the default), whose heap
 * bound is the container's -Xmx argument, and the JVM variant (knative/jvm/*.yaml), whose heap is a share of the limit
 * set in JAVA_TOOL_OPTIONS.
 */
class MemoryBudgetTest {

    /** Metaspace, code cache, thread stacks and Netty's direct buffers of a started JVM function (knative/README.md). */
    static final long JVM_NON_HEAP_BYTES = 128L << 20;
    /**
     * What a native executable may hold beyond its heap bound: the image's code and image heap, thread stacks, Netty's
     * buffers (48 MiB idle), and the collector's copy reserve (GraalVM's serial collector copies live objects during a
     * full collection, so it takes memory beyond -Xmx while it runs: GraalVM Native Image reference, "Memory
     * Management"). Measured: RSS peaked 197 MiB above -Xmx192m under shared/load-test's MemoryBudgetIT (389 MiB on
     * a loaded machine); rounded up.
     */
    static final long NATIVE_NON_HEAP_BYTES = 208L << 20;
    /**
     * The smallest native heap measured to survive MemoryBudgetIT: at -Xmx160m (a budget of exactly one maximal review)
     * the executable ran out of heap; at -Xmx192m it answered every request cleanly. The native executable's heap per
     * body byte is above the JVM's 16 (shared/function-runtime README, "Memory and time budgets").
     */
    static final long NATIVE_MIN_HEAP_BYTES = 192L << 20;

    private static final Pattern MAX_RAM_PERCENTAGE = Pattern.compile("-XX:MaxRAMPercentage=([0-9.]+)");
    private static final Pattern XMX = Pattern.compile("-Xmx([0-9]+)([kKmMgG])");

    @Test
    void arithmeticOfTheDefaults() {
        // JVM: 384 MiB at 50 %: 192 MiB of heap; (192 - 48) MiB / 16 = 9 MiB of bodies in flight >= one 7 MiB body.
        assertEquals(9L << 20, budget(192L << 20, Map.of()));
        assertEquals(192L << 20, heap("-XX:MaxRAMPercentage=50", 384L << 20));
        assertEquals(96L << 20, heap("-XX:+ExitOnOutOfMemoryError -Xmx96m", 384L << 20));
    }

    @TestFactory
    Stream<DynamicTest> nativeHeapBoundBudgetAndContainerLimitAgree() {
        return Project.functions().stream().map(f -> dynamicTest(f.name(), () -> {
            ServiceManifest m = ServiceManifest.read(f.committedManifest());
            Map<String, String> env = env(m.container());
            assertFalse(env.containsKey("JAVA_TOOL_OPTIONS"), () -> f.committedManifest() + ": the native "
                    + "executable's Service sets JAVA_TOOL_OPTIONS, which a native executable does not read");
            List<String> args = new ArrayList<>();
            m.container().path("args").forEach(a -> args.add(a.asText()));
            String options = String.join(" ", args);
            assertTrue(XMX.matcher(options).find(), () -> f.committedManifest() + ": the container's args " + args
                    + " give the native executable no -Xmx: unbounded, its heap grows with the machine's memory, not "
                    + "the container's limit");
            long heap = heap(options, limit(m));
            assertTrue(heap >= NATIVE_MIN_HEAP_BYTES, () -> f.committedManifest() + ": -Xmx " + mib(heap)
                    + " is below the " + mib(NATIVE_MIN_HEAP_BYTES) + " measured to hold a maximal review under load");
            check(f.committedManifest().toString(), m, env, heap, NATIVE_NON_HEAP_BYTES);
        }));
    }

    @TestFactory
    Stream<DynamicTest> jvmHeapBudgetAndContainerLimitAgree() {
        return Project.functions().stream().map(f -> dynamicTest(f.name(), () -> {
            Path file = JvmVariant.manifest(f.name());
            ServiceManifest m = ServiceManifest.read(file);
            Map<String, String> env = env(m.container());
            String jvm = env.getOrDefault("JAVA_TOOL_OPTIONS", "");
            assertTrue(jvm.contains("-XX:+ExitOnOutOfMemoryError"), () -> file
                    + ": JAVA_TOOL_OPTIONS must hold -XX:+ExitOnOutOfMemoryError, so a poisoned instance is restarted");
            check(file.toString(), m, env, heap(jvm, limit(m)), JVM_NON_HEAP_BYTES);
        }));
    }

    /** The native executables exit on OutOfMemoryError as the JVM does: a build-time default (-R:), no flag needed. */
    @Test
    void nativeExecutablesExitOnOutOfMemoryError() throws IOException {
        Properties runtime = new Properties();
        try (InputStream in = BodyBudget.class.getResourceAsStream("/META-INF/microprofile-config.properties")) {
            assertTrue(in != null, "the function runtime's microprofile-config.properties");
            runtime.load(in);
        }
        assertTrue(runtime.getProperty("quarkus.native.additional-build-args", "")
                .contains("-R:+ExitOnOutOfMemoryError"), "quarkus.native.additional-build-args holds "
                + "-R:+ExitOnOutOfMemoryError");
    }

    private static long limit(ServiceManifest m) {
        long limit = quantity(m.container().path("resources").path("limits").path("memory").asText(""));
        assertTrue(limit > 0, () -> m.source() + ": no memory limit");
        return limit;
    }

    private static void check(String file, ServiceManifest m, Map<String, String> env, long heap, long outside) {
        long limit = limit(m);
        assertTrue(limit - heap >= outside, () -> file + ": heap " + mib(heap) + " leaves " + mib(limit - heap)
                + " of the " + mib(limit) + " limit outside the heap; it needs " + mib(outside));
        long request = quantity(m.container().path("resources").path("requests").path("memory").asText(""));
        assertTrue(request > 0 && request <= limit, () -> file + ": memory request " + mib(request)
                + " must be set and at most the limit " + mib(limit));
        long maxBody = longEnv(env, "TOLLGATE_ADMISSION_MAX_BODY_BYTES", defaultOf(AdmissionConfig.class,
                "maxBodyBytes"));
        long budget = budget(heap, env);
        assertTrue(budget >= maxBody, () -> file + ": the in-flight body budget " + mib(budget) + " (heap "
                + mib(heap) + ") cannot hold one review at the body limit " + mib(maxBody));
    }

    /** BodyBudget's rule: (heap - reserve) / heap-per-body-byte, unless set. */
    static long budget(long heap, Map<String, String> env) {
        if (env.containsKey("TOLLGATE_BUDGET_IN_FLIGHT_BODY_BYTES")) {
            return Long.parseLong(env.get("TOLLGATE_BUDGET_IN_FLIGHT_BODY_BYTES"));
        }
        long reserve = longEnv(env, "TOLLGATE_BUDGET_HEAP_RESERVE_BYTES", defaultOf(BudgetConfig.class,
                "heapReserveBytes"));
        long perByte = longEnv(env, "TOLLGATE_BUDGET_HEAP_PER_BODY_BYTE", defaultOf(BudgetConfig.class,
                "heapPerBodyByte"));
        return (heap - reserve) / perByte;
    }

    static long heap(String jvmOptions, long limit) {
        Matcher xmx = XMX.matcher(jvmOptions);
        if (xmx.find()) {
            return Long.parseLong(xmx.group(1)) << switch (Character.toLowerCase(xmx.group(2).charAt(0))) {
                case 'k' -> 10;
                case 'm' -> 20;
                default -> 30;
            };
        }
        Matcher pct = MAX_RAM_PERCENTAGE.matcher(jvmOptions);
        // The JVM's own default is a quarter of the container's memory.
        double percent = pct.find() ? Double.parseDouble(pct.group(1)) : 25;
        return (long) (limit * percent / 100);
    }

    private static Map<String, String> env(JsonNode container) {
        Map<String, String> env = new HashMap<>();
        container.path("env").forEach(e -> env.put(e.path("name").asText(), e.path("value").asText()));
        return env;
    }

    private static long longEnv(Map<String, String> env, String name, long fallback) {
        return env.containsKey(name) ? Long.parseLong(env.get(name)) : fallback;
    }

    private static long defaultOf(Class<?> mapping, String method) {
        try {
            Method m = mapping.getMethod(method);
            return Long.parseLong(m.getAnnotation(WithDefault.class).value());
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A Kubernetes memory quantity in bytes (Mi, Gi, M, G, plain). */
    static long quantity(String q) {
        Matcher m = Pattern.compile("([0-9]+)(Ki|Mi|Gi|k|M|G)?").matcher(q.strip());
        if (!m.matches()) {
            return -1;
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "" : m.group(2);
        return switch (unit) {
            case "Ki" -> n << 10;
            case "Mi" -> n << 20;
            case "Gi" -> n << 30;
            case "k" -> n * 1000;
            case "M" -> n * 1000_000;
            case "G" -> n * 1000_000_000;
            default -> n;
        };
    }

    private static String mib(long bytes) {
        return (bytes >> 20) + " MiB";
    }
}
