package dev.tollgate.runtime;

import java.io.IOException;
import java.io.InputStream;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.core.JsonParser;

import dev.tollgate.admission.AdmissionCodec;
import dev.tollgate.admission.AdmissionHandler;
import dev.tollgate.admission.AdmissionLimits;
import dev.tollgate.admission.ReviewDecodeException;
import dev.tollgate.admission.ReviewJson;
import dev.tollgate.admission.conversion.ConversionCodec;
import dev.tollgate.admission.conversion.ConversionHandler;
import io.vertx.core.buffer.Buffer;

/**
 * The handlers of this function, both under the configured limits ({@code tollgate.admission.*}), the admission
 * handler answering under the caller's cluster's enforcement mode ({@link EnforcementModes}): the admission handler and the conversion handler share one {@link ReviewJson}, so both kinds of review meet the same parser,
 * limits and {@code Status} error bodies, as does a request the edge refuses before any review is decoded.
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
    public ReviewCodecs(AdmissionConfig config, EnforcementModes modes, FunctionExceptions exceptions) {
        this(config.limits(), modes, exceptions);
    }

    ReviewCodecs(AdmissionLimits limits, EnforcementModes modes, FunctionExceptions exceptions) {
        ReviewJson json = new ReviewJson(limits);
        this.admission = AdmissionHandler.perFunction(new AdmissionCodec(json), modes::forCall,
                exceptions::exceptedBy);
        this.conversion = new ConversionHandler(new ConversionCodec(json));
    }

    AdmissionHandler admission() {
        return admission;
    }

    ConversionHandler conversion() {
        return conversion;
    }

    /** The parser, limits and error bodies both handlers share. */
    private ReviewJson json() {
        return admission.codec().json();
    }

    AdmissionLimits limits() {
        return json().limits();
    }

    /** An answer given before any review is decoded: a {@code Status} error. */
    CallResult refusal(int status, String message) {
        return new CallResult.Refused(status, json().errorBody(status, message), message);
    }

    /**
     * Why Funqy could not bind {@code body}, or null when it can: Jackson binds a body only from its first token,
     * so an empty body, whitespace only or something that is no JSON value at its start is refused here, with the
     * codec's message, instead of failing inside Funqy. Reads one token, from the buffer in place.
     */
    ReviewDecodeException unbindable(Buffer body, String expected) {
        if (body != null && body.length() > 0) {
            try (JsonParser parser = json().mapper().createParser(new BufferInput(body))) {
                if (parser.nextToken() != null) {
                    return null;
                }
            } catch (IOException e) {
                // not JSON at the first token: the codec says why, below
            }
        }
        return problem(body == null ? new byte[0] : body.getBytes(), expected);
    }

    /**
     * The body the edge read (within the byte limit) as a stream, read in place, for the codec to parse with its
     * own parser: made when the function runs, so it parses within the configured limits (Funqy's parser comes
     * from an ObjectMapper set up at static init, before they are known).
     */
    InputStream input(Buffer body) {
        return new BufferInput(body);
    }

    /**
     * What the codec says of a body that could not be bound (empty, not JSON): the same message it gives when it
     * decodes such a body itself.
     */
    ReviewDecodeException problem(byte[] body, String expected) {
        try {
            json().parseBody(body, expected);
            return new ReviewDecodeException("body is not a JSON object: expected " + expected);
        } catch (ReviewDecodeException e) {
            return e;
        }
    }

    /** A Vert.x buffer as a stream, read in place. */
    private static final class BufferInput extends InputStream {
        private final Buffer buffer;
        private int position;

        BufferInput(Buffer buffer) {
            this.buffer = buffer;
        }

        @Override
        public int read() {
            return position < buffer.length() ? buffer.getByte(position++) & 0xff : -1;
        }

        @Override
        public int read(byte[] into, int offset, int length) {
            int n = Math.min(length, buffer.length() - position);
            if (n <= 0) {
                return length == 0 ? 0 : -1;
            }
            buffer.getBytes(position, position + n, into, offset);
            position += n;
            return n;
        }
    }
}
