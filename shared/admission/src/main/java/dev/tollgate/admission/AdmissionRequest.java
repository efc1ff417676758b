package dev.tollgate.admission;

import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Everything the API server sends about one admission call. Immutable except for the raw JSON trees, which are
 * read-only by contract. {@code object}, {@code oldObject} and {@code options} are null when the API server sent
 * none (e.g. no {@code object} on DELETE, no {@code oldObject} on CREATE).
 *
 * @param uid                identifies this call; echoed in the response
 * @param kind               the kind of the object as the webhook receives it (after matchPolicy conversion)
 * @param resource           the resource being requested, as the webhook receives it
 * @param subResource        the subresource ("" when none), e.g. {@code status} or {@code ephemeralcontainers}
 * @param requestKind        the kind originally requested (may differ from {@code kind} under matchPolicy Equivalent)
 * @param requestResource    the resource originally requested
 * @param requestSubResource the subresource originally requested
 * @param name               the object's name ("" when the API server does not know it yet, e.g. generateName)
 * @param namespace          the namespace ("" for cluster-scoped resources)
 * @param operation          CREATE, UPDATE, DELETE or CONNECT
 * @param userInfo           the requesting user
 * @param object             the new object (CREATE, UPDATE) or null
 * @param oldObject          the existing object (UPDATE, DELETE) or null
 * @param options            the operation options (CreateOptions, UpdateOptions, ...) as raw JSON, or null
 * @param dryRun             true when the request will not be persisted
 * @param cluster            the cluster that sent the review, as the function's configuration names it: the runtime
 *                           maps the caller's credential to it ({@value #DEFAULT_CLUSTER} when nothing names one, as
 *                           for one cluster governing itself). Not part of the AdmissionReview: what the API server
 *                           itself would consult for this review (namespaces, params) comes from this cluster
 */
public record AdmissionRequest(
        String uid,
        GroupVersionKind kind,
        GroupVersionResource resource,
        String subResource,
        GroupVersionKind requestKind,
        GroupVersionResource requestResource,
        String requestSubResource,
        String name,
        String namespace,
        Operation operation,
        UserInfo userInfo,
        KubeObject object,
        KubeObject oldObject,
        JsonNode options,
        boolean dryRun,
        String cluster) {

    /** The cluster of a review when nothing names one: one cluster governing itself. */
    public static final String DEFAULT_CLUSTER = "default";

    public AdmissionRequest {
        Objects.requireNonNull(uid, "uid");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(operation, "operation");
        subResource = subResource == null ? "" : subResource;
        requestSubResource = requestSubResource == null ? "" : requestSubResource;
        name = name == null ? "" : name;
        namespace = namespace == null ? "" : namespace;
        userInfo = userInfo == null ? UserInfo.ANONYMOUS : userInfo;
        cluster = cluster == null || cluster.isEmpty() ? DEFAULT_CLUSTER : cluster;
    }

    /** A request of the {@value #DEFAULT_CLUSTER} cluster. */
    public AdmissionRequest(String uid, GroupVersionKind kind, GroupVersionResource resource, String subResource,
            GroupVersionKind requestKind, GroupVersionResource requestResource, String requestSubResource,
            String name, String namespace, Operation operation, UserInfo userInfo, KubeObject object,
            KubeObject oldObject, JsonNode options, boolean dryRun) {
        this(uid, kind, resource, subResource, requestKind, requestResource, requestSubResource, name, namespace,
                operation, userInfo, object, oldObject, options, dryRun, DEFAULT_CLUSTER);
    }

    /** This request as sent by {@code cluster}. */
    public AdmissionRequest withCluster(String cluster) {
        return new AdmissionRequest(uid, kind, resource, subResource, requestKind, requestResource,
                requestSubResource, name, namespace, operation, userInfo, object, oldObject, options, dryRun, cluster);
    }

    /** The object the policy should look at: {@code object}, or {@code oldObject} when there is none (DELETE). */
    public KubeObject objectOrOld() {
        return object != null ? object : oldObject;
    }

    /** True for a request on the resource itself, not on a subresource such as {@code status}. */
    public boolean isMainResource() {
        return subResource.isEmpty();
    }
}
