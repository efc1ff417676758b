package dev.tollgate.testing;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.admission.AdmissionCodec;
import dev.tollgate.admission.AdmissionHandler;
import dev.tollgate.admission.AdmissionPolicy;
import dev.tollgate.admission.AdmissionVersion;
import dev.tollgate.admission.HandlerResult;
import dev.tollgate.admission.MutatingPolicy;

/**
 * Runs a policy in-process through the same decode, evaluate, patch and encode path the function uses, with no
 * HTTP. Every response is checked against the API server's rules.
 *
 * <pre>{@code
 * AdmissionTester.of(new RequireLabels(List.of("team"), List.of()))
 *     .create(Pods.minimal("web"))
 *     .assertDenied().withMessageContaining("team");
 * }</pre>
 */
public final class AdmissionTester {

    private final AdmissionPolicy policy;
    private final AdmissionHandler handler = new AdmissionHandler(new AdmissionCodec());
    private AdmissionVersion version = AdmissionVersion.V1;

    private AdmissionTester(AdmissionPolicy policy) {
        this.policy = policy;
    }

    public static AdmissionTester of(AdmissionPolicy policy) {
        return new AdmissionTester(policy);
    }

    /** Sends later reviews in this version (v1 by default). */
    public AdmissionTester version(AdmissionVersion version) {
        this.version = version;
        return this;
    }

    public ReviewResult create(JsonNode object) {
        return review(ReviewBuilder.create(object));
    }

    public ReviewResult update(JsonNode object, JsonNode oldObject) {
        return review(ReviewBuilder.update(object, oldObject));
    }

    public ReviewResult delete(JsonNode oldObject) {
        return review(ReviewBuilder.delete(oldObject));
    }

    /** Sends a review built by the caller; its version is the builder's, unless this tester's was changed. */
    public ReviewResult review(ReviewBuilder builder) {
        if (version != AdmissionVersion.V1) {
            builder.version(version);
        }
        var json = builder.build();
        HandlerResult result = handler.handle(Manifests.toJson(json).getBytes(java.nio.charset.StandardCharsets.UTF_8),
                policy.getClass().getSimpleName(), policy);
        return new ReviewResult(builder, json, result.status(), result.body(), policy instanceof MutatingPolicy,
                this::review);
    }
}
