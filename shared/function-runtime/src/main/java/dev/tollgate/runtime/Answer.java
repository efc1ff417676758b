package dev.tollgate.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The output of the review function: the encoded answer (an AdmissionReview or ConversionReview in the version
 * received, or a Kubernetes {@code Status} error) and its HTTP status. Funqy writes the body, already encoded by the
 * codec, as it is ({@link Writer}); Funqy always sends 200, so the edge sets this status when the response's headers
 * are written ({@link ReviewEdge}).
 */
@JsonSerialize(using = Answer.Writer.class)
public final class Answer {

    private final int status;
    private final byte[] body;

    Answer(int status, byte[] body) {
        this.status = status;
        this.body = body;
    }

    int status() {
        return status;
    }

    byte[] body() {
        return body;
    }

    /** Jackson's serializer for the answer: the codec's bytes, unchanged. */
    @RegisterForReflection
    public static final class Writer extends JsonSerializer<Answer> {
        @Override
        public void serialize(Answer answer, JsonGenerator out, SerializerProvider provider) throws IOException {
            out.writeRawValue(new String(answer.body, StandardCharsets.UTF_8));
        }
    }
}
