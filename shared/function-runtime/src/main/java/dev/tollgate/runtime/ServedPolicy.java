package dev.tollgate.runtime;

import com.fasterxml.jackson.core.JsonParser;

import dev.tollgate.admission.AdmissionPolicy;
import dev.tollgate.admission.ReviewDecodeException;
import dev.tollgate.admission.conversion.ConversionPolicy;

/**
 * What a function path resolves to: an admission policy (the function's own, or one of its sub-path policies) or a
 * CRD conversion policy. Everything else on the path is the same for both; only the review type, and so the codec
 * that decodes it, differ.
 */
sealed interface ServedPolicy {

    String name();

    /** The review type a request body must hold, for messages: "an AdmissionReview" or "a ConversionReview". */
    String expectedBody();

    /** Reads this policy's review type from {@code parser} (positioned at the body's first token). */
    DecodedReview decode(ReviewCodecs codecs, JsonParser parser) throws ReviewDecodeException;

    record Admission(AdmissionPolicy policy) implements ServedPolicy {
        @Override
        public String name() {
            return policy.name();
        }

        @Override
        public String expectedBody() {
            return "an AdmissionReview";
        }

        @Override
        public DecodedReview decode(ReviewCodecs codecs, JsonParser parser) throws ReviewDecodeException {
            return new DecodedReview.Admission(codecs.admission(), policy,
                    codecs.admission().codec().decode(parser));
        }
    }

    record Conversion(ConversionPolicy policy) implements ServedPolicy {
        @Override
        public String name() {
            return policy.name();
        }

        @Override
        public String expectedBody() {
            return "a ConversionReview";
        }

        @Override
        public DecodedReview decode(ReviewCodecs codecs, JsonParser parser) throws ReviewDecodeException {
            return new DecodedReview.Conversion(codecs.conversion(), policy,
                    codecs.conversion().codec().decode(parser));
        }
    }
}
