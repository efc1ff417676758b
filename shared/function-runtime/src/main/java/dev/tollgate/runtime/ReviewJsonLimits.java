package dev.tollgate.runtime;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.tollgate.admission.AdmissionLimits;
import io.quarkus.jackson.ObjectMapperCustomizer;

/**
 * Sets up the application's ObjectMapper, and so Funqy's copy of it that binds every review, the way the Quarkus
 * Jackson guide documents ("Customizing the Jackson ObjectMapper": an {@link ObjectMapperCustomizer} bean):
 * duplicate-key detection, and parser constraints no configured limit can be stricter than. The configured limits
 * ({@code tollgate.admission.*}) are not read here: Funqy copies the mapper at static init, which a native executable
 * runs at build time, so the codec applies them itself to the parser it is handed ({@code ReviewCodec#decode} on
 * a parser), as they are configured when the function runs. The body itself is bounded by the edge before any parser
 * sees it, which also bounds strings, tokens and the document.
 */
@Singleton
public class ReviewJsonLimits implements ObjectMapperCustomizer {

    static final StreamReadConstraints CEILINGS = StreamReadConstraints.builder()
            .maxNestingDepth(AdmissionLimits.MAX_NESTING_DEPTH)
            .maxStringLength(Integer.MAX_VALUE)
            .build();

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.getFactory().setStreamReadConstraints(CEILINGS);
        // Duplicate keys would let two readers of the same body see different objects.
        mapper.getFactory().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    }
}
