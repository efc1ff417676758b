package dev.tollgate.runtime;

import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.ConfigProvider;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.tollgate.admission.AdmissionLimits;
import io.quarkus.jackson.ObjectMapperCustomizer;

/**
 * Gives the application's ObjectMapper, and so Funqy's copy of it that binds every review, the codec's parser limits
 * (nesting depth, string length, token count, document length) and duplicate-key detection: the way the Quarkus
 * Jackson guide documents ("Customizing the Jackson ObjectMapper": an {@link ObjectMapperCustomizer} bean). Funqy
 * makes its copy at static init; the limits are read from the configuration then (in a native executable, the
 * values at build time).
 */
@Singleton
public class ReviewJsonLimits implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.getFactory().setStreamReadConstraints(limits().streamReadConstraints());
        // Duplicate keys would let two readers of the same body see different objects.
        mapper.getFactory().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    }

    /** The tollgate.admission.* limits, with AdmissionConfig's defaults. */
    static AdmissionLimits limits() {
        var config = ConfigProvider.getConfig();
        AdmissionLimits d = AdmissionLimits.DEFAULTS;
        return new AdmissionLimits(
                config.getOptionalValue("tollgate.admission.max-body-bytes", Long.class).orElse(d.maxBodyBytes()),
                config.getOptionalValue("tollgate.admission.max-nesting-depth", Integer.class)
                        .orElse(d.maxNestingDepth()),
                config.getOptionalValue("tollgate.admission.max-string-length", Integer.class)
                        .orElse(d.maxStringLength()),
                config.getOptionalValue("tollgate.admission.max-token-count", Long.class)
                        .orElse(d.maxTokenCount()));
    }
}
