package dev.tollgate.cel.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/**
 * Against fabric8's mock API server in expectation mode: concurrent lookups, and lookups that fail other than
 * NotFound. The API server's
 * namespace matcher turns any error but NotFound into an internal error for a namespaceSelector
 * (webhook/predicates/namespace/matcher.go); a failed namespaceObject lookup fails the request with the error's
 * Status (policy/validating/dispatcher.go, policy/mutating/dispatcher.go).
 */
@EnableKubernetesMockClient(https = false)
class ClusterNamespacesFailuresTest {

    KubernetesMockServer server;

    ClusterNamespaces source(URI api) {
        return new ClusterNamespaces(ClusterConnection.of(api, () -> "t", null),
                new ClusterNamespaces.Settings(Duration.ofSeconds(30), 10, Duration.ofSeconds(2)));
    }

    @Test
    void aForbiddenAnswerKeepsTheApiServersStatus() {
        String forbidden = "namespaces \"locked\" is forbidden: User \"system:serviceaccount:tollgate:cel-policy\" "
                + "cannot get resource \"namespaces\" in API group \"\" in the namespace \"locked\"";
        server.expect().get().withPath("/api/v1/namespaces/locked").andReturn(403, Map.of("apiVersion", "v1",
                "kind", "Status", "status", "Failure", "message", forbidden, "reason", "Forbidden", "code", 403))
                .always();
        NamespaceLookupException e = assertThrows(NamespaceLookupException.class,
                () -> source(URI.create(server.url("/"))).get("locked"));
        assertEquals(forbidden, e.getMessage());
        assertEquals("Internal error occurred: " + forbidden, e.selectorMessage());
        assertEquals(403, e.denial().code());
        assertEquals("Forbidden", e.denial().reason());
    }

    @Test
    void concurrentLookupsOfOneNamespaceShareOneGet() throws Exception {
        server.expect().get().delay(500, java.util.concurrent.TimeUnit.MILLISECONDS)
                .withPath("/api/v1/namespaces/busy").andReturn(200, Map.of("apiVersion", "v1", "kind", "Namespace",
                        "metadata", Map.of("name", "busy", "labels", Map.of("a", "b")))).always();
        ClusterNamespaces source = source(URI.create(server.url("/")));
        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            java.util.List<java.util.concurrent.Future<String>> results = new java.util.ArrayList<>();
            for (int i = 0; i < 8; i++) {
                results.add(pool.submit(() -> {
                    start.await();
                    return source.get("busy").path("metadata").path("labels").path("a").asText();
                }));
            }
            start.countDown();
            for (var r : results) {
                assertEquals("b", r.get(30, java.util.concurrent.TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        // Eight reviews arriving together (a burst after scale from zero) cost one GET, not eight.
        assertEquals(1, source.apiCalls());
    }

    @Test
    void anAnswerWithoutStatusIsDescribedByItsCode() {
        server.expect().get().withPath("/api/v1/namespaces/broken").andReturn(502, "bad gateway").always();
        NamespaceLookupException e = assertThrows(NamespaceLookupException.class,
                () -> source(URI.create(server.url("/"))).get("broken"));
        // No Status body: the client words it from the HTTP status line; the code is kept for the denial.
        assertEquals(502, e.code());
        assertEquals("Bad Gateway", e.getMessage());
        assertEquals(502, e.denial().code());
    }

    @Test
    void anUnreachableApiServerIsAnInternalErrorWithoutStatus() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        NamespaceLookupException e = assertThrows(NamespaceLookupException.class,
                () -> source(URI.create("http://127.0.0.1:" + port)).get("shop"));
        assertFalse(e.hasStatus());
        assertTrue(e.getMessage().startsWith("GET http://127.0.0.1:" + port + "/api/v1/namespaces/shop: "),
                e.getMessage());
        assertTrue(e.selectorMessage().startsWith("Internal error occurred: GET "), e.selectorMessage());
        assertEquals(500, e.denial().code());
    }

    @Test
    void outsideAClusterThereIsNoConnection(@TempDir Path dir) throws IOException {
        assertTrue(ClusterConnection.inCluster(Map.of(), dir).isEmpty());
        Files.writeString(dir.resolve("token"), "t");
        assertTrue(ClusterConnection.inCluster(Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1",
                "KUBERNETES_SERVICE_PORT", "443"), dir).isEmpty(), "no CA mounted");
    }

    @Test
    void theTokenFileIsReadAgainEveryMinute(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("token");
        Files.writeString(file, "first\n");
        AtomicLong clock = new AtomicLong();
        ClusterConnection.TokenFile token = new ClusterConnection.TokenFile(file, clock::get);
        assertEquals("first", token.get());
        Files.writeString(file, "rotated");
        clock.addAndGet(Duration.ofSeconds(59).toNanos());
        assertEquals("first", token.get());
        clock.addAndGet(Duration.ofSeconds(1).toNanos());
        assertEquals("rotated", token.get());
        Files.delete(file);
        clock.addAndGet(Duration.ofMinutes(1).toNanos());
        assertEquals("rotated", token.get(), "the last token is kept while the file cannot be read");
    }
}
