package dev.tollgate.runtime;


import dev.tollgate.admission.AdmissionPolicy;
import dev.tollgate.admission.ReviewDecodeException;
import dev.tollgate.admission.ReviewKind;
import dev.tollgate.admission.conversion.ConversionPolicy;

/**
 * What a function path resolves to: an admission policy (the function's own, or one of its sub-path policies) or a
 * CRD conversion policy. Everything else on the path is the same for both; only the kind of review, and so the
 * handler that decodes and runs it, differ.
 */
sealed interface ServedPolicy {

    /** The function's name, from its webhook.yaml: the first segment of the path. */
    String name();

    /** The kind of review a request body must hold. */
    ReviewKind kind();

    /**
     * Reads this policy's review from {@code body} (the request body the edge read), sent by {@code cluster} (the
     * caller's, which an admission request carries to its policy).
     */
    DecodedReview<?, ?> decode(ReviewCodecs codecs, ReviewCodecs.BodyBytes body, String cluster)
            throws ReviewDecodeException;

    record Admission(String name, AdmissionPolicy policy) implements ServedPolicy {

        @Override
        public ReviewKind kind() {
            return ReviewKind.ADMISSION;
        }

        @Override
        public DecodedReview<?, ?> decode(ReviewCodecs codecs, ReviewCodecs.BodyBytes body, String cluster)
                throws ReviewDecodeException {
            return new DecodedReview<>(codecs.admission(), name, policy,
                    codecs.admission().codec().decode(body.array(), body.offset(), body.length())
                            .withCluster(cluster));
        }
    }

    record Conversion(String name, ConversionPolicy policy) implements ServedPolicy {

        @Override
        public ReviewKind kind() {
            return ReviewKind.CONVERSION;
        }

        @Override
        public DecodedReview<?, ?> decode(ReviewCodecs codecs, ReviewCodecs.BodyBytes body, String cluster)
                throws ReviewDecodeException {
            return new DecodedReview<>(codecs.conversion(), name, policy,
                    codecs.conversion().codec().decode(body.array(), body.offset(), body.length()));
        }
    }
}
