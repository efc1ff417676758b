package dev.tollgate.loadtest;

import static dev.tollgate.loadtest.FunctionProcess.mib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.Pods;
import dev.tollgate.testing.ReviewBuilder;

/**
 * Starts the packaged application on 127.0.0.1 and, for a bounded time, sends a mix of valid, invalid, oversized,
 * unauthenticated and slow requests from many clients; checks every answer against what it must be; measures
 * throughput, latency and heap; then sends SIGTERM while reviews are in flight and checks they finish and readiness
 * turned false. The run stops by itself: warm-up plus {@code tollgate.load.duration} plus at most 60 s for start
 * and shutdown. How fast answers come depends on the machine: a valid review that a busy machine could not serve
 * within the 1 s deadline gets the deadline's answer, which is correct behaviour (counted and reported, not a
 * failure); the assertions are on what each answer is, never on elapsed time.
 */
class LoadAndFaultIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();
    private static final String BEARER = "lt-bearer-" + HEX.formatHex(SecureRandom.getSeed(12));
    private static final String PATH_TOKEN = "lt-path-" + HEX.formatHex(SecureRandom.getSeed(12));
    private static final long DEADLINE_MS = 1000;
    /** How long a client waits for any answer: only a function that never answers runs into it. */
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    enum Kind {
        ALLOW(30, true), DENY(15, true), MUTATE(25, true), SLOW_OK(6, true),
        INVALID(8, false), OVERSIZED(2, false), UNAUTHENTICATED(8, false), SLOW_OVER_DEADLINE(2, false);

        final int weight;
        final boolean valid;

        Kind(int weight, boolean valid) {
            this.weight = weight;
            this.valid = valid;
        }
    }

    private static final Kind[] MIX = Arrays.stream(Kind.values())
            .flatMap(k -> java.util.stream.Stream.generate(() -> k).limit(k.weight)).toArray(Kind[]::new);

    private final Map<Kind, LongAdder> sent = new EnumMap<>(Kind.class);
    private final Map<Kind, LongAdder> wrong = new EnumMap<>(Kind.class);
    private final Map<String, LongAdder> statuses = new ConcurrentHashMap<>();
    private final Map<Kind, List<Long>> latencies = new EnumMap<>(Kind.class);
    private final LongAdder valid5xx = new LongAdder();
    /** Valid reviews answered with the deadline's 500 (the API server then applies failurePolicy): counted, not wrong. */
    private final LongAdder deadlineAnswers = new LongAdder();
    private final LongAdder transportErrors = new LongAdder();
    private final Map<String, String> firstWrong = new ConcurrentHashMap<>();
    private volatile boolean recording;

    private String base;
    private String management;
    private HttpClient client;

    @Test
    void sustainedMixedLoadThenSigtermMidFlight() throws Exception {
        Path jar = Path.of(System.getProperty("tollgate.load.jar", "target/quarkus-app/quarkus-run.jar"));
        assumeTrue(Files.isRegularFile(jar), "the packaged application is missing: " + jar);
        Duration duration = Duration.parse(System.getProperty("tollgate.load.duration", "PT15S"));
        int clients = Integer.getInteger("tollgate.load.clients", 32);
        for (Kind k : Kind.values()) {
            sent.put(k, new LongAdder());
            wrong.put(k, new LongAdder());
            latencies.put(k, java.util.Collections.synchronizedList(new ArrayList<>()));
        }
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).executor(Executors.newFixedThreadPool(4)).build();
        Path log = jar.getParent().getParent().resolve("load-app.log");
        FunctionProcess function = FunctionProcess.start(jar, log, List.of("-Xmx256m",
                "-Dtollgate.auth.bearer.values=" + BEARER, "-Dtollgate.auth.path-token.values=" + PATH_TOKEN,
                "-Dtollgate.deadline.timeout=" + DEADLINE_MS + "ms", "-Dtollgate.deadline.slow-threshold=900ms"));
        Process app = function.process;
        base = function.base;
        management = function.management;
        try {
            awaitReady(Duration.ofSeconds(60));
            Duration warmUp = Duration.ofSeconds(Math.min(10, Math.max(3, duration.toSeconds() / 4)));
            drive(clients, warmUp);
            long heapBefore = heapAfterGc(app.pid());
            long rssBefore = function.rss();
            recording = true;
            long start = System.nanoTime();
            drive(clients, duration);
            double seconds = (System.nanoTime() - start) / 1e9;
            recording = false;
            long heapAfter = heapAfterGc(app.pid());
            long rssAfter = function.rss();
            assertTrue(app.isAlive(), "the function is still running after the load");
            String shutdown = sigtermMidFlight(app);
            String report = report(duration, clients, seconds, heapBefore, heapAfter, rssBefore, rssAfter, shutdown);
            System.out.println(report);
            String out = System.getProperty("tollgate.load.report");
            if (out != null) {
                Files.writeString(Path.of(out), report);
            }
            long total = sent.values().stream().mapToLong(LongAdder::sum).sum();
            assertTrue(total > 0, "requests were sent");
            assertEquals(0, transportErrors.sum(), "transport errors (connection refused/reset, timeouts)");
            assertEquals(0, valid5xx.sum(), "5xx answers to valid requests");
            for (Kind k : Kind.values()) {
                assertEquals(0, wrong.get(k).sum(), "wrong answers for " + k + ": " + firstWrong.get(k.name()));
            }
            // Heap after a full GC may not grow beyond warm-up (allowing noise: half again plus 16 MiB).
            assertTrue(heapAfter <= heapBefore * 3 / 2 + 16L * 1024 * 1024,
                    "heap grew from " + mib(heapBefore) + " to " + mib(heapAfter));
        } finally {
            function.close();
        }
    }

    /** Runs {@code clients} loops for {@code time}; each sends one request after the other. */
    private void drive(int clients, Duration time) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        long end = System.nanoTime() + time.toNanos();
        for (int i = 0; i < clients; i++) {
            pool.execute(() -> {
                while (System.nanoTime() < end) {
                    one(MIX[ThreadLocalRandom.current().nextInt(MIX.length)]);
                }
            });
        }
        pool.shutdown();
        assertTrue(pool.awaitTermination(time.toSeconds() + 30, TimeUnit.SECONDS), "clients finished");
    }

    private void one(Kind kind) {
        Request r = request(kind);
        long t0 = System.nanoTime();
        HttpResponse<byte[]> response;
        try {
            response = client.send(r.http, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            if (recording) {
                transportErrors.increment();
                firstWrong.putIfAbsent("transport", kind + ": " + e);
            }
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        long nanos = System.nanoTime() - t0;
        if (!recording) {
            return;
        }
        sent.get(kind).increment();
        latencies.get(kind).add(nanos);
        statuses.computeIfAbsent(kind + " " + response.statusCode(), s -> new LongAdder()).increment();
        if (kind.valid && isDeadlineAnswer(response)) {
            deadlineAnswers.increment();
            return;
        }
        if (kind.valid && response.statusCode() >= 500) {
            valid5xx.increment();
        }
        String problem = check(kind, r, response);
        if (problem != null) {
            wrong.get(kind).increment();
            firstWrong.putIfAbsent(kind.name(), problem);
        }
    }

    record Request(HttpRequest http, String uid, int expectedPatchOps) {
    }

    private Request request(Kind kind) {
        String policyPath = switch (kind) {
            case MUTATE -> "/always-pull-images";
            case SLOW_OK, SLOW_OVER_DEADLINE -> "/slow";
            default -> "/require-labels";
        };
        byte[] body;
        String uid = "";
        int patchOps = 0;
        switch (kind) {
            case ALLOW, DENY, UNAUTHENTICATED -> {
                ReviewBuilder b = ReviewBuilder.create(service(kind != Kind.DENY));
                uid = b.uid();
                body = b.bytes();
            }
            case MUTATE -> {
                ObjectNode pod = Pods.withContainer(Pods.minimal("web"), "containers", "sidecar", "envoy:1.30");
                patchOps = pod.path("spec").path("containers").size();
                ReviewBuilder b = ReviewBuilder.create(pod).resource("", "v1", "pods");
                uid = b.uid();
                body = b.bytes();
            }
            case SLOW_OK, SLOW_OVER_DEADLINE -> {
                long ms = kind == Kind.SLOW_OK ? 100 : 3 * DEADLINE_MS;
                ReviewBuilder b = ReviewBuilder.create(Pods.withLabels(Pods.minimal("slow"), "sleep-ms",
                        Long.toString(ms)));
                uid = b.uid();
                body = b.bytes();
            }
            case INVALID -> body = "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":"
                    .getBytes(StandardCharsets.UTF_8);
            case OVERSIZED -> {
                body = new byte[300 * 1024];
                Arrays.fill(body, (byte) ' ');
                body[0] = '{';
                body[body.length - 1] = '}';
            }
            default -> throw new IllegalStateException(kind.name());
        }
        boolean authenticated = kind != Kind.UNAUTHENTICATED;
        boolean wrongPath = !authenticated && ThreadLocalRandom.current().nextBoolean();
        String path = "/" + (wrongPath ? PATH_TOKEN + "x" : PATH_TOKEN) + policyPath;
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(PATIENCE)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (authenticated || wrongPath) {
            b.header("Authorization", "Bearer " + BEARER);
        }
        return new Request(b.build(), uid, patchOps);
    }

    private static ObjectNode service(boolean labelled) {
        ObjectNode svc = (ObjectNode) Manifests.parse("""
                apiVersion: v1
                kind: Service
                metadata: {name: api, namespace: shop}
                spec: {ports: [{port: 80}]}
                """);
        return labelled ? Pods.withLabels(svc, "team", "shop", "app.kubernetes.io/name", "api") : svc;
    }

    /** The runtime's answer for a policy abandoned at the deadline: a 500 Status saying so. */
    private static boolean isDeadlineAnswer(HttpResponse<?> response) {
        if (response.statusCode() != 500) {
            return false;
        }
        Object body = response.body();
        String text = body instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(body);
        try {
            return JSON.readTree(text).path("message").asText().contains("did not answer within the deadline");
        } catch (IOException e) {
            return false;
        }
    }

    /** What is wrong with an answer, or null when it is exactly what it must be. */
    private static String check(Kind kind, Request r, HttpResponse<byte[]> response) {
        int status = response.statusCode();
        String body = new String(response.body(), StandardCharsets.UTF_8);
        int expected = switch (kind) {
            case INVALID -> 400;
            case OVERSIZED -> 413;
            case UNAUTHENTICATED -> 401;
            case SLOW_OVER_DEADLINE -> 500;
            default -> 200;
        };
        if (status != expected) {
            return "status " + status + " (expected " + expected + "): " + abbreviate(body);
        }
        JsonNode json;
        try {
            json = JSON.readTree(body);
        } catch (IOException e) {
            return "body is not JSON: " + abbreviate(body);
        }
        if (status != 200) {
            if (kind == Kind.SLOW_OVER_DEADLINE && !json.path("message").asText().contains("deadline")) {
                return "500 without the deadline message: " + body;
            }
            if (kind == Kind.UNAUTHENTICATED && !json.path("message").asText().equals("Unauthorized")) {
                return "401 with detail: " + body;
            }
            return null;
        }
        JsonNode resp = json.path("response");
        if (!resp.path("uid").asText().equals(r.uid())) {
            return "uid not echoed: " + abbreviate(body);
        }
        boolean allowed = resp.path("allowed").asBoolean(false);
        switch (kind) {
            case DENY -> {
                if (allowed || resp.path("status").path("code").asInt() != 403) {
                    return "expected a 403 denial: " + abbreviate(body);
                }
            }
            case MUTATE -> {
                if (!allowed || !"JSONPatch".equals(resp.path("patchType").asText())) {
                    return "expected a patch: " + abbreviate(body);
                }
                try {
                    JsonNode patch = JSON.readTree(Base64.getDecoder().decode(resp.path("patch").asText()));
                    if (patch.size() != r.expectedPatchOps()) {
                        return "expected " + r.expectedPatchOps() + " patch ops, got " + patch;
                    }
                } catch (IOException | IllegalArgumentException e) {
                    return "patch is not base64 JSON: " + abbreviate(body);
                }
            }
            default -> {
                if (!allowed || resp.has("patch")) {
                    return "expected a plain allow: " + abbreviate(body);
                }
            }
        }
        return null;
    }

    /**
     * SIGTERM while slow reviews are in flight: each must be answered (200 with its uid, or the deadline's answer when
     * the machine is too busy to serve a 700 ms review within the 1 s deadline), and readiness must turn DOWN.
     */
    private String sigtermMidFlight(Process app) throws Exception {
        List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
        List<String> uids = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            ReviewBuilder b = ReviewBuilder.create(Pods.withLabels(Pods.minimal("drain"), "sleep-ms", "700"));
            uids.add(b.uid());
            inFlight.add(client.sendAsync(HttpRequest.newBuilder(URI.create(base + "/" + PATH_TOKEN + "/slow"))
                    .header("Content-Type", "application/json").header("Authorization", "Bearer " + BEARER)
                    .timeout(PATIENCE).POST(HttpRequest.BodyPublishers.ofByteArray(b.bytes())).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        awaitInFlight(inFlight, 8L * ReviewBuilder.create(Pods.withLabels(Pods.minimal("drain"), "sleep-ms", "700"))
                .bytes().length);
        app.destroy(); // SIGTERM
        int readyStatus = -1;
        for (int i = 0; i < 40 && readyStatus != 503; i++) {
            try {
                readyStatus = client.send(HttpRequest.newBuilder(URI.create(management + "/q/health/ready")).GET()
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
            } catch (IOException e) {
                readyStatus = -2; // no longer listening
                break;
            }
            if (readyStatus != 503) {
                Thread.sleep(50);
            }
        }
        int finished = 0;
        int atDeadline = 0;
        for (int i = 0; i < inFlight.size(); i++) {
            HttpResponse<String> r = inFlight.get(i).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            if (isDeadlineAnswer(r)) {
                atDeadline++;
                continue;
            }
            JsonNode json = JSON.readTree(r.body());
            assertEquals(200, r.statusCode(), "an in-flight review finishes despite SIGTERM: " + r.body());
            assertEquals(uids.get(i), json.path("response").path("uid").asText());
            finished++;
        }
        assertEquals(503, readyStatus, "readiness reports DOWN once SIGTERM arrived, before the server stops");
        assertTrue(app.waitFor(30, TimeUnit.SECONDS), "the function exits after draining");
        assertFalse(app.isAlive());
        return "SIGTERM with " + inFlight.size() + " reviews in flight (700 ms each): " + finished + "/"
                + inFlight.size() + " answered 200, " + atDeadline + " the deadline's 500, readiness answered "
                + readyStatus
                + " during the drain, process exited with code " + app.exitValue();
    }

    private String report(Duration duration, int clients, double seconds, long heapBefore, long heapAfter,
            long rssBefore, long rssAfter, String shutdown) {
        long total = sent.values().stream().mapToLong(LongAdder::sum).sum();
        StringBuilder sb = new StringBuilder();
        sb.append("## Load and fault test\n\n");
        sb.append(String.format("%d clients for %s on 127.0.0.1 (deadline %d ms): %d requests in %.1f s = %.0f req/s%n%n",
                clients, duration, DEADLINE_MS, total, seconds, total / seconds));
        sb.append("| kind | requests | p50 ms | p99 ms | wrong |\n|---|---:|---:|---:|---:|\n");
        List<Long> validAll = new ArrayList<>();
        for (Kind k : Kind.values()) {
            List<Long> l = new ArrayList<>(latencies.get(k));
            if (k.valid && k != Kind.SLOW_OK) {
                validAll.addAll(l);
            }
            sb.append(String.format("| %s | %d | %.2f | %.2f | %d |%n", k.name().toLowerCase(), sent.get(k).sum(),
                    pct(l, 50), pct(l, 99), wrong.get(k).sum()));
        }
        sb.append(String.format("%nFast valid reviews (allow, deny, mutate): p50 %.2f ms, p99 %.2f ms.%n",
                pct(validAll, 50), pct(validAll, 99)));
        sb.append("\nStatus counts: ").append(new java.util.TreeMap<>(statuses)).append('\n');
        sb.append(String.format("%n5xx to valid requests: %d; the deadline's answer to valid requests: %d; transport "
                + "errors: %d%n", valid5xx.sum(), deadlineAnswers.sum(), transportErrors.sum()));
        sb.append(String.format("Heap after full GC: %s before, %s after; RSS %s before, %s after%n", mib(heapBefore),
                mib(heapAfter), mib(rssBefore), mib(rssAfter)));
        sb.append(shutdown).append('\n');
        return sb.toString();
    }

    private static double pct(List<Long> nanos, int p) {
        if (nanos.isEmpty()) {
            return 0;
        }
        long[] a = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
        int i = (int) Math.ceil(p / 100.0 * a.length) - 1;
        return a[Math.max(0, Math.min(a.length - 1, i))] / 1e6;
    }

    /**
     * Waits until the function holds {@code bytes} of review bodies in flight (its own gauge, on the management
     * port), i.e. every review sent has arrived, or until one of them is already answered.
     */
    private void awaitInFlight(List<CompletableFuture<HttpResponse<String>>> inFlight, long bytes)
            throws InterruptedException {
        long end = System.nanoTime() + PATIENCE.toNanos();
        while (System.nanoTime() < end && inFlight.stream().noneMatch(CompletableFuture::isDone)) {
            try {
                String metrics = client.send(HttpRequest.newBuilder(URI.create(management + "/q/metrics")).GET()
                        .build(), HttpResponse.BodyHandlers.ofString()).body();
                if (metrics.lines().filter(l -> l.startsWith("tollgate_in_flight_body_bytes"))
                        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                        .sum() >= bytes) {
                    return;
                }
            } catch (IOException e) {
                // a sample lost: try again
            }
            Thread.sleep(20);
        }
    }

    private void awaitReady(Duration max) throws InterruptedException {
        long end = System.nanoTime() + max.toNanos();
        while (System.nanoTime() < end) {
            try {
                if (client.send(HttpRequest.newBuilder(URI.create(management + "/q/health/ready")).GET().build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the function did not become ready within " + max);
    }

    /** Heap in use right after a full GC (jcmd GC.run), from the function's own metrics. */
    private long heapAfterGc(long pid) throws Exception {
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid), "GC.run").redirectErrorStream(true).start();
        jcmd.getInputStream().readAllBytes();
        assertTrue(jcmd.waitFor(60, TimeUnit.SECONDS), "jcmd GC.run finished");
        String metrics = client.send(HttpRequest.newBuilder(URI.create(management + "/q/metrics")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        AtomicLong heap = new AtomicLong();
        metrics.lines().filter(l -> l.startsWith("jvm_memory_used_bytes{") && l.contains("area=\"heap\""))
                .forEach(l -> heap.addAndGet((long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))));
        assertTrue(heap.get() > 0, "heap metrics are published");
        return heap.get();
    }

    private static String abbreviate(String s) {
        return s.length() <= 300 ? s : s.substring(0, 300) + "...";
    }

}
