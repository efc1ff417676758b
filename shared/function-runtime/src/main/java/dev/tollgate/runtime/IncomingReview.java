package dev.tollgate.runtime;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;

import dev.tollgate.admission.AdmissionPolicy;
import dev.tollgate.admission.AdmissionReview;
import dev.tollgate.admission.ReviewDecodeException;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.common.vertx.ContextLocals;
import io.smallrye.mutiny.Uni;

/**
 * The input of every policy's {@code @Funq} method: the AdmissionReview that Funqy HTTP read from the request body,
 * decoded and validated by the codec (or the reason it could not be), tied to the request the gate admitted.
 *
 * <pre>{@code
 * @Funq("require-labels")
 * public Uni<ReviewAnswer> requireLabels(IncomingReview review) {
 *     return review.answer(this);
 * }
 * }</pre>
 *
 * Funqy parses POST bodies on the event loop with its copy of the application's ObjectMapper; {@link Reader} is the
 * deserializer it uses for this type, with the codec's parser and limits ({@link FunqyFunctions}). A body the codec
 * refuses does not throw (Funqy would log a stack trace and answer an empty 400): the function answers it with the
 * codec's 400 or 413 {@code Status}.
 */
@JsonDeserialize(using = IncomingReview.Reader.class)
public final class IncomingReview {

    /** Where the gate leaves the call for the deserializer: the request's own (duplicated) Vert.x context. */
    static final String CALL = "tollgate.call";
    static final String NOT_FROM_THE_GATE = "this review did not arrive through Tollgate's gate (FunctionGate): "
            + "is the function served by quarkus-funqy-http with tollgate-function-runtime?";

    private final ReviewCall call;
    private final AdmissionReview review;
    private final ReviewDecodeException error;

    private IncomingReview(ReviewCall call, AdmissionReview review, ReviewDecodeException error) {
        this.call = call;
        this.review = review;
        this.error = error;
    }

    /** The decoded review, or null when the body was refused. */
    public AdmissionReview review() {
        return review;
    }

    /** Why the body was refused, or null. */
    public ReviewDecodeException error() {
        return error;
    }

    /**
     * Runs {@code function} on this review (or the sub-path policy it resolves to, for functions such as
     * pod-security) under the function's deadline, and gives Funqy the answer to write: the AdmissionReview in
     * the version received, or a {@code Status} error. When the deadline has already answered, the returned Uni
     * never emits, so Funqy writes nothing more.
     */
    public Uni<ReviewAnswer> answer(AdmissionPolicy function) {
        if (call == null) {
            throw new IllegalStateException(NOT_FROM_THE_GATE);
        }
        return call.gate.serve(call, this, function);
    }

    /** Funqy's deserializer for the review: the codec's decoding, never an exception. */
    @RegisterForReflection
    public static final class Reader extends JsonDeserializer<IncomingReview> {

        @Override
        public IncomingReview deserialize(JsonParser parser, DeserializationContext ctxt) throws IOException {
            ReviewCall call = currentCall();
            try {
                return new IncomingReview(call, codec(call).decode(parser), null);
            } catch (ReviewDecodeException e) {
                return new IncomingReview(call, null, e);
            }
        }

        /** A JSON {@code null} body never reaches {@link #deserialize}; it is no review either. */
        @Override
        public IncomingReview getNullValue(DeserializationContext ctxt) {
            return new IncomingReview(currentCall(), null,
                    new ReviewDecodeException("body is not a JSON object: expected an AdmissionReview"));
        }

        /** The call the gate left on the request's context, or null outside a request. */
        static ReviewCall currentCall() {
            return io.vertx.core.Vertx.currentContext() == null ? null
                    : ContextLocals.<ReviewCall>get(CALL).orElse(null);
        }

        private static dev.tollgate.admission.AdmissionCodec codec(ReviewCall call) {
            return call == null ? FunctionGate.DEFAULT_CODEC : call.gate.codec();
        }
    }
}
