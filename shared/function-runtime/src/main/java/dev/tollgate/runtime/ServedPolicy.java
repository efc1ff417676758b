package dev.tollgate.runtime;

import com.fasterxml.jackson.core.JsonParser;

import dev.tollgate.admission.AdmissionPolicy;
import dev.tollgate.admission.AdmissionReview;
import dev.tollgate.admission.ReviewDecodeException;
import dev.tollgate.admission.conversion.ConversionPolicy;

/**
 * What a function path resolves to: an admission policy (the function's own, or one of its sub-path policies) or a
 * CRD conversion policy. Everything else on the path is the same for both; only the review type, and so the codec
 * that decodes it, differ.
 */
sealed interface ServedPolicy {

    /** The function's name, from its webhook.yaml: the first segment of the path. */
    String name();

    /** The review type a request body must hold, for messages: "an AdmissionReview" or "a ConversionReview". */
    String expectedBody();

    /**
     * Reads this policy's review type from {@code parser} (positioned at the body's first token), sent by
     * {@code cluster} (the caller's, which an admission request carries to its policy).
     */
    DecodedReview decode(ReviewCodecs codecs, JsonParser parser, String cluster) throws ReviewDecodeException;

    record Admission(String name, AdmissionPolicy policy) implements ServedPolicy {

        @Override
        public String expectedBody() {
            return "an AdmissionReview";
        }

        @Override
        public DecodedReview decode(ReviewCodecs codecs, JsonParser parser, String cluster)
                throws ReviewDecodeException {
            AdmissionReview review = codecs.admission().codec().decode(parser);
            return new DecodedReview.Admission(codecs.admission(), name, policy,
                    new AdmissionReview(review.version(), review.request().withCluster(cluster)));
        }
    }

    record Conversion(String name, ConversionPolicy policy) implements ServedPolicy {

        @Override
        public String expectedBody() {
            return "a ConversionReview";
        }

        @Override
        public DecodedReview decode(ReviewCodecs codecs, JsonParser parser, String cluster)
                throws ReviewDecodeException {
            return new DecodedReview.Conversion(codecs.conversion(), name, policy,
                    codecs.conversion().codec().decode(parser));
        }
    }
}
