package dev.tollgate.terraform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.GroupVersionKind;
import dev.tollgate.admission.GroupVersionResource;
import dev.tollgate.admission.KubeObject;
import dev.tollgate.admission.Operation;
import dev.tollgate.admission.UserInfo;
import dev.tollgate.admission.exceptions.RequestException;
import dev.tollgate.admission.exceptions.RequestExceptions;
import dev.tollgate.cel.MatchConditions;
import dev.tollgate.cel.MatchConditions.Outcome;
import dev.tollgate.cel.NamedExpression;

/**
 * The exceptions file through webhook-configurations on a 1.30 cluster: the rendered matchConditions compiled and
 * evaluated with the project's Kubernetes CEL (shared/cel MatchConditions, the API server's rules: any false skips
 * the webhook), so each excepted request is skipped by its exception's condition and every other request, including
 * ones without a name, namespace, labels or object, reaches the function without an evaluation error. And a bad file:
 * the plan fails with one line per problem naming the exception and the field.
 */
class ExceptionsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String EXCEPTIONS = """
            exceptions:
              - name: legacy-shop
                functions: [require-labels]
                match: {namespaces: [legacy]}
                reason: moving to the new chart
                expires: 2099-12-31
              - name: batch-jobs
                functions: [require-labels]
                match:
                  object_labels: {matchLabels: {team: batch}}
                reason: the batch team's pipeline checks its own labels
                expires: "2099-12-31T00:00:00Z"
              - name: ci-deployer
                functions: [require-labels]
                match: {users: [ci-bot], service_accounts: [ci/deployer]}
                reason: CI redeploys
                expires: "2099-12-31T00:00:00Z"
              - name: old-migration
                functions: [require-labels]
                match: {users: [migrator]}
                reason: done
                expires: "2021-01-31T00:00:00Z"
            """;

    private static MatchConditions conditions;
    /** The same file as a function reads it (shared/admission), to apply what the API server cannot. */
    private static RequestExceptions inFunction;
    private static JsonNode outputs;

    @BeforeAll
    static void render() throws Exception {
        Path dir = harness("exceptions-render", EXCEPTIONS);
        Terraform.runOk(dir, "init", "-input=false", "-no-color");
        Terraform.runOk(dir, "apply", "-auto-approve", "-input=false", "-no-color");
        outputs = JSON.readTree(Terraform.runOk(dir, "output", "-json", "-no-color").stdout());
        List<NamedExpression> named = new ArrayList<>();
        for (JsonNode c : outputs.path("webhook").path("value").path("matchConditions")) {
            named.add(new NamedExpression(c.path("name").asText(), c.path("expression").asText()));
        }
        conditions = MatchConditions.compile(named);
        inFunction = RequestExceptions.parse(new YAMLMapper().readTree(EXCEPTIONS), "Exceptions file");
    }

    static Path harness(String name, String exceptionsYaml) throws IOException {
        Path tree = Terraform.workTree(); // first: it replaces terraform-work
        Path dir = Terraform.target().resolve("terraform-work").resolve(name);
        Terraform.deleteTree(dir);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("exceptions.yaml"), exceptionsYaml);
        Files.writeString(dir.resolve("main.tf"), """
                module "webhooks" {
                  source             = "%s"
                  catalog            = jsondecode(file("%s"))
                  kubernetes_version = "1.30"
                  default_url        = "https://functions.example.com"
                  functions          = ["require-labels"]
                  exceptions         = yamldecode(file("${path.module}/exceptions.yaml")).exceptions
                }

                output "webhook" {
                  value     = module.webhooks.validating_configuration.webhooks[0]
                  sensitive = true
                }

                output "expired" {
                  value = module.webhooks.exceptions_expired
                }
                """.formatted(Terraform.workTree().resolve("modules/webhook-configurations"),
                Terraform.workTree().resolve("catalog/catalog.json")));
        return dir;
    }

    @Test
    void oneConditionPerUnexpiredExceptionAfterTheDeclaredOnes() {
        List<String> names = new ArrayList<>();
        outputs.path("webhook").path("value").path("matchConditions").forEach(c -> names.add(c.path("name").asText()));
        assertEquals(List.of("exception.tollgate.dev/batch-jobs", "exception.tollgate.dev/ci-deployer",
                "exception.tollgate.dev/legacy-shop"), names);
        assertEquals("2021-01-31T00:00:00Z", outputs.path("expired").path("value").path("old-migration")
                .path("expires").asText(), outputs.toString());
    }

    @Test
    void anExceptedRequestIsSkippedByItsExceptionsCondition() {
        assertSkippedBy("exception.tollgate.dev/legacy-shop", deployment(Operation.CREATE, "legacy", "alice", null,
                Map.of()));
        assertSkippedBy("exception.tollgate.dev/batch-jobs", deployment(Operation.CREATE, "shop", "alice", null,
                Map.of("team", "batch")));
        assertSkippedBy("exception.tollgate.dev/ci-deployer", deployment(Operation.CREATE, "shop", "ci-bot", null,
                Map.of()));
        assertSkippedBy("exception.tollgate.dev/ci-deployer", deployment(Operation.CREATE, "shop",
                "system:serviceaccount:ci:deployer", null, Map.of()));
        // A DELETE has no object: the old object decides, as for an objectSelector.
        assertSkippedBy("exception.tollgate.dev/batch-jobs", deployment(Operation.DELETE, "shop", "alice",
                Map.of("team", "batch"), null));
        // A Namespace's own requests: its name.
        assertSkippedBy("exception.tollgate.dev/legacy-shop", new AdmissionRequest("uid",
                GroupVersionKind.of("", "v1", "Namespace"), GroupVersionResource.of("", "v1", "namespaces"), "", null,
                null, "", "legacy", "", Operation.CREATE, user("alice"), object("legacy", Map.of()), null, null,
                false));
    }

    @Test
    void everyOtherRequestReachesTheFunctionWithoutAnError() {
        assertCalled(deployment(Operation.CREATE, "shop", "alice", null, Map.of()));
        assertCalled(deployment(Operation.CREATE, "shop", "alice", null, Map.of("team", "web")));
        assertCalled(deployment(Operation.CREATE, "shop", "system:serviceaccount:ci:other", null, Map.of()));
        assertCalled(deployment(Operation.CREATE, "shop", "migrator", null, Map.of())); // expired: dropped
        // An UPDATE that removes the label: not every object carries it.
        assertCalled(deployment(Operation.UPDATE, "shop", "alice", Map.of("team", "batch"), Map.of()));
        // No name (generateName), no labels at all, an anonymous user, no groups.
        assertCalled(new AdmissionRequest("uid", GroupVersionKind.of("apps", "v1", "Deployment"),
                GroupVersionResource.of("apps", "v1", "deployments"), "", null, null, "", "", "shop", Operation.CREATE,
                UserInfo.ANONYMOUS, KubeObject.of((ObjectNode) JSON.createObjectNode().set("metadata",
                        JSON.createObjectNode().put("generateName", "web-"))), null, null, false));
        // A cluster-scoped object: no namespace.
        assertCalled(new AdmissionRequest("uid", GroupVersionKind.of("", "v1", "Namespace"),
                GroupVersionResource.of("", "v1", "namespaces"), "", null, null, "", "shop", "", Operation.CREATE,
                user("alice"), object("shop", Map.of()), null, null, false));
    }

    /** The example file the Knative example's README starts from is a valid exceptions file. */
    @Test
    void theCommittedExampleFileIsValid() throws IOException {
        Path example = Terraform.workTree().resolve("examples/knative-external-cluster/exceptions.example.yaml");
        Path dir = harness("exceptions-example", Files.readString(example));
        Terraform.runOk(dir, "init", "-input=false", "-no-color");
        Terraform.runOk(dir, "plan", "-input=false", "-no-color");
    }

    /** A bad file fails the plan: one line per problem, each naming the exception and the field. */
    @Test
    void aBadFileIsRefusedWithOneLinePerProblem() throws IOException {
        Path dir = harness("exceptions-bad", """
                exceptions:
                  - name: Legacy_Shop
                    functions: [require-labels]
                    match: {namespaces: [legacy]}
                    reason: r
                    expires: "2099-12-31T00:00:00Z"
                  - name: typo
                    functions: [require-labels]
                    match: {namespace: [legacy], names: [web]}
                    reason: r
                    expires: "2099-12-31T00:00:00Z"
                  - name: ops
                    functions: [require-labels]
                    match: {operations: [PATCH]}
                    reason: r
                    expires: "2099-12-31T00:00:00Z"
                  - name: selector
                    functions: [require-labels]
                    match: {object_labels: {matchExpressions: [{key: team, operator: In}]}}
                    reason: r
                    expires: "2099-12-31T00:00:00Z"
                  - name: why
                    functions: [require-labels]
                    match: {names: [web]}
                    expires: "2099-12-31T00:00:00Z"
                  - name: when
                    functions: [require-labels]
                    match: {names: [web]}
                    reason: r
                    expires: "31.12.2026"
                """);
        Terraform.runOk(dir, "init", "-input=false", "-no-color");
        Terraform.Result plan = Terraform.run(dir, "plan", "-input=false", "-no-color");
        assertFalse(plan.ok(), plan.output());
        String text = plan.flat();
        // The function reads the same file with the same words (but for the selector, which it reads with
        // shared/admission's LabelSelector, and the catalog, which it does not have).
        List<String> functionSide = assertThrows(IllegalArgumentException.class, () -> RequestExceptions.parse(
                new YAMLMapper().readTree(Files.readString(dir.resolve("exceptions.yaml"))), "Exceptions file"))
                .getMessage().lines().toList();
        for (String line : List.of(
                "Exceptions file: exception \"Legacy_Shop\": name must be a DNS label (lower-case letters, digits and '-', at most 63 characters).",
                "Exceptions file: exception \"typo\": unknown field(s) match.namespace (known: name, functions, match, reason, expires; match: namespaces, names, namespace_labels, object_labels, users, groups, service_accounts, operations).",
                "Exceptions file: exception \"ops\": match.operations must be a list of operations (CREATE, UPDATE, DELETE, CONNECT) (not: \"PATCH\").",
                "Exceptions file: exception \"selector\": match.object_labels must be a label selector with at least one requirement",
                "Exceptions file: exception \"why\": reason is missing (say why the exception exists, for the review).",
                "Exceptions file: exception \"when\": expires \"31.12.2026\" is not an RFC 3339 timestamp (e.g. 2026-12-31T00:00:00Z; every exception ends).")) {
            assertTrue(text.contains(line), "expected \"" + line + "\" in:\n" + plan.output());
            if (!line.contains("match.object_labels")) {
                assertTrue(functionSide.contains(line), "expected \"" + line + "\" in:\n" + functionSide);
            }
        }

        Files.writeString(dir.resolve("exceptions.yaml"), """
                exceptions:
                  - name: elsewhere
                    functions: [no-such-function]
                    match: {names: [web]}
                    reason: r
                    expires: "2099-12-31T00:00:00Z"
                """);
        plan = Terraform.run(dir, "plan", "-input=false", "-no-color");
        assertFalse(plan.ok(), plan.output());
        String line = "Exceptions file: exception \"elsewhere\": functions must be a non-empty list of catalog functions (not in the catalog: no-such-function).";
        assertTrue(plan.flat().contains(line), "expected \"" + line + "\" in:\n" + plan.output());
    }

    /** Skipped by the API server's condition, and excepted by the same exception where the function applies it. */
    private static void assertSkippedBy(String condition, AdmissionRequest request) {
        MatchConditions.Result r = conditions.evaluate(request);
        assertEquals(Outcome.NO_MATCH, r.outcome(), request + ": " + r);
        assertEquals(condition, r.condition(), request.toString());
        assertEquals(Optional.of(condition.substring("exception.tollgate.dev/".length())),
                inFunction.exceptedBy("require-labels", request, Instant.now()).map(RequestException::name),
                "the function's own reading of the file: " + request);
    }

    private static void assertCalled(AdmissionRequest request) {
        MatchConditions.Result r = conditions.evaluate(request);
        assertEquals(Outcome.MATCH, r.outcome(), request + ": " + r);
        assertEquals(Optional.empty(), inFunction.exceptedBy("require-labels", request, Instant.now()),
                "the function's own reading of the file: " + request);
    }

    private static AdmissionRequest deployment(Operation op, String namespace, String username,
            Map<String, String> oldLabels, Map<String, String> labels) {
        return new AdmissionRequest("uid", GroupVersionKind.of("apps", "v1", "Deployment"),
                GroupVersionResource.of("apps", "v1", "deployments"), "", null, null, "", "web", namespace, op,
                user(username), labels == null ? null : object("web", labels),
                oldLabels == null ? null : object("web", oldLabels), null, false);
    }

    private static UserInfo user(String name) {
        return new UserInfo(name, "", List.of("system:authenticated"), Map.of());
    }

    private static KubeObject object(String name, Map<String, String> labels) {
        ObjectNode metadata = JSON.createObjectNode().put("name", name);
        if (!labels.isEmpty()) {
            metadata.set("labels", JSON.valueToTree(labels));
        }
        return KubeObject.of((ObjectNode) JSON.createObjectNode().set("metadata", metadata));
    }
}
