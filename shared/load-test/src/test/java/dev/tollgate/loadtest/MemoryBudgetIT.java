package dev.tollgate.loadtest;

import static dev.tollgate.loadtest.FunctionProcess.mib;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.Pods;
import dev.tollgate.testing.ReviewBuilder;

/**
 * Hostile but valid-sized traffic against a function with a 256 MiB heap (issue 18): 16 clients sending ~7 MiB
 * reviews back to back, one client sending node-dense reviews under the byte limit, and clients whose bodies stall.
 * Every request is answered: 200 or a clean 4xx/503 {@code Status} (503 with Retry-After when the budget refuses,
 * which it must do at least once under this load), or the deadline's own 500 (which makes the API server apply
 * failurePolicy), never a 500 from memory and never an OutOfMemoryError; a review that outlives the deadline during
 * the load gets the deadline's answer; afterwards the same process answers liveness, a valid review and refuses a
 * node-dense one. Peak RSS and heap, the slowest answer and the time to recover are measured and reported, not
 * asserted: they depend on the machine's load.
 */
class MemoryBudgetIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration DEADLINE = Duration.ofSeconds(8);
    /**
     * How long a test client waits for any answer: far past the deadline, so only a function that never answers
     * (not a busy machine) runs into it.
     */
    private static final Duration PATIENCE = DEADLINE.plusSeconds(50);

    private final Map<String, LongAdder> answers = new ConcurrentHashMap<>();
    private final Map<String, String> firstWrong = new ConcurrentHashMap<>();
    private final AtomicLong slowest = new AtomicLong();
    private final AtomicLong peakHeap = new AtomicLong();
    private volatile boolean running = true;
    private String heapOption;
    private String artifactName;
    private HttpClient client;
    private String base;
    private String management;

    @Test
    void bigReviewsDenseReviewsAndStalledBodiesCannotTakeTheFunctionDown() throws Exception {
        Path jar = Path.of(System.getProperty("tollgate.load.jar", "target/quarkus-app/quarkus-run.jar"));
        // Or a native executable that serves /always-pull-images (a function's -runner, its jdklibs/ beside it when
        // built with the stand-in native-image): -Dtollgate.budget.executable=PATH.
        String executable = System.getProperty("tollgate.budget.executable", "");
        Path artifact = executable.isEmpty() ? jar : Path.of(executable);
        assumeTrue(Files.isRegularFile(artifact), "the packaged application is missing: " + artifact);
        Duration duration = Duration.parse(System.getProperty("tollgate.budget.duration", "PT20S"));
        Path target = jar.getParent().getParent();
        Path log = target.resolve("budget-app.log");
        Files.createDirectories(target);
        heapOption = "-Xmx" + System.getProperty("tollgate.budget.heap", "256m");
        List<String> options = new ArrayList<>(List.of(heapOption, "-XX:+ExitOnOutOfMemoryError",
                "-Dtollgate.auth.required=false", "-Dtollgate.admission.max-body-bytes=7340032",
                "-Dtollgate.decision-log.enabled=false",
                // The deadline this test is written for, past the body-read timeout (5 s), so that stalled bodies
                // meet the 408 before the deadline's 503 (the runtime's default deadline, 4 s, comes first).
                "-Dtollgate.deadline.timeout=" + DEADLINE.toMillis() + "ms"));
        options.addAll(List.of(System.getProperty("tollgate.budget.options", "").split(" ")).stream()
                .filter(o -> !o.isBlank()).toList());
        artifactName = artifact.getFileName().toString();
        try (FunctionProcess function = FunctionProcess.start(artifact, log, options)) {
            base = function.base;
            management = function.management;
            client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5)).build();
            awaitStatus("/q/health/ready", 200, Duration.ofSeconds(60));
            byte[] annotations = bigAnnotations();
            byte[] containers = manyContainers();
            byte[] dense = nodeDense();
            ExecutorService pool = Executors.newFixedThreadPool(22);
            long start = System.nanoTime();
            for (int i = 0; i < 16; i++) {
                byte[] body = i % 2 == 0 ? annotations : containers;
                pool.submit(() -> loop("big", body));
            }
            pool.submit(() -> loop("dense", dense));
            pool.submit(() -> loop("dense", dense));
            pool.submit(this::stallLoop);
            pool.submit(this::stallLoop);
            pool.submit(() -> sampleHeap(function));
            // A review that sleeps past the deadline, sent while the heap is under pressure: it must get the
            // deadline's answer (the load-test application's SlowPolicy sleeps for the pod's sleep-ms label; a
            // function's own executable has no such policy).
            boolean slowPolicy = executable.isEmpty();
            if (!slowPolicy) {
                System.out.println("SKIPPED MemoryBudgetIT's over-deadline review: " + artifact + " serves no /slow "
                        + "(only the load-test application has SlowPolicy)");
            }
            java.util.concurrent.Future<HttpResponse<String>> overDeadline = slowPolicy ? pool.submit(() -> post(
                    "/slow", Manifests.toJson(ReviewBuilder.create(Pods.withLabels(Pods.minimal("over-deadline"),
                            "sleep-ms", Long.toString(DEADLINE.plusSeconds(30).toMillis()))).build())
                            .getBytes(StandardCharsets.UTF_8))) : null;
            Thread.sleep(duration.toMillis());
            running = false;
            pool.shutdown();
            assertTrue(pool.awaitTermination(PATIENCE.toSeconds() + 30, TimeUnit.SECONDS), "the clients stopped");
            double seconds = (System.nanoTime() - start) / 1e9;
            long afterLoad = System.nanoTime();
            awaitStatus("/q/health/live", 200, PATIENCE);
            HttpResponse<String> valid = post(Manifests.toJson(ReviewBuilder.create(Pods.minimal("after")).build())
                    .getBytes(StandardCharsets.UTF_8));
            double recovery = (System.nanoTime() - afterLoad) / 1e9;
            // With the budget free again, a node-dense review alone is refused for its token count.
            HttpResponse<String> denseAlone = post(dense);
            record("dense alone", Integer.toString(denseAlone.statusCode()), denseAlone.statusCode() == 400
                    ? check("dense", denseAlone) : "a node-dense review got " + denseAlone.statusCode());
            String report = report(function, seconds, recovery, annotations.length, containers.length, dense.length);
            System.out.println(report);
            Files.writeString(target.resolve("budget-report.md"), report);

            assertTrue(function.process.isAlive(), "the function survived: see " + log);
            assertEquals(200, valid.statusCode(), "a valid review after the load: " + valid.body());
            assertTrue(firstWrong.isEmpty(), "wrong answers: " + firstWrong);
            if (overDeadline != null) {
                HttpResponse<String> deadlineAnswer = overDeadline.get();
                assertEquals(500, deadlineAnswer.statusCode(), "a review past the deadline: " + deadlineAnswer.body());
                assertTrue(JSON.readTree(deadlineAnswer.body()).path("message").asText()
                        .contains("did not answer within the deadline"), "the deadline's answer: "
                        + deadlineAnswer.body());
            }
            assertTrue(count("big 200") + count("big 500") > 0, "big reviews were admitted, not only refused: "
                    + answers);
            assertTrue(count("big 503") + count("dense 503") > 0, "the budget refused reviews (503 with "
                    + "Retry-After, checked for each) while others were in flight: " + answers);
            assertEquals(1, count("dense alone 400"), "a node-dense review is refused with 400: " + answers);
            assertTrue(count("stall 408") > 0, "stalled bodies got 408: " + answers);
            assertTrue(!Files.readString(log).contains("OutOfMemoryError"), "no OutOfMemoryError in " + log);
        }
    }

    private long count(String key) {
        LongAdder a = answers.get(key);
        return a == null ? 0 : a.sum();
    }

    private void loop(String kind, byte[] body) {
        while (running) {
            long t0 = System.nanoTime();
            HttpResponse<String> r;
            try {
                r = post(body);
            } catch (IOException e) {
                record(kind, "transport error", e.toString());
                continue;
            } catch (InterruptedException e) {
                return;
            }
            slowest.accumulateAndGet(System.nanoTime() - t0, Math::max);
            String problem = check(kind, r);
            record(kind, Integer.toString(r.statusCode()), problem);
            if (r.statusCode() == 503) {
                sleepQuietly(50); // a real client would honour Retry-After; this one only backs off a little
            }
        }
    }

    /** What is wrong with an answer, or null. */
    private static String check(String kind, HttpResponse<String> r) {
        int status = r.statusCode();
        if (status == 200) {
            return r.body().contains("\"allowed\":true") ? null : "200 without an allow: " + abbreviate(r.body());
        }
        JsonNode body;
        try {
            body = JSON.readTree(r.body());
        } catch (IOException e) {
            return status + " without a JSON body";
        }
        if (!"Status".equals(body.path("kind").asText()) || body.path("code").asInt() != status) {
            return status + " without a Status body: " + abbreviate(r.body());
        }
        if (status == 500 && body.path("message").asText().contains("did not answer within the deadline")) {
            return null; // the deadline's answer (failurePolicy applies), not a failure of the function
        }
        if (status >= 500 && status != 503) {
            return "a " + status + ": " + abbreviate(r.body());
        }
        if (status == 503 && r.headers().firstValue("Retry-After").isEmpty()) {
            return "503 without Retry-After";
        }
        if (kind.equals("dense") && status == 400 && !body.path("message").asText().contains("Token count")) {
            return "dense review refused for another reason: " + body.path("message").asText();
        }
        return null;
    }

    /** A client that sends headers and part of its body, then nothing. */
    private void stallLoop() {
        while (running) {
            long t0 = System.nanoTime();
            try (Socket s = new Socket("127.0.0.1", Integer.parseInt(base.substring(base.lastIndexOf(':') + 1)))) {
                s.setSoTimeout((int) PATIENCE.toMillis());
                OutputStream out = s.getOutputStream();
                out.write(("POST /always-pull-images HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 100000\r\n\r\n{\"apiVersion\":").getBytes(StandardCharsets.UTF_8));
                out.flush();
                String answer = new String(s.getInputStream().readNBytes(12), StandardCharsets.UTF_8);
                String status = answer.length() >= 12 ? answer.substring(9, 12) : "none";
                record("stall", status, status.equals("408") || status.equals("503") ? null
                        : "a stalled body got " + answer);
                slowest.accumulateAndGet(System.nanoTime() - t0, Math::max);
            } catch (IOException e) {
                record("stall", "transport error", e.toString());
            }
        }
    }

    private void record(String kind, String status, String problem) {
        answers.computeIfAbsent(kind + " " + status, k -> new LongAdder()).increment();
        if (problem != null) {
            firstWrong.putIfAbsent(kind + " " + status, problem);
        }
    }

    private void sampleHeap(FunctionProcess function) {
        while (running) {
            try {
                String metrics = client.send(HttpRequest.newBuilder(URI.create(management + "/q/metrics"))
                        .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
                long heap = metrics.lines()
                        .filter(l -> l.startsWith("jvm_memory_used_bytes{") && l.contains("area=\"heap\""))
                        .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
                peakHeap.accumulateAndGet(heap, Math::max);
            } catch (IOException | RuntimeException e) {
                // a sample lost under load is not a finding
            } catch (InterruptedException e) {
                return;
            }
            sleepQuietly(250);
        }
    }

    private HttpResponse<String> post(byte[] body) throws IOException, InterruptedException {
        return post("/always-pull-images", body);
    }

    private HttpResponse<String> post(String path, byte[] body) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create(base + path))
                .timeout(PATIENCE).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private void awaitStatus(String path, int status, Duration max) throws InterruptedException {
        long end = System.nanoTime() + max.toNanos();
        while (true) {
            try {
                if (client.send(HttpRequest.newBuilder(URI.create(management + path)).timeout(max).GET().build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == status) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (System.nanoTime() > end) {
                throw new AssertionError(path + " did not answer " + status + " within " + max);
            }
            Thread.sleep(50);
        }
    }

    /** A pod with three 2.4-million-character annotations: about 7 MiB, few tokens. */
    private static byte[] bigAnnotations() throws IOException {
        ObjectNode pod = Pods.minimal("annotated");
        ObjectNode annotations = pod.with("metadata").withObject("annotations");
        for (String key : List.of("a", "b", "c")) {
            annotations.put("example.com/" + key, key.repeat(2_400_000));
        }
        return JSON.writeValueAsBytes(ReviewBuilder.create(pod).build());
    }

    /** A pod with about 8,800 containers: about 7 MiB of ordinary structure. */
    private static byte[] manyContainers() throws IOException {
        ObjectNode pod = Pods.minimal("wide");
        ArrayNode list = pod.with("spec").withArray("containers");
        ObjectNode template = (ObjectNode) list.get(0);
        for (int i = 1; i < 8_800; i++) {
            ObjectNode c = template.deepCopy();
            c.put("name", "c" + i);
            c.put("image", "registry.example.com/team/app-" + i + ":1.0." + i);
            c.putObject("resources").putObject("requests").put("cpu", "10m").put("memory", "16Mi");
            c.putArray("env").addObject().put("name", "INDEX").put("value", Integer.toString(i));
            c.putArray("ports").addObject().put("containerPort", 8080).put("protocol", "TCP");
            c.put("terminationMessagePath", "/dev/termination-log/" + "x".repeat(560));
            list.add(c);
        }
        return JSON.writeValueAsBytes(ReviewBuilder.create(pod).build());
    }

    /** About 40,000 arrays nested 88 deep in one annotation-free object: millions of tokens in ~7 MB. */
    private static byte[] nodeDense() throws IOException {
        String nested = "[".repeat(88) + "]".repeat(88);
        StringBuilder arrays = new StringBuilder("[");
        for (int i = 0; i < 40_000; i++) {
            arrays.append(i == 0 ? "" : ",").append(nested);
        }
        arrays.append(']');
        ObjectNode pod = Pods.minimal("dense");
        pod.set("x", JSON.readTree("[]"));
        String review = Manifests.toJson(ReviewBuilder.create(pod).build());
        return review.replace("\"x\":[]", "\"x\":" + arrays).getBytes(StandardCharsets.UTF_8);
    }

    private String report(FunctionProcess function, double seconds, double recovery, int annotations,
            int containers, int dense) throws IOException {
        StringBuilder sb = new StringBuilder("## Memory budget under hostile load (MemoryBudgetIT)\n\n");
        sb.append(String.format("%.1f s, %s, %s; 16 clients of ~7 MiB reviews (%s annotations, %s containers), "
                + "2 of node-dense reviews (%s), 2 stalling clients%n%n", seconds, artifactName, heapOption,
                mib(annotations), mib(containers),
                mib(dense)));
        new TreeMap<>(answers).forEach((k, v) -> sb.append(String.format("- %s: %d%n", k, v.sum())));
        sb.append(String.format("%nPeak RSS (VmHWM) %s; peak heap in use (sampled every 250 ms) %s; slowest answer "
                + "%d ms; liveness and a valid review %.2f s after the load%n", mib(function.peakRss()),
                mib(peakHeap.get()), slowest.get() / 1_000_000, recovery));
        return sb.toString();
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 300 ? s : s.substring(0, 300) + "...";
    }
}
