package dev.tollgate.cel;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
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

    static final ObjectMapper JSON = new ObjectMapper();

    private Requests() {
    }

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static AdmissionRequest pod(Operation op, String object, String oldObject) {
        return new AdmissionRequest("uid-1", GroupVersionKind.of("", "v1", "Pod"),
                GroupVersionResource.of("", "v1", "pods"), "", GroupVersionKind.of("", "v1", "Pod"),
                GroupVersionResource.of("", "v1", "pods"), "", "web", "default", op,
                new UserInfo("alice", "u-1", List.of("dev", "system:authenticated"), Map.of()),
                object == null ? null : KubeObject.of((ObjectNode) json(object)),
                oldObject == null ? null : KubeObject.of((ObjectNode) json(oldObject)), null, false);
    }

    static AdmissionRequest createPod(String object) {
        return pod(Operation.CREATE, object, null);
    }

    static AdmissionRequest createDeployment(String object) {
        return new AdmissionRequest("uid-2", GroupVersionKind.of("apps", "v1", "Deployment"),
                GroupVersionResource.of("apps", "v1", "deployments"), "", GroupVersionKind.of("apps", "v1",
                        "Deployment"), GroupVersionResource.of("apps", "v1", "deployments"), "", "web", "default",
                Operation.CREATE, new UserInfo("alice", "u-1", List.of("system:authenticated"), Map.of()),
                KubeObject.of((ObjectNode) json(object)), null, null, false);
    }
}
