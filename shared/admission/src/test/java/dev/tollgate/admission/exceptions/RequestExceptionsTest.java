package dev.tollgate.admission.exceptions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.GroupVersionKind;
import dev.tollgate.admission.GroupVersionResource;
import dev.tollgate.admission.KubeObject;
import dev.tollgate.admission.Operation;
import dev.tollgate.admission.UserInfo;

/**
 * The exceptions a function applies itself, criterion by criterion. That each means what the API server's rendered
 * matchCondition means is shared/terraform-tests' ExceptionsTest, which evaluates both on the same requests.
 */
class RequestExceptionsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-11-27T00:00:00Z");
    private static final RequestExceptions EXCEPTIONS = parse("""
            exceptions:
              - name: sandbox
                functions: [require-labels]
                match: {namespace_labels: {matchLabels: {sandbox: "true"}}}
                reason: only the API server can read namespace labels
                expires: 2099-12-31
              - name: batch-updates
                functions: [require-labels, pod-security]
                match:
                  object_labels: {matchExpressions: [{key: team, operator: In, values: [batch]}]}
                  operations: [UPDATE, DELETE]
                reason: the batch team's pipeline checks its own labels
                expires: "2099-12-31T00:00:00Z"
              - name: deployers
                functions: [require-labels]
                match: {namespaces: [shop], users: [ci-bot], groups: [platform], service_accounts: [ci/deployer, tools/*]}
                reason: CI redeploys
                expires: "2099-12-31T00:00:00Z"
              - name: finished
                functions: [require-labels]
                match: {names: [old-web]}
                reason: done
                expires: "2026-11-26T23:59:59+00:00"
            """);

    @Test
    void whoIsAUserAGroupOrAServiceAccountInTheNamespacesGiven() {
        assertEquals(Optional.of("deployers"), by("require-labels", request(Operation.CREATE, "shop", "ci-bot",
                List.of(), null, Map.of())));
        assertEquals(Optional.of("deployers"), by("require-labels", request(Operation.CREATE, "shop", "alice",
                List.of("platform"), null, Map.of())));
        assertEquals(Optional.of("deployers"), by("require-labels", request(Operation.CREATE, "shop",
                "system:serviceaccount:ci:deployer", List.of(), null, Map.of())));
        assertEquals(Optional.of("deployers"), by("require-labels", request(Operation.CREATE, "shop",
                "system:serviceaccount:tools:anyone", List.of(), null, Map.of())));
        // Another service account of ci, a user of another namespace's name, another namespace: called.
        assertEquals(Optional.empty(), by("require-labels", request(Operation.CREATE, "shop",
                "system:serviceaccount:ci:other", List.of(), null, Map.of())));
        assertEquals(Optional.empty(), by("require-labels", request(Operation.CREATE, "shop",
                "system:serviceaccount:toolsx:a", List.of(), null, Map.of())));
        assertEquals(Optional.empty(), by("require-labels", request(Operation.CREATE, "web", "ci-bot", List.of(),
                null, Map.of())));
        // Only the functions the exception names.
        assertEquals(Optional.empty(), by("pod-security", request(Operation.CREATE, "shop", "ci-bot", List.of(),
                null, Map.of())));
    }

    @Test
    void objectLabelsMustHoldOnEveryObjectOfTheRequestThatHasMetadata() {
        assertEquals(Optional.of("batch-updates"), by("pod-security", request(Operation.UPDATE, "web", "alice",
                List.of(), Map.of("team", "batch"), Map.of("team", "batch"))));
        assertEquals(Optional.of("batch-updates"), by("pod-security", request(Operation.DELETE, "web", "alice",
                List.of(), Map.of("team", "batch"), null)));
        // The update takes the label away: the new object does not match.
        assertEquals(Optional.empty(), by("pod-security", request(Operation.UPDATE, "web", "alice", List.of(),
                Map.of("team", "batch"), Map.of())));
        // A CREATE is not among the operations.
        assertEquals(Optional.empty(), by("pod-security", request(Operation.CREATE, "web", "alice", List.of(), null,
                Map.of("team", "batch"))));
    }

    @Test
    void namespaceLabelsAndExpiredExceptionsAreNotAppliedByTheFunction() {
        assertTrue(EXCEPTIONS.forFunction("require-labels").stream().anyMatch(e -> e.name().equals("sandbox")
                && !e.appliesInFunction()));
        AdmissionRequest old = new AdmissionRequest("uid", GroupVersionKind.of("apps", "v1", "Deployment"),
                GroupVersionResource.of("apps", "v1", "deployments"), "", null, null, "", "old-web", "web",
                Operation.CREATE, user("alice", List.of()), object(Map.of()), null, null, false);
        assertEquals(Optional.empty(), EXCEPTIONS.exceptedBy("require-labels", old, NOW).map(RequestException::name));
        assertEquals(Optional.of("finished"), EXCEPTIONS.exceptedBy("require-labels", old,
                Instant.parse("2026-11-26T00:00:00Z")).map(RequestException::name));
    }

    @Test
    void aNamespaceIsExceptedByItsOwnName() {
        AdmissionRequest namespace = new AdmissionRequest("uid", GroupVersionKind.of("", "v1", "Namespace"),
                GroupVersionResource.of("", "v1", "namespaces"), "", null, null, "", "shop", "", Operation.CREATE,
                user("ci-bot", List.of()), object(Map.of()), null, null, false);
        assertEquals(Optional.of("deployers"), EXCEPTIONS.exceptedBy("require-labels", namespace, NOW)
                .map(RequestException::name));
    }

    @Test
    void aBadFileIsRefusedWithOneLinePerProblem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse("""
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
                  - name: empty
                    functions: []
                    match: {}
                    reason: r
                    expires: "2099-12-31T00:00:00Z"
                  - name: sa
                    functions: [require-labels]
                    match: {service_accounts: [deployer]}
                    reason: r
                """));
        assertEquals(List.of(
                "Exceptions file: exception \"Legacy_Shop\": name must be a DNS label (lower-case letters, digits "
                        + "and '-', at most 63 characters).",
                "Exceptions file: exception \"typo\": unknown field(s) match.namespace (known: name, functions, "
                        + "match, reason, expires; match: namespaces, names, namespace_labels, object_labels, users, "
                        + "groups, service_accounts, operations).",
                "Exceptions file: exception \"empty\": functions must be a non-empty list of catalog functions.",
                "Exceptions file: exception \"empty\": match must give at least one criterion (an exception for "
                        + "every request would switch the function off).",
                "Exceptions file: exception \"sa\": match.service_accounts: 'deployer' is not <namespace>/<name> or "
                        + "<namespace>/*.",
                "Exceptions file: exception \"sa\": expires is missing (e.g. 2026-12-31T00:00:00Z; every exception "
                        + "ends)."), e.getMessage().lines().toList());
        assertEquals("Exceptions file: expected a mapping with an 'exceptions' list",
                assertThrows(IllegalArgumentException.class, () -> parse("exceptions: 3")).getMessage());
    }

    private static Optional<String> by(String function, AdmissionRequest request) {
        return EXCEPTIONS.exceptedBy(function, request, NOW).map(RequestException::name);
    }

    static RequestExceptions parse(String yaml) {
        try {
            return RequestExceptions.parse(new YAMLMapper().readTree(yaml), "Exceptions file");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static AdmissionRequest request(Operation op, String namespace, String username, List<String> groups,
            Map<String, String> oldLabels, Map<String, String> labels) {
        return new AdmissionRequest("uid", GroupVersionKind.of("apps", "v1", "Deployment"),
                GroupVersionResource.of("apps", "v1", "deployments"), "", null, null, "", "web", namespace, op,
                user(username, groups), labels == null ? null : object(labels),
                oldLabels == null ? null : object(oldLabels), null, false);
    }

    private static UserInfo user(String name, List<String> groups) {
        return new UserInfo(name, "", groups, Map.of());
    }

    private static KubeObject object(Map<String, String> labels) {
        ObjectNode metadata = JSON.createObjectNode().put("name", "web");
        metadata.set("labels", JSON.valueToTree(labels));
        return KubeObject.of((ObjectNode) JSON.createObjectNode().set("metadata", metadata));
    }
}
