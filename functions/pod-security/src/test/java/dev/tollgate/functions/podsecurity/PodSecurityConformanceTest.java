package dev.tollgate.functions.podsecurity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.ResponseChecks;
import dev.tollgate.testing.ReviewBuilder;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Upstream's conformance fixtures (../shared/fixtures/pod-security: pods under {@code <level>/<version>/<pass|fail>}
 * described by index.json), each sent to the running function over HTTP as an AdmissionReview in enforce mode at
 * its level and version: pass pods must be allowed, fail pods denied with a message containing the fixture's
 * {@code expectErrorSubstring}. One test per level and version; the counts are printed at the end. Every answer
 * also passes the kit's {@link ResponseChecks} (what the API server demands of a webhook response). A keep-alive
 * HTTP client sends the thousands of reviews: several times faster than a connection per review.
 */
@QuarkusTest
class PodSecurityConformanceTest {

    private static final Map<String, int[]> COUNTS = new ConcurrentHashMap<>();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TestHTTPResource("/")
    URI root;

    record Fixture(String path, String level, String version, boolean allow, String check, String expectError) {
    }

    static Path fixturesDir() {
        String dir = System.getProperty("tollgate.fixtures.dir");
        return dir == null ? null : Path.of(dir, "pod-security");
    }

    static Map<String, List<Fixture>> fixturesByLevelVersion() {
        Path dir = fixturesDir();
        if (dir == null || !Files.isRegularFile(dir.resolve("index.json"))) {
            return Map.of();
        }
        try {
            JsonNode index = new ObjectMapper().readTree(dir.resolve("index.json").toFile());
            Map<String, List<Fixture>> groups = new TreeMap<>(Comparator.comparing(PodSecurityConformanceTest::sortKey));
            for (JsonNode f : index.path("fixtures")) {
                Fixture fixture = new Fixture(f.path("path").asText(), f.path("level").asText(),
                        f.path("version").asText(), "allow".equals(f.path("expect").asText()),
                        f.path("check").asText(""), f.path("expectErrorSubstring").asText(""));
                groups.computeIfAbsent(fixture.level() + " " + fixture.version(), k -> new ArrayList<>()).add(fixture);
            }
            return groups;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + dir.resolve("index.json"), e);
        }
    }

    /** "restricted v1.9" sorts before "restricted v1.10". */
    private static String sortKey(String levelVersion) {
        String[] parts = levelVersion.split(" v1\\.");
        return parts[0] + String.format(" %04d", Integer.parseInt(parts[1]));
    }

    static Stream<Arguments> groups() {
        Map<String, List<Fixture>> groups = fixturesByLevelVersion();
        if (groups.isEmpty()) {
            return Stream.of(Arguments.of("(no fixtures)", List.of()));
        }
        return groups.entrySet().stream().map(e -> Arguments.of(e.getKey(), e.getValue()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("groups")
    void fixturesAtLevelAndVersion(String group, List<Fixture> fixtures) {
        if (fixtures.isEmpty()) {
            System.out.println("SKIPPED PodSecurityConformanceTest: pod-security fixtures not found under "
                    + fixturesDir() + ": conformance not run");
        }
        assumeTrue(!fixtures.isEmpty(), "pod-security fixtures not found under " + fixturesDir()
                + " (set tollgate.fixtures.dir): conformance not run");
        List<String> failures = new ArrayList<>();
        for (Fixture f : fixtures) {
            String problem = run(f);
            if (problem != null) {
                failures.add(f.path() + ": " + problem);
            }
        }
        int[] counts = { fixtures.size(), fixtures.size() - failures.size(),
                (int) fixtures.stream().filter(Fixture::allow).count() };
        COUNTS.put(group, counts);
        assertTrue(failures.isEmpty(), () -> failures.size() + " of " + fixtures.size() + " fixtures at " + group
                + " fail:\n  " + String.join("\n  ", failures));
    }

    private String run(Fixture f) {
        var pod = Manifests.read(fixturesDir().resolve(f.path()));
        if (!"Pod".equals(pod.path("kind").asText())) {
            return "not a Pod";
        }
        JsonNode response = review(f.level(), f.version(), ReviewBuilder.create(pod).namespace("conformance"));
        boolean allowed = response.path("response").path("allowed").asBoolean();
        String message = response.path("response").path("status").path("message").asText("");
        if (f.allow()) {
            return allowed ? null : "expected allowed, denied: " + message;
        }
        if (allowed) {
            return "expected denied (" + f.check() + "), allowed";
        }
        if (!message.contains(f.expectError())) {
            return "denied, but the message lacks '" + f.expectError() + "': " + message;
        }
        String prefix = "pods \"" + pod.path("metadata").path("name").asText() + "\" is forbidden: violates PodSecurity \""
                + f.level() + ":" + f.version() + "\": ";
        return message.startsWith(prefix) ? null : "message not in upstream's form: " + message;
    }

    /** POSTs the review to the enforce path for the level and version; the answer must satisfy the API server. */
    private JsonNode review(String level, String version, ReviewBuilder review) {
        var request = review.build();
        HttpRequest post = HttpRequest.newBuilder(root.resolve("/pod-security/enforce/" + level + "/" + version))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Manifests.toJson(request))).build();
        try {
            HttpResponse<byte[]> answer = CLIENT.send(post, HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, answer.statusCode(), () -> new String(answer.body()));
            JsonNode response = JSON.readTree(answer.body());
            ResponseChecks.verify(request, response, false);
            return response;
        } catch (IOException e) {
            throw new IllegalStateException("review failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void indexDescribesFilesThatExist() {
        Map<String, List<Fixture>> groups = fixturesByLevelVersion();
        if (groups.isEmpty()) {
            System.out.println("SKIPPED PodSecurityConformanceTest.indexDescribesFilesThatExist: pod-security "
                    + "fixtures not found under " + fixturesDir());
        }
        assumeTrue(!groups.isEmpty(), "pod-security fixtures not found under " + fixturesDir());
        long files;
        try (Stream<Path> walk = Files.walk(fixturesDir())) {
            files = walk.filter(p -> p.toString().endsWith(".yaml")).count();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        assertEquals(files, groups.values().stream().mapToLong(List::size).sum(),
                "every fixture file is in index.json and the other way round");
    }

    @AfterAll
    static void printCounts() {
        if (COUNTS.isEmpty()) {
            return;
        }
        Map<String, int[]> sorted = new TreeMap<>(Comparator.comparing(PodSecurityConformanceTest::sortKey));
        sorted.putAll(COUNTS);
        StringBuilder out = new StringBuilder("\nPod Security conformance (enforce mode over HTTP): passed/total\n");
        Map<String, int[]> perLevel = new LinkedHashMap<>();
        sorted.forEach((group, c) -> {
            out.append(String.format("  %-16s %4d/%-4d (%d allow, %d deny)%n", group, c[1], c[0], c[2], c[0] - c[2]));
            int[] t = perLevel.computeIfAbsent(group.split(" ")[0], k -> new int[2]);
            t[0] += c[0];
            t[1] += c[1];
        });
        int total = 0;
        int passed = 0;
        for (var e : perLevel.entrySet()) {
            out.append(String.format("  %-16s %4d/%d%n", e.getKey() + " total", e.getValue()[1], e.getValue()[0]));
            total += e.getValue()[0];
            passed += e.getValue()[1];
        }
        out.append(String.format("  %-16s %4d/%d (%.1f%%)%n", "all", passed, total, 100.0 * passed / total));
        System.out.println(out);
    }
}
