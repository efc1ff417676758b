package dev.tollgate.baseline;

import java.util.Map;

import io.quarkus.funqy.Funq;

/** The trivial function: binds the AdmissionReview to a Map and allows it, as a first Funqy tutorial would. */
public class AllowAll {

    @Funq("allow-all")
    @SuppressWarnings("unchecked")
    public Map<String, Object> allowAll(Map<String, Object> review) {
        var request = (Map<String, Object>) review.get("request");
        return Map.of("apiVersion", review.get("apiVersion"), "kind", "AdmissionReview",
                "response", Map.of("uid", request.get("uid"), "allowed", true));
    }
}
