package dev.tollgate.admission.exceptions;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.KubeObject;
import dev.tollgate.admission.Operation;
import dev.tollgate.admission.match.LabelSelector;

/**
 * One entry of the reviewed exceptions file (terraform/README.md, "Exceptions"): the functions it applies to, which
 * requests it describes, why, and until when. {@link #matches} says of a request what the matchCondition Terraform
 * renders for it says (terraform/modules/webhook-configurations/exceptions.tf, {@code match_expression}), so an
 * exception means the same whether the API server or the function applies it.
 *
 * @param namespaceLabels a selector on the request's namespace: only a namespaceSelector can read it, so a function
 *                        (which has no namespace labels) cannot apply an exception that has one
 */
public record RequestException(String name, Set<String> functions, Set<String> namespaces, Set<String> names,
        LabelSelector namespaceLabels, LabelSelector objectLabels, Set<String> users, Set<String> groups,
        Set<String> serviceAccounts, Set<Operation> operations, String reason, Instant expires) {

    private static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

    /** Whether a function can decide this exception from the request alone (no namespace labels to read). */
    public boolean appliesInFunction() {
        return namespaceLabels.matchesEverything();
    }

    public boolean expiredAt(Instant now) {
        return !expires.isAfter(now);
    }

    /** Whether {@code request} is one this exception describes: every criterion given holds. */
    public boolean matches(AdmissionRequest request) {
        return namespaceMatches(request)
                && (names.isEmpty() || names.contains(present(request.name())))
                && whoMatches(request)
                && (operations.isEmpty() || operations.contains(request.operation()))
                && (objectLabels.matchesEverything()
                        || (labelsMatch(request.object()) && labelsMatch(request.oldObject())));
    }

    /** For a Namespace itself its name, else the request's namespace (cluster-scoped requests have none). */
    private boolean namespaceMatches(AdmissionRequest request) {
        if (namespaces.isEmpty()) {
            return true;
        }
        boolean namespace = request.resource() != null && request.resource().group().isEmpty()
                && request.resource().resource().equals("namespaces");
        return namespaces.contains(present(namespace ? request.name() : request.namespace()));
    }

    /** Users, groups and service accounts together are one criterion: any one of them. */
    private boolean whoMatches(AdmissionRequest request) {
        if (users.isEmpty() && groups.isEmpty() && serviceAccounts.isEmpty()) {
            return true;
        }
        String user = request.userInfo() == null ? null : present(request.userInfo().username());
        if (user != null) {
            if (users.contains(user)) {
                return true;
            }
            for (String account : serviceAccounts) {
                String username = SERVICE_ACCOUNT_PREFIX + account.replace('/', ':');
                boolean match = account.endsWith("/*")
                        ? user.startsWith(username.substring(0, username.length() - 1))
                        : user.equals(username);
                if (match) {
                    return true;
                }
            }
        }
        List<String> userGroups = request.userInfo() == null ? List.of() : request.userInfo().groups();
        return userGroups != null && userGroups.stream().anyMatch(groups::contains);
    }

    /** As an objectSelector reads an object: one without metadata (or none at all) does not stop the match. */
    private boolean labelsMatch(KubeObject object) {
        if (object == null || !object.json().has("metadata")) {
            return true;
        }
        Map<String, String> labels = object.labels();
        return objectLabels.matches(labels);
    }

    private static String present(String value) {
        return value == null || value.isEmpty() ? null : value;
    }
}
