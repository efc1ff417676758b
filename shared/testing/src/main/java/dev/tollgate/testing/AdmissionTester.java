package dev.tollgate.testing;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.admission.AdmissionCodec;
import dev.tollgate.admission.AdmissionHandler;
import dev.tollgate.admission.AdmissionPolicy;
import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.AdmissionReview;
import dev.tollgate.admission.HandlerResult;
import dev.tollgate.admission.MutatingPolicy;
import dev.tollgate.admission.ReviewDecodeException;
import dev.tollgate.admission.ReviewVersion;

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
    private ReviewVersion version = ReviewVersion.V1;
    private String cluster = AdmissionRequest.DEFAULT_CLUSTER;

    private AdmissionTester(AdmissionPolicy policy) {
        this.policy = policy;
    }

    public static AdmissionTester of(AdmissionPolicy policy) {
        return new AdmissionTester(policy);
    }

    /** Sends later reviews in this version (v1 by default). */
    public AdmissionTester version(ReviewVersion version) {
        this.version = version;
        return this;
    }

    /**
     * Sends later reviews as from this cluster ({@link AdmissionRequest#cluster()}), as the runtime names the cluster
     * of a caller by its credential; {@value AdmissionRequest#DEFAULT_CLUSTER} by default.
     */
    public AdmissionTester cluster(String cluster) {
        this.cluster = cluster;
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
        if (version != ReviewVersion.V1) {
            builder.version(version);
        }
        var json = builder.build();
        byte[] body = Manifests.toJson(json).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        String function = policy.getClass().getSimpleName();
        HandlerResult<AdmissionReview> result;
        try {
            AdmissionReview review = handler.codec().decode(body);
            result = handler.handle(new AdmissionReview(review.version(), review.request().withCluster(cluster)),
                    function, policy);
        } catch (ReviewDecodeException e) {
            result = handler.badRequest(e.status(), e.getMessage());
        }
        return new ReviewResult(builder, json, result.status(), result.body(), policy instanceof MutatingPolicy,
                this::review);
    }
}
