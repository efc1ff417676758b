package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;

import dev.tollgate.simulator.cli.RegistrationCommand;
import dev.tollgate.simulator.cli.ReviewCommand;

/**
 * The bundled CEL functions are registered for what the policies they serve select: {@code tollgate review} with
 * Gatekeeper template and constraint files sends cel-policy only the kinds the constraints name, as the API server
 * does with the registration Terraform renders from {@code tollgate registration}.
 */
class ServedPoliciesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private HttpServer bundle;
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private Path policies;

    /** A stand-in for the in-process bundle: allows everything and records which function got which kind. */
    @BeforeEach
    void start() throws IOException {
        bundle = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        bundle.createContext("/", exchange -> {
            JsonNode review = JSON.readTree(exchange.getRequestBody());
            calls.add(exchange.getRequestURI().getPath() + " " + review.at("/request/kind/kind").asText());
            ObjectNode answer = JSON.createObjectNode().put("apiVersion", "admission.k8s.io/v1")
                    .put("kind", "AdmissionReview");
            answer.putObject("response").put("uid", review.at("/request/uid").asText()).put("allowed", true);
            byte[] body = JSON.writeValueAsBytes(answer);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        bundle.start();
        policies = Files.createDirectories(dir.resolve("policies"));
        Files.writeString(policies.resolve("constraint.yaml"), """
                apiVersion: constraints.gatekeeper.sh/v1beta1
                kind: K8sRequiredLabels
                metadata: {name: pods-need-owner}
                spec:
                  match:
                    kinds: [{apiGroups: [""], kinds: [Pod]}]
                    excludedNamespaces: [legacy]
                  parameters: {labels: [{key: owner}]}
                """);
        Path empty = Files.createDirectories(dir.resolve("no-mutations"));
        System.setProperty("tollgate.cel-policy.config", policies.toString());
        System.setProperty("tollgate.cel-mutate.config", empty.toString());
    }

    @AfterEach
    void stop() {
        bundle.stop(0);
        System.clearProperty("tollgate.cel-policy.config");
        System.clearProperty("tollgate.cel-mutate.config");
    }

    private Path manifest(String name, String yaml) throws IOException {
        return Files.writeString(dir.resolve(name), yaml);
    }

    @Test
    void aKindNoConstraintSelectsNeverReachesCelPolicy() throws IOException {
        Path pod = manifest("pod.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: web, namespace: shop, labels: {owner: me}}
                spec: {containers: [{name: app, image: "registry.example.com/app:1"}]}
                """);
        // webhook.yaml's static rules send cel-policy Deployments; no constraint here selects them.
        Path deployment = manifest("deployment.yaml", """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: shop, labels: {owner: me}}
                spec:
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: [{name: app, image: "registry.example.com/app:1"}]}
                """);
        Path legacyPod = manifest("legacy-pod.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: old, namespace: legacy}
                spec: {containers: [{name: app, image: "registry.example.com/app:1"}]}
                """);
        String url = "http://127.0.0.1:" + bundle.getAddress().getPort();
        var out = CapturedCommand.run(new ReviewCommand(() -> url), "--registration-from-policies", pod.toString(),
                deployment.toString(), legacyPod.toString());
        assertEquals(0, out.exit(), out.stderr());
        List<String> celPolicy = calls.stream().filter(c -> c.startsWith("/cel-policy ")).toList();
        assertEquals(List.of("/cel-policy Pod"), celPolicy, "all calls: " + calls);
        assertTrue(calls.stream().anyMatch(c -> c.endsWith(" Deployment")), "other functions still see it: " + calls);

        // Without the flag, webhook.yaml's rules are played, as Terraform registers them without policy_rules.
        calls.clear();
        var declared = CapturedCommand.run(new ReviewCommand(() -> url), pod.toString(), deployment.toString(),
                legacyPod.toString());
        assertEquals(0, declared.exit(), declared.stderr());
        assertTrue(calls.contains("/cel-policy Deployment"), "webhook.yaml registers deployments: " + calls);
    }

    /**
     * A constraint selecting namespaces by a label that only the policy files' Namespace objects carry: the played API
     * server knows those namespaces as the in-process function does, so the Pod there is sent.
     */
    @Test
    void theNamespacesOfThePolicyFilesSelectAsTheFunctionKnowsThem() throws IOException {
        Files.writeString(policies.resolve("constraint.yaml"), """
                apiVersion: constraints.gatekeeper.sh/v1beta1
                kind: K8sRequiredLabels
                metadata: {name: audited-pods}
                spec:
                  match:
                    kinds: [{apiGroups: [""], kinds: [Pod]}]
                    namespaceSelector: {matchLabels: {audit: "on"}}
                ---
                apiVersion: v1
                kind: Namespace
                metadata: {name: shop, labels: {audit: "on"}}
                """);
        Path inShop = manifest("shop-pod.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: web, namespace: shop}
                spec: {containers: [{name: app, image: "registry.example.com/app:1"}]}
                """);
        Path elsewhere = manifest("other-pod.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: web, namespace: other}
                spec: {containers: [{name: app, image: "registry.example.com/app:1"}]}
                """);
        String url = "http://127.0.0.1:" + bundle.getAddress().getPort();
        var out = CapturedCommand.run(new ReviewCommand(() -> url), "--registration-from-policies",
                inShop.toString(), elsewhere.toString());
        assertEquals(0, out.exit(), out.stderr());
        assertEquals(List.of("/cel-policy Pod"), calls.stream().filter(c -> c.startsWith("/cel-policy ")).toList(),
                "all calls: " + calls);
    }

    @Test
    void tollgateRegistrationPrintsWhatTheReviewPlays() throws IOException {
        var out = CapturedCommand.run(new RegistrationCommand(), policies.toString());
        assertEquals(0, out.exit(), out.stderr());
        JsonNode json = JSON.readTree(out.stdout());
        assertEquals("tollgate registration " + policies, json.path("generated_by").asText());
        assertEquals(policies.resolve("constraint.yaml").toString(), json.at("/sources/0/file").asText());
        assertEquals(64, json.at("/sources/0/sha256").asText().length());
        assertEquals("""
                [{"operations":["CREATE","UPDATE"],"apiGroups":[""],"apiVersions":["*"],"resources":["pods"],\
                "scope":"*"}]""", json.path("rules").toString());
        assertEquals("""
                {"matchExpressions":[{"key":"kubernetes.io/metadata.name","operator":"NotIn","values":["legacy"]}]}\
                """, json.path("namespaceSelector").toString());
        assertEquals("[\"K8sRequiredLabels/pods-need-owner\"]", json.path("policies").toString());
    }

    @Test
    void aKindWithoutKnownResourceOrABadOptionIsOneLineAndExitTwo() throws IOException {
        Path crd = Files.createDirectories(dir.resolve("crd-policies"));
        Files.writeString(crd.resolve("c.yaml"), """
                apiVersion: constraints.gatekeeper.sh/v1beta1
                kind: K8sRequiredLabels
                metadata: {name: tabs}
                spec:
                  match:
                    kinds: [{apiGroups: [stable.example.com], kinds: [CronTab]}]
                """);
        var out = CapturedCommand.run(new RegistrationCommand(), crd.toString());
        assertEquals(2, out.exit());
        assertEquals("", out.stdout());
        assertTrue(out.stderr().startsWith("tollgate registration: the registration of [" + crd
                + "] cannot be derived: invalid policy configuration:\n  - K8sRequiredLabels/tabs ("
                + crd.resolve("c.yaml") + "#1): spec.match.kinds[0]: kind CronTab of group 'stable.example.com' is "
                + "not a built-in kind"), out.stderr());
        var op = CapturedCommand.run(new RegistrationCommand(), "--gatekeeper-operations=CREATE,PATCH",
                policies.toString());
        assertEquals(2, op.exit());
        assertEquals("tollgate registration: --gatekeeper-operations: 'PATCH' is not an operation (CREATE, UPDATE, "
                + "DELETE, CONNECT, *)\n", op.stderr());
        var missing = CapturedCommand.run(new RegistrationCommand(), dir.resolve("nope").toString());
        assertEquals(2, missing.exit());
        assertEquals("tollgate registration: configuration path " + dir.resolve("nope") + " does not exist\n",
                missing.stderr().replace(StandardCharsets.UTF_8.name(), "UTF-8"));
    }
}
