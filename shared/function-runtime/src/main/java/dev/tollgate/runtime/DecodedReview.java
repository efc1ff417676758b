package dev.tollgate.runtime;

import dev.tollgate.admission.AdmissionHandler;
import dev.tollgate.admission.AdmissionPolicy;
import dev.tollgate.admission.AdmissionReview;
import dev.tollgate.admission.HandlerResult;
import dev.tollgate.admission.Verdict;
import dev.tollgate.admission.conversion.ConversionHandler;
import dev.tollgate.admission.conversion.ConversionPolicy;
import dev.tollgate.admission.conversion.ConversionResult;
import dev.tollgate.admission.conversion.ConversionReview;

/**
 * A review decoded for the policy that serves its path, ready to run: what the request path does with it (run it,
 * answer for it at the deadline) is the same for admission and conversion.
 */
sealed interface DecodedReview {

    String uid();

    /** Runs the policy: the library's answer (200, or 500 when the policy threw). */
    CallResult run();

    /** The answer when the policy did not finish within the deadline. */
    CallResult timedOut(DeadlineConfig.OnTimeout onTimeout, String message);

    record Admission(AdmissionHandler handler, String name, AdmissionPolicy policy, AdmissionReview review)
            implements DecodedReview {

        @Override
        public String uid() {
            return review.request().uid();
        }

        @Override
        public CallResult run() {
            return new CallResult.Admission(handler.handle(review, name, policy));
        }

        /** The configured verdict in the review's version, or an error (failurePolicy decides). */
        @Override
        public CallResult timedOut(DeadlineConfig.OnTimeout onTimeout, String message) {
            if (onTimeout == DeadlineConfig.OnTimeout.ERROR) {
                return new CallResult.Admission(new HandlerResult(500, handler.codec().errorBody(500, message),
                        HandlerResult.Outcome.ERROR, review, null, 0, message));
            }
            Verdict verdict = onTimeout == DeadlineConfig.OnTimeout.ALLOW
                    ? Verdict.allow().withWarning(message + "; allowed by the configured deadline verdict")
                    : Verdict.deny(403, message + "; denied by the configured deadline verdict");
            byte[] body = handler.codec().encode(review.version(), uid(), verdict, null);
            return new CallResult.Admission(new HandlerResult(200, body, verdict.allowed()
                    ? HandlerResult.Outcome.ALLOWED : HandlerResult.Outcome.DENIED, review, verdict, 0, ""));
        }
    }

    record Conversion(ConversionHandler handler, String name, ConversionPolicy policy, ConversionReview review)
            implements DecodedReview {

        @Override
        public String uid() {
            return review.request().uid();
        }

        @Override
        public CallResult run() {
            return new CallResult.Conversion(handler.handle(review, name, policy));
        }

        /** A conversion has no verdict to default to: always an error, so the conversion fails. */
        @Override
        public CallResult timedOut(DeadlineConfig.OnTimeout onTimeout, String message) {
            return new CallResult.Conversion(new ConversionResult(500, handler.codec().errorBody(500, message),
                    ConversionResult.Outcome.ERROR, review, review.request().objects().size(), message));
        }
    }
}
