package dev.tollgate.runtime;

import java.io.IOException;

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
import io.netty.buffer.ByteBuf;
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
            BodyBytes bytes = bytes(body);
            try (JsonParser parser = json().mapper().createParser(bytes.array(), bytes.offset(), bytes.length())) {
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
     * A request body as the bytes of an array it occupies: {@code length} bytes from {@code offset}. The codec
     * parses them with its own parser, made when the function runs, so it parses within the configured limits
     * (Funqy's parser comes from an ObjectMapper set up at static init, before they are known).
     */
    record BodyBytes(byte[] array, int offset, int length) {
    }

    /**
     * The body the edge read (within the byte limit), in place when the web server's buffer is backed by an array
     * (a heap buffer, as Vert.x's body handler reads into), else copied.
     */
    static BodyBytes bytes(Buffer body) {
        ByteBuf buf = body.getByteBuf();
        if (buf.hasArray()) {
            return new BodyBytes(buf.array(), buf.arrayOffset() + buf.readerIndex(), buf.readableBytes());
        }
        return new BodyBytes(body.getBytes(), 0, body.length());
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
}
