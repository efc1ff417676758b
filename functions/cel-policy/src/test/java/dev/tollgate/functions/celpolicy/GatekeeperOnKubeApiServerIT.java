package dev.tollgate.functions.celpolicy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.tollgate.testing.HttpsFunction;
import dev.tollgate.testing.KubeApiServer;
import dev.tollgate.testing.Skip;

/**
 * Gatekeeper policies, unchanged, behind a real kube-apiserver (../shared/tools/kube-apiserver): the packaged cel-policy
 * serves a template with its own CEL source, and a Rego-only template (unique Ingress hosts) on Tollgate's library,
 * which reads the cluster's Ingresses (the inventory) through the function's connection to that cluster. The API
 * server calls the function for the objects kubectl creates, and relays its answers: denials and warnings in
 * Gatekeeper's words, a dryrun constraint only recorded. Skipped, with a SKIPPED line, without the kit.
 */
class GatekeeperOnKubeApiServerIT {

    static final String TEST = "GatekeeperOnKubeApiServerIT";

    /** A template with its own CEL, and the user's Rego-only template for unique Ingress hosts, as they have them. */
    static final String POLICIES = """
            apiVersion: templates.gatekeeper.sh/v1
            kind: ConstraintTemplate
            metadata: {name: k8srequiredteam}
            spec:
              crd:
                spec:
                  names: {kind: K8sRequiredTeam}
                  validation:
                    openAPIV3Schema:
                      type: object
                      properties:
                        label: {type: string}
              targets:
              - target: admission.k8s.gatekeeper.sh
                code:
                - engine: K8sNativeValidation
                  source:
                    validations:
                    - expression: has(variables.anyObject.metadata.labels) && variables.params.label in variables.anyObject.metadata.labels
                      messageExpression: '"missing label " + variables.params.label'
                - engine: Rego
                  source: {rego: "package k8srequiredteam"}
            ---
            apiVersion: templates.gatekeeper.sh/v1
            kind: ConstraintTemplate
            metadata: {name: k8suniqueingresshost}
            spec:
              crd: {spec: {names: {kind: K8sUniqueIngressHost}}}
              targets:
              - target: admission.k8s.gatekeeper.sh
                rego: |
                  package k8suniqueingresshost
                  violation[{"msg": "see the gatekeeper-library"}] { false }
            ---
            apiVersion: constraints.gatekeeper.sh/v1beta1
            kind: K8sRequiredTeam
            metadata: {name: pods-need-team}
            spec:
              match:
                kinds: [{apiGroups: [""], kinds: [Pod]}]
                namespaces: ["shop-*"]
              parameters: {label: team}
            ---
            apiVersion: constraints.gatekeeper.sh/v1beta1
            kind: K8sRequiredTeam
            metadata: {name: pods-should-have-owner}
            spec:
              enforcementAction: warn
              match:
                kinds: [{apiGroups: [""], kinds: [Pod]}]
              parameters: {label: owner}
            ---
            apiVersion: constraints.gatekeeper.sh/v1beta1
            kind: K8sRequiredTeam
            metadata: {name: pods-could-have-cost-center}
            spec:
              enforcementAction: dryrun
              parameters: {label: cost-center}
            ---
            apiVersion: constraints.gatekeeper.sh/v1beta1
            kind: K8sUniqueIngressHost
            metadata: {name: unique-ingress-host}
            spec:
              match:
                kinds: [{apiGroups: [extensions, networking.k8s.io], kinds: [Ingress]}]
            """;

    @TempDir
    static Path dir;
    static KubeApiServer cluster;
    static HttpsFunction function;

