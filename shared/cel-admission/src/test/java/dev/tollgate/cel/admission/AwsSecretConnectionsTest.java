package dev.tollgate.cel.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/**
 * Cluster connections from one AWS Secrets Manager secret on Lambda, read through the Parameters and Secrets
 * extension (a local HTTP server stands in for it, answering as its documented endpoint does: GET
 * /secretsmanager/get?secretId=..., header X-Aws-Parameters-Secrets-Token, the secret's JSON with SecretString) only
 * when a connection is first used, and the API server of a cluster (fabric8's mock server).
 */
@EnableKubernetesMockClient(crud = true, https = false)
class AwsSecretConnectionsTest {

    static final String SECRET = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:tollgate-clusters-AbCdEf";
    static final ObjectMapper JSON = new ObjectMapper();

    KubernetesClient client;
    KubernetesMockServer server;
    HttpServer extension;
    final AtomicInteger status = new AtomicInteger(200);
    final List<String> asked = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("shop")
                .addToLabels("mesh", "enabled").endMetadata().build()).create();
        String kubeconfig = """
                apiVersion: v1
                kind: Config
                clusters: [{name: east, cluster: {server: "%s"}}]
                users: [{name: reader, user: {token: east-reader-token}}]
                contexts: [{name: east, context: {cluster: east, user: reader}}]
                current-context: east
                """.formatted(server.url("/"));
        String secret = JSON.writeValueAsString(Map.of("Name", "tollgate-clusters", "SecretString",
                JSON.writeValueAsString(Map.of("east", kubeconfig))));
        extension = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        extension.createContext("/secretsmanager/get", exchange -> {
            synchronized (asked) {
                asked.add(exchange.getRequestURI().getRawQuery() + " "
                        + exchange.getRequestHeaders().getFirst("X-Aws-Parameters-Secrets-Token"));
            }
            byte[] body = (status.get() == 200 ? secret : "{\"message\":\"not ready\"}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status.get(), body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        extension.start();
    }

    @AfterEach
    void stop() {
        extension.stop(0);
    }

    ClusterContexts contexts() {
        Map<String, String> config = Map.of("tollgate.clusters.names", "east,west", "tollgate.clusters.aws-secret", SECRET);
        Map<String, String> env = Map.of("AWS_SESSION_TOKEN", "session-token",
                "PARAMETERS_SECRETS_EXTENSION_HTTP_PORT", String.valueOf(extension.getAddress().getPort()));
        return ClusterContexts.read(k -> Optional.ofNullable(config.get(k)), Optional::empty,
                k -> Optional.ofNullable(env.get(k)));
    }

    @Test
    void eachNamedClusterReadsItsKubeconfigFromTheSecretWhenFirstUsed() throws Exception {
        ClusterContexts contexts = contexts();
        assertEquals(List.of("east", "west"), List.copyOf(contexts.names()));
        assertEquals(List.of(), asked, "nothing is read while the function starts (the extension answers no init)");

        KubernetesClient east = contexts.connection("east").orElseThrow().client(Duration.ofSeconds(5));
        assertEquals("enabled", east.namespaces().withName("shop").get().getMetadata().getLabels().get("mesh"));
        assertEquals("Bearer east-reader-token", server.getLastRequest().getHeader("Authorization"));
        assertEquals(List.of("secretId=arn%3Aaws%3Asecretsmanager%3Aeu-west-1%3A123456789012%3Asecret%3Atollgate-"
                + "clusters-AbCdEf session-token"), asked);
    }

    @Test
    void aClusterTheSecretDoesNotHoldFailsNamingItAndGetsNoOtherClustersConnection() {
        ClusterContexts contexts = contexts();
        contexts.connection("east").orElseThrow().client(Duration.ofSeconds(5));
        ClusterConnection west = contexts.connection("west").orElseThrow();
        assertEquals("AWS Secrets Manager secret " + SECRET + " key west", west.describe());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> west.client(Duration.ofSeconds(5)));
        assertEquals("the secret holds no kubeconfig for cluster 'west'", e.getMessage());
        assertEquals(1, asked.size(), "one read of the secret serves every cluster");
    }

    @Test
    void aFailedReadIsRetriedAtTheNextUse() {
        ClusterContexts contexts = contexts();
        status.set(500);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> contexts.connection("east").orElseThrow().client(Duration.ofSeconds(5)));
        assertTrue(e.getMessage().startsWith("the Parameters and Secrets extension answered 500"), e.getMessage());
        status.set(200);
        contexts.connection("east").orElseThrow().client(Duration.ofSeconds(5));
        assertEquals(2, asked.size());
    }

    @Test
    void theSecretNeedsTheClustersNames() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ClusterContexts.read(
                k -> k.equals("tollgate.clusters.aws-secret") ? Optional.of(SECRET) : Optional.empty(),
                Optional::empty, k -> Optional.empty()));
        assertEquals("tollgate.clusters.aws-secret needs tollgate.clusters.names: the clusters whose kubeconfigs it "
                + "holds", e.getMessage());
    }
}
