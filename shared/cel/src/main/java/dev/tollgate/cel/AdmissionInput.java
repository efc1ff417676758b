package dev.tollgate.cel;

import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.admission.AdmissionRequest;

/**
 * What the admission variables are built from for one request: the request itself ({@code request}, {@code object},
 * {@code oldObject}), the policy's {@code params} (null when the policy has no paramKind or none was found) and the
 * request's {@code namespaceObject} (null for cluster-scoped resources, or when the caller has no namespace object).
 */
public record AdmissionInput(AdmissionRequest request, JsonNode params, JsonNode namespaceObject) {

    public AdmissionInput {
        Objects.requireNonNull(request, "request");
    }

    public static AdmissionInput of(AdmissionRequest request) {
        return new AdmissionInput(request, null, null);
    }

    public AdmissionInput withParams(JsonNode params) {
        return new AdmissionInput(request, params, namespaceObject);
    }

    public AdmissionInput withNamespaceObject(JsonNode namespaceObject) {
        return new AdmissionInput(request, params, namespaceObject);
    }
}
