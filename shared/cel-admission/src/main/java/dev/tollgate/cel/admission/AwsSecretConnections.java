package dev.tollgate.cel.admission;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The governed clusters' connections on AWS Lambda, where a function mounts no files and its environment holds 4 KB:
 * one AWS Secrets Manager secret whose string is a JSON object of kubeconfigs by cluster name
 * ({@code {"east": "<kubeconfig>", ...}}, as the Terraform module aws-lambda-functions writes it), read through the
 * AWS Parameters and Secrets Lambda Extension's local HTTP endpoint (no AWS SDK in the function). The extension
 * answers only while an invocation runs, never during init, so the secret is read when a cluster's connection is
 * first used (a review), once for all clusters; a failed read is retried at the next use.
 */
final class AwsSecretConnections {

    static final String DEFAULT_ENDPOINT = "http://localhost:2773";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final String secretId;
    private final URI endpoint;
    private final Function<String, Optional<String>> env;
    private Map<String, String> kubeconfigs;

    /**
     * @param secretId the secret's name or ARN
     * @param endpoint the extension's base URL ({@code http://localhost:<PARAMETERS_SECRETS_EXTENSION_HTTP_PORT>})
     * @param env      the process environment, for {@code AWS_SESSION_TOKEN}, which the extension requires on every
     *                 request (header {@code X-Aws-Parameters-Secrets-Token})
     */
    AwsSecretConnections(String secretId, URI endpoint, Function<String, Optional<String>> env) {
        this.secretId = secretId;
        this.endpoint = endpoint;
        this.env = env;
    }

    /** The extension's endpoint as Lambda configures it: its port from the environment, else the default 2773. */
    static URI endpoint(Function<String, Optional<String>> env) {
        return URI.create(env.apply("PARAMETERS_SECRETS_EXTENSION_HTTP_PORT").map(p -> "http://localhost:" + p.strip())
                .orElse(DEFAULT_ENDPOINT));
    }

    /** A connection of {@code cluster}, read from the secret when first used. */
    ClusterConnection connection(String cluster) {
        String where = "AWS Secrets Manager secret " + secretId + " key " + cluster;
        return ClusterConnection.kubeconfigText(where, () -> {
            String kubeconfig = kubeconfigs().get(cluster);
            if (kubeconfig == null) {
                throw new IllegalArgumentException("the secret holds no kubeconfig for cluster '" + cluster + "'");
            }
            return kubeconfig;
        });
    }

    private synchronized Map<String, String> kubeconfigs() {
        if (kubeconfigs == null) {
            kubeconfigs = fetch();
        }
        return kubeconfigs;
    }

    private Map<String, String> fetch() {
        String token = env.apply("AWS_SESSION_TOKEN").orElseThrow(() -> new IllegalStateException(
                "AWS_SESSION_TOKEN is not set (the Parameters and Secrets extension requires it)"));
        URI uri = URI.create(endpoint + "/secretsmanager/get?secretId="
                + URLEncoder.encode(secretId, StandardCharsets.UTF_8));
        HttpResponse<String> answer;
        try {
            answer = HttpClient.newBuilder().connectTimeout(TIMEOUT).build().send(HttpRequest.newBuilder(uri)
                    .timeout(TIMEOUT).header("X-Aws-Parameters-Secrets-Token", token).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("the Parameters and Secrets extension at " + endpoint + " did not answer ("
                    + e + "); is its layer on the function?", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted reading the secret", e);
        }
        if (answer.statusCode() != 200) {
            throw new IllegalStateException("the Parameters and Secrets extension answered " + answer.statusCode()
                    + ": " + answer.body().strip());
        }
        try {
            JsonNode secret = JSON.readTree(JSON.readTree(answer.body()).path("SecretString").asText());
            if (!secret.isObject()) {
                throw new IllegalStateException("its SecretString is not a JSON object of kubeconfigs by cluster");
            }
            Map<String, String> out = new LinkedHashMap<>();
            secret.fields().forEachRemaining(f -> out.put(f.getKey(), f.getValue().asText()));
            return Map.copyOf(out);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("its SecretString is not JSON: " + e.getOriginalMessage(), e);
        }
    }
}
