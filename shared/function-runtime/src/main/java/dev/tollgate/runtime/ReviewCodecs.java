package dev.tollgate.runtime;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.tollgate.admission.AdmissionCodec;
import dev.tollgate.admission.AdmissionHandler;
import dev.tollgate.admission.AdmissionLimits;
import dev.tollgate.admission.ReviewDecodeException;
import dev.tollgate.admission.conversion.ConversionCodec;
import dev.tollgate.admission.conversion.ConversionHandler;

/**
 * The codecs of this function, both under the configured limits ({@code tollgate.admission.*}): the admission
 * handler and the conversion handler share one {@link AdmissionCodec}, so both kinds of review meet the same parser,
 * limits and {@code Status} error bodies.
 */
@ApplicationScoped
public class ReviewCodecs {

    private final AdmissionHandler admission;
    private final ConversionHandler conversion;

    ReviewCodecs() {
        this.admission = null; // for CDI proxies
        this.conversion = null;
    }

    @Inject
    public ReviewCodecs(AdmissionConfig config) {
        this(config.limits());
    }

    ReviewCodecs(AdmissionLimits limits) {
        this.admission = new AdmissionHandler(new AdmissionCodec(limits));
        this.conversion = new ConversionHandler(new ConversionCodec(admission.codec()));
    }

    AdmissionHandler admission() {
        return admission;
    }

    ConversionHandler conversion() {
        return conversion;
    }

    AdmissionLimits limits() {
        return admission.codec().limits();
    }

    /** An answer given before any review is decoded: a {@code Status} error. */
    CallResult refusal(int status, String message) {
        return new CallResult.Refused(status, admission.codec().errorBody(status, message), message);
    }

    /**
     * What the codec says of a body that could not be bound (empty, not JSON): the same message it gives when it
     * decodes such a body itself.
     */
    ReviewDecodeException problem(byte[] body, String expected) {
        try {
            admission.codec().parseBody(body, expected);
            return new ReviewDecodeException("body is not a JSON object: expected " + expected);
        } catch (ReviewDecodeException e) {
            return e;
        }
    }
}
