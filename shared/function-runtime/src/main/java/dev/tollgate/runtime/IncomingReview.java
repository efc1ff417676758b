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
 * Funqy reads POST bodies on the event loop with an ObjectReader; {@link Reader} is the deserializer it uses for this
 * type. For a request the gate admitted, it reads nothing: the body is decoded by the codec (its parser, limits and
 * validation) when the function runs, on its worker thread ({@link #decode()}). A body the codec refuses does not
 * throw (Funqy would log a stack trace and answer an empty 400): the function answers it with the codec's 400 or 413
 * {@code Status}.
 */
@JsonDeserialize(using = IncomingReview.Reader.class)
public final class IncomingReview {

    /** Where the gate leaves the call for the deserializer: the request's own (duplicated) Vert.x context. */
    static final String CALL = "tollgate.call";
    static final String NOT_FROM_THE_GATE = "this review did not arrive through Tollgate's gate (FunctionGate): "
            + "is the function served by quarkus-funqy-http with tollgate-function-runtime?";

    private final ReviewCall call;
    private AdmissionReview review;
    private ReviewDecodeException error;
    private boolean decoded;

    private IncomingReview(ReviewCall call, AdmissionReview review, ReviewDecodeException error) {
        this.call = call;
        this.review = review;
        this.error = error;
        this.decoded = call == null;
    }

    /** The decoded review, or null when the body was refused. */
    public AdmissionReview review() {
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

    /**
     * The review, decoded from the request body on first use: on the worker thread that runs the function, under
     * the deadline, not on the event loop where Funqy calls {@link Reader} (a body of megabytes would hold up every
     * other request on that loop while it is parsed).
     */
    synchronized AdmissionReview decode() throws ReviewDecodeException {
        if (!decoded) {
            decoded = true;
            try {
                review = call.gate.codec().decode(FunctionGate.bodyParser(call.ctx, call.gate.codec().mapper()));
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
            if (call != null) {
                // Left unread: decoded on the worker (decode()). Funqy's reader does not check for trailing tokens.
                return new IncomingReview(call, null, null);
            }
            try {
                return new IncomingReview(null, FunctionGate.DEFAULT_CODEC.decode(parser), null);
            } catch (ReviewDecodeException e) {
                return new IncomingReview(null, null, e);
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
    }
}
