package dev.tollgate.runtime;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;

import dev.tollgate.admission.ReviewDecodeException;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.common.vertx.ContextLocals;
import io.vertx.core.Vertx;

/**
 * The input of the review function: the request body decoded by the codec of the policy its path resolves to (or
 * the reason it could not be), bound by Funqy HTTP with Jackson, the documented way: {@link JsonDeserialize} names
 * {@link Reader}, which Funqy's ObjectMapper (a copy of the application's) calls with its parser at the body's
 * first token; the codec then reads the body the edge holds, in place, with its own parser, made when the function
 * runs with the configured limits. Funqy binds on the event loop; the review is parsed once.
 */
@JsonDeserialize(using = ReviewInput.Reader.class)
public final class ReviewInput {

    /** Where the edge leaves the call for the reader: the request's own (duplicated) Vert.x context. */
    static final String CALL = "tollgate.call";

    final Call call;
    final ReviewDecodeException error;

    private ReviewInput(Call call, ReviewDecodeException error) {
        this.call = call;
        this.error = error;
    }

    /** Jackson's deserializer for the input: the codec's decoding; a body it refuses is an answer, not a throw. */
    @RegisterForReflection
    public static final class Reader extends JsonDeserializer<ReviewInput> {

        @Override
        public ReviewInput deserialize(JsonParser parser, DeserializationContext ctxt) throws IOException {
            Call call = currentCall();
            if (call == null || call.body() == null) {
                throw new IllegalStateException("a review reached the function without passing the edge");
            }
            // The codec reads the body the edge holds with its own parser, made with the configured limits; Funqy's
            // parser (made before the limits are known) stays at the first token.
            try {
                call.bound(call.policy.decode(call.codecs, ReviewCodecs.bytes(call.body()), call.cluster));
                return new ReviewInput(call, null);
            } catch (ReviewDecodeException e) {
                call.bound(null);
                return new ReviewInput(call, e);
            }
        }

        /** A JSON {@code null} body never reaches {@link #deserialize}; it is no review either. */
        @Override
        public ReviewInput getNullValue(DeserializationContext ctxt) {
            Call call = currentCall();
            if (call == null) {
                return null;
            }
            call.bound(null);
            return new ReviewInput(call, new ReviewDecodeException("body is not a JSON object: expected "
                    + call.policy.kind().expected()));
        }

        /**
         * The call the edge left on the request's duplicated context (Quarkus guide "Duplicated context, context
         * locals"), or null outside a request.
         */
        private static Call currentCall() {
            return Vertx.currentContext() == null ? null : ContextLocals.<Call>get(CALL).orElse(null);
        }
    }
}
