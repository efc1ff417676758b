package dev.tollgate.cel.admission;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.GroupVersionKind;
import dev.tollgate.admission.GroupVersionResource;
import dev.tollgate.admission.KubeObject;
import dev.tollgate.admission.Operation;
import dev.tollgate.admission.UserInfo;

/** Admission requests for tests. */
final class Requests {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Requests() {
    }

    static ObjectNode json(String text) {
        try {
            return (ObjectNode) JSON.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** CREATE of an apps/v1 Deployment in the namespace, with the given replicas. */
    static AdmissionRequest createDeployment(String namespace, int replicas) {
        return create(GroupVersionKind.of("apps", "v1", "Deployment"),
                GroupVersionResource.of("apps", "v1", "deployments"), namespace,
                "{'apiVersion': 'apps/v1', 'kind': 'Deployment', 'metadata': {'name': 'web', 'namespace': '"
                        + namespace + "'}, 'spec': {'replicas': " + replicas + "}}");
    }

    /** CREATE of a v1 Pod in the namespace. */
    static AdmissionRequest createPod(String namespace, String labelsJson) {
        return create(GroupVersionKind.of("", "v1", "Pod"), GroupVersionResource.of("", "v1", "pods"), namespace,
                "{'apiVersion': 'v1', 'kind': 'Pod', 'metadata': {'name': 'web', 'namespace': '" + namespace
                        + "', 'labels': " + labelsJson + "}}");
    }

    private static AdmissionRequest create(GroupVersionKind kind, GroupVersionResource resource, String namespace,
            String object) {
        return new AdmissionRequest("uid-1", kind, resource, "", kind, resource, "", "web", namespace,
                Operation.CREATE, new UserInfo("alice", "u-1", List.of("system:authenticated"), Map.of()),
                KubeObject.of(json(object)), null, null, false);
    }
}
