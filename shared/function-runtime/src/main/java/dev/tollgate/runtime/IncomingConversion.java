package dev.tollgate.runtime;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;

import dev.tollgate.admission.ReviewDecodeException;
import dev.tollgate.admission.conversion.ConversionPolicy;
import dev.tollgate.admission.conversion.ConversionReview;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;

/**
 * The input of every conversion policy's {@code @Funq} method: the ConversionReview in the request body, decoded (on
 * the function's worker, as for {@link IncomingReview}) and validated by {@link dev.tollgate.admission.conversion.ConversionCodec} (or the reason it could
 * not be), tied to the request the gate admitted. The conversion counterpart of {@link IncomingReview}:
 *
 * <pre>{@code
 * @Funq("crd-conversion")
 * public Uni<ReviewAnswer> crdConversion(IncomingConversion review) {
 *     return review.answer(this);
 * }
 * }</pre>
 */
@JsonDeserialize(using = IncomingConversion.Reader.class)
public final class IncomingConversion {

    private final ReviewCall call;
    private ConversionReview review;
    private ReviewDecodeException error;
    private boolean decoded;

    private IncomingConversion(ReviewCall call, ConversionReview review, ReviewDecodeException error) {
        this.call = call;
        this.review = review;
        this.error = error;
        this.decoded = call == null;
    }

    /** The decoded review, or null when the body was refused. */
    public ConversionReview review() {
        try {
            return decode();
        } catch (ReviewDecodeException e) {
            return null;
        }
    }

    /** Why the body was refused, or null. */
    public ReviewDecodeException error() {
        try {
            decode();
            return null;
        } catch (ReviewDecodeException e) {
            return e;
        }
    }

    /** The review, decoded from the request body on first use, on the function's worker (see IncomingReview). */
    synchronized ConversionReview decode() throws ReviewDecodeException {
        if (!decoded) {
            decoded = true;
            try {
                var codec = call.gate.conversionCodec();
                review = codec.decode(FunctionGate.bodyParser(call.ctx, codec.mapper()));
            } catch (ReviewDecodeException e) {
                error = e;
            }
        }
        if (error != null) {
            throw error;
        }
        return review;
    }

    /**
     * Converts this review's objects with {@code function} under the function's deadline, and gives Funqy the answer
     * to write: the ConversionReview in the version received, or a {@code Status} error. When the deadline has
     * already answered, the returned Uni never emits.
     */
    public Uni<ReviewAnswer> answer(ConversionPolicy function) {
        if (call == null) {
            throw new IllegalStateException(IncomingReview.NOT_FROM_THE_GATE);
        }
        return call.gate.serve(call, this, function);
    }

    /** Funqy's deserializer for the review: the codec's decoding, never an exception. */
    @RegisterForReflection
    public static final class Reader extends JsonDeserializer<IncomingConversion> {

        @Override
        public IncomingConversion deserialize(JsonParser parser, DeserializationContext ctxt) throws IOException {
            ReviewCall call = IncomingReview.Reader.currentCall();
            if (call != null) {
                return new IncomingConversion(call, null, null); // left unread: decoded on the worker (decode())
            }
            try {
                return new IncomingConversion(null, FunctionGate.DEFAULT_CONVERSION_CODEC.decode(parser), null);
            } catch (ReviewDecodeException e) {
                return new IncomingConversion(null, null, e);
            }
        }

        /** A JSON {@code null} body never reaches {@link #deserialize}; it is no review either. */
        @Override
        public IncomingConversion getNullValue(DeserializationContext ctxt) {
            return new IncomingConversion(IncomingReview.Reader.currentCall(), null,
                    new ReviewDecodeException("body is not a JSON object: expected a ConversionReview"));
        }
    }
}
