package dev.tollgate.cel;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.admission.AdmissionRequest;

/**
 * What the admission variables are built from for one request: the request itself ({@code request}, {@code object},
 * {@code oldObject}), the policy's {@code params} (null when the policy has no paramKind or none was found) and the
 * request's {@code namespaceObject} (null for cluster-scoped resources, or when the caller has no namespace object),
 * and the values of the further variables an environment declares beside the API server's ({@link
 * KubeCel.Builder#admissionExtras}: Gatekeeper's {@code inventory}).
 */
public record AdmissionInput(AdmissionRequest request, JsonNode params, JsonNode namespaceObject,
        Map<String, JsonNode> extras) {

    public AdmissionInput {
        Objects.requireNonNull(request, "request");
        extras = Map.copyOf(extras);
    }

    public AdmissionInput(AdmissionRequest request, JsonNode params, JsonNode namespaceObject) {
        this(request, params, namespaceObject, Map.of());
    }

    public static AdmissionInput of(AdmissionRequest request) {
        return new AdmissionInput(request, null, null);
    }

    public AdmissionInput withParams(JsonNode params) {
        return new AdmissionInput(request, params, namespaceObject, extras);
    }

    public AdmissionInput withNamespaceObject(JsonNode namespaceObject) {
        return new AdmissionInput(request, params, namespaceObject, extras);
    }

    /** With the value of a further variable the environment declares. */
    public AdmissionInput withExtra(String name, JsonNode value) {
        Map<String, JsonNode> more = new HashMap<>(extras);
        more.put(name, value);
        return new AdmissionInput(request, params, namespaceObject, more);
    }
}
