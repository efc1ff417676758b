package dev.tollgate.runtime;

import dev.tollgate.admission.AdmissionPolicy;
import dev.tollgate.admission.conversion.ConversionPolicy;

/**
 * What a function path resolves to: an admission policy (the function's own, or one of its sub-path policies) or a
 * CRD conversion policy. The gate admits, times and counts both the same way; only the review type differs.
 */
sealed interface ServedPolicy {

    String name();

    /** The review type a request body must hold, for messages: "an AdmissionReview" or "a ConversionReview". */
    String expectedBody();

    record Admission(AdmissionPolicy policy) implements ServedPolicy {
        @Override
        public String name() {
            return policy.name();
        }

        @Override
        public String expectedBody() {
            return "an AdmissionReview";
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
    }
}
