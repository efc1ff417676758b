package dev.tollgate.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The output of every policy's {@code @Funq} method: the encoded answer (an AdmissionReview, or a Kubernetes
 * {@code Status} error) and its HTTP status. Funqy writes the body as it is (the codec already encoded it); the gate
 * sets the status, which Funqy itself would always send as 200.
 */
@JsonSerialize(using = ReviewAnswer.Writer.class)
public final class ReviewAnswer {

    private final int status;
    private final byte[] body;

    ReviewAnswer(int status, byte[] body) {
        this.status = status;
        this.body = body;
    }

    public int status() {
        return status;
    }

    /** The encoded JSON body. */
    public byte[] body() {
        return body.clone();
    }

    /** Funqy's serializer for the answer: the encoded bytes, unchanged. */
    @RegisterForReflection
    public static final class Writer extends JsonSerializer<ReviewAnswer> {
        @Override
        public void serialize(ReviewAnswer answer, JsonGenerator gen, SerializerProvider serializers)
                throws IOException {
            gen.writeRawValue(new String(answer.body, StandardCharsets.UTF_8));
        }
    }
}
