package dev.tollgate.admission;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.util.JsonParserDelegate;

/**
 * A parser made by someone else (Funqy HTTP's, handed to a deserializer) read under the codec's limits: nesting
 * depth, string length and token count are checked on every token with Jackson's own validation and messages
 * ({@link StreamReadConstraints#validateNestingDepth}, ...), whatever constraints the parser was created with. So the
 * limits configured when the function runs apply even where the parser's factory was set up earlier (a native
 * executable initializes Funqy's ObjectMapper at build time). The document length is not checked here: the body
 * was read within the byte limit before any parser saw it.
 */
final class LimitedParser extends JsonParserDelegate {

    private final StreamReadConstraints limits;
    private long tokens;

    private LimitedParser(JsonParser parser, StreamReadConstraints limits) {
        super(parser);
        this.limits = limits;
    }

    /** {@code parser} itself when its own constraints are at least as strict as {@code limits}, else wrapped. */
    static JsonParser within(JsonParser parser, StreamReadConstraints limits) {
        StreamReadConstraints own = parser.streamReadConstraints();
        boolean enforced = own.getMaxNestingDepth() <= limits.getMaxNestingDepth()
                && own.getMaxStringLength() <= limits.getMaxStringLength()
                && (!limits.hasMaxTokenCount()
                        || (own.hasMaxTokenCount() && own.getMaxTokenCount() <= limits.getMaxTokenCount()));
        return enforced ? parser : new LimitedParser(parser, limits);
    }

    @Override
    public JsonToken nextToken() throws IOException {
        JsonToken token = delegate.nextToken();
        if (token == null) {
            return null;
        }
        limits.validateTokenCount(++tokens);
        switch (token) {
            case START_OBJECT, START_ARRAY -> limits.validateNestingDepth(delegate.getParsingContext()
                    .getNestingDepth());
            case VALUE_STRING -> limits.validateStringLength(delegate.getTextLength());
            default -> {
            }
        }
        return token;
    }

    /** As {@link JsonParser#nextValue()}, through {@link #nextToken()} so no token escapes the checks. */
    @Override
    public JsonToken nextValue() throws IOException {
        JsonToken token = nextToken();
        return token == JsonToken.FIELD_NAME ? nextToken() : token;
    }

    /** As {@link JsonParser#skipChildren()}, through {@link #nextToken()}. */
    @Override
    public JsonParser skipChildren() throws IOException {
        JsonToken current = currentToken();
        if (current != JsonToken.START_OBJECT && current != JsonToken.START_ARRAY) {
            return this;
        }
        int open = 1;
        for (JsonToken t = nextToken(); t != null; t = nextToken()) {
            if (t.isStructStart()) {
                open++;
            } else if (t.isStructEnd() && --open == 0) {
                break;
            }
        }
        return this;
    }
}