    @BeforeAll
    static void served() throws Exception {
        Skip.unless(KubeApiServer.missing().isEmpty(), TEST, () -> KubeApiServer.missing().orElse(""));
        Path runner = Path.of("target/quarkus-app/quarkus-run.jar").toAbsolutePath();
        assertTrue(Files.isRegularFile(runner), runner + " is missing: package the module first");
        cluster = KubeApiServer.start(TEST, "gatekeeper-cel").orElseThrow();
        // No controller-manager runs: the ServiceAccount admission plugin needs shop-a's default account made by hand.
        cluster.apply("""
                {apiVersion: v1, kind: Namespace, metadata: {name: shop-a, labels: {kubernetes.io/metadata.name: shop-a}}}
                ---
                {apiVersion: v1, kind: Namespace, metadata: {name: shop-b, labels: {kubernetes.io/metadata.name: shop-b}}}
                ---
                {apiVersion: v1, kind: ServiceAccount, metadata: {name: default, namespace: shop-a}, automountServiceAccountToken: false}
                ---
                apiVersion: networking.k8s.io/v1
                kind: Ingress
                metadata: {name: storefront, namespace: shop-a}
                spec:
                  rules:
                  - host: shop.example.com
                    http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]}
                """);
        Path policies = Files.writeString(dir.resolve("policies.yaml"), POLICIES);
        int port = HttpsFunction.freePort();
        function = HttpsFunction.start(runner, cluster, port, HttpsFunction.freePort(), dir.resolve("function.log"),
                List.of("-Dtollgate.auth.required=false", "-Dtollgate.cel-policy.config=" + policies,
                        // the cluster's own objects: namespaces and the inventory of the referential template
                        "-Dtollgate.clusters.default.kubeconfig=" + cluster.kubeconfig()));
        cluster.apply("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: tollgate-gatekeeper}
                webhooks:
                - name: cel-policy.tollgate.dev
                  clientConfig: {url: "https://127.0.0.1:%d/cel-policy", caBundle: %s}
                  rules:
                  - {operations: [CREATE, UPDATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}
                  - {operations: [CREATE, UPDATE], apiGroups: [networking.k8s.io], apiVersions: [v1], resources: [ingresses]}
                  namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: In, values: [shop-a, shop-b, default]}]}
                  failurePolicy: Fail
                  sideEffects: None
                  timeoutSeconds: 10
                  admissionReviewVersions: [v1]
                """.formatted(port, cluster.env("KAS_WEBHOOK_CA_BUNDLE")));
        // The API server applies a new webhook configuration shortly after the write: wait until it calls.
        for (int i = 0; i < 100 && cluster.kubectlRun("-n", "shop-a", "run", "probe", "--image=nginx",
                "--dry-run=server").exit() == 0; i++) {
            Thread.sleep(100);
        }
    }

    @AfterAll
    static void stop() {
        if (function != null) {
            function.close();
        }
        if (cluster != null) {
            cluster.stop();
        }
    }

    static KubeApiServer.Run pod(String namespace, String labels) {
        return cluster.kubectlRun("-n", namespace, "run", "web", "--image=nginx", "--labels=" + labels,
                "--dry-run=server");
    }

    @Test
    void theApiServerRelaysGatekeepersWords() {
        KubeApiServer.Run missing = pod("shop-a", "app=web");
        assertEquals(1, missing.exit(), missing.stderr());
        assertTrue(missing.stderr().contains("admission webhook \"cel-policy.tollgate.dev\" denied the request:"
                + " [pods-need-team] missing label team"), missing.stderr());
        // The warn constraint's words reach kubectl as a warning; the dryrun one is not answered at all.
        assertTrue(missing.stderr().contains("[pods-should-have-owner] missing label owner"), missing.stderr());
        assertTrue(!missing.stderr().contains("cost-center"), missing.stderr());

        KubeApiServer.Run team = pod("shop-a", "team=payments");
        assertEquals(0, team.exit(), team.stderr());
        assertTrue(team.stderr().contains("Warning: [pods-should-have-owner] missing label owner"), team.stderr());

        KubeApiServer.Run outside = pod("default", "app=web");   // namespaces: [shop-*] does not select default
        assertEquals(0, outside.exit(), outside.stderr());
    }

    @Test
    void aRegoOnlyTemplateRunsOnTheLibraryWithTheClustersInventory() {
        KubeApiServer.Run conflict = ingress("shop-b", "copy", "shop.example.com");
        assertEquals(1, conflict.exit(), conflict.stderr());
        assertTrue(conflict.stderr().contains("admission webhook \"cel-policy.tollgate.dev\" denied the request:"
                + " [unique-ingress-host] ingress host conflicts with an existing ingress <shop.example.com>"),
                conflict.stderr());
        KubeApiServer.Run own = ingress("shop-b", "other", "other.example.com");
        assertEquals(0, own.exit(), own.stderr());
        // The stored Ingress itself, updated, does not conflict with itself.
        KubeApiServer.Run same = ingress("shop-a", "storefront", "shop.example.com");
        assertEquals(0, same.exit(), same.stderr());
    }

    static KubeApiServer.Run ingress(String namespace, String name, String host) {
        Path file = dir.resolve(namespace + "-" + name + ".yaml");
        try {
            Files.writeString(file, """
                    apiVersion: networking.k8s.io/v1
                    kind: Ingress
                    metadata: {name: %s, namespace: %s}
                    spec:
                      rules:
                      - host: %s
                        http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]}
                    """.formatted(name, namespace, host));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return cluster.kubectlRun("apply", "--dry-run=server", "-f", file.toString());
    }
}
