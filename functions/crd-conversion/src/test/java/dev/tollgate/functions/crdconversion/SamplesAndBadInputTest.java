package dev.tollgate.functions.crdconversion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionLimits;
import dev.tollgate.admission.HandlerResult;
import dev.tollgate.admission.conversion.ConversionCodec;
import dev.tollgate.admission.conversion.ConversionException;
import dev.tollgate.admission.conversion.ConversionHandler;
import dev.tollgate.admission.conversion.ConversionPolicy;
import dev.tollgate.admission.conversion.ConversionReview;
import dev.tollgate.testing.ConversionTester;
import dev.tollgate.testing.MalformedConversionRequests;
import dev.tollgate.testing.MalformedRequests;
import dev.tollgate.testing.Manifests;

/** The shipped sample reviews convert as their names say; bad requests never reach the conversion. */
class SamplesAndBadInputTest {

    private final ConversionHandler handler = new ConversionHandler(new ConversionCodec());

    static Stream<Path> samples() throws IOException {
        return Files.list(Path.of("samples")).filter(p -> p.toString().endsWith(".json")).sorted();
    }

    @ParameterizedTest
    @MethodSource("samples")
    void sampleConverts(Path sample) throws IOException {
        byte[] body = Files.readAllBytes(sample);
        JsonNode sent = Manifests.read(sample);
        HandlerResult<ConversionReview> result = handler.handle(body, "crd-conversion", new DatabaseConversion());
        var conversion = ConversionTester.Conversion.checked(sent, result.status(), result.body()).assertConverted();
        // to-v1.v1.json: the answer is a v1 ConversionReview with every object in data.tollgate.dev/v1
        String name = sample.getFileName().toString();
        String target = name.substring(name.indexOf("to-") + 3, name.indexOf('.'));
        String review = name.substring(name.indexOf('.') + 1, name.lastIndexOf('.'));
        assertEquals("apiextensions.k8s.io/" + review, conversion.review().path("apiVersion").asText());
        assertEquals(sent.path("request").path("objects").size(), conversion.objects().size());
        for (JsonNode o : conversion.objects()) {
            assertEquals("data.tollgate.dev/" + target, o.path("apiVersion").asText());
            assertEquals(List.of(), Crd.problems(target, o));
        }
    }

    static List<MalformedRequests.Case> badRequests() {
        return MalformedConversionRequests.cases(Databases.v1alpha1(), "data.tollgate.dev/v1",
                AdmissionLimits.DEFAULTS.maxBodyBytes());
    }

    /** Every case the handler decides (POST, JSON): refused with its status and a JSON error, the policy untouched. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void badRequestIsRefusedBeforeThePolicy(MalformedRequests.Case bad) throws IOException {
        if (!"POST".equals(bad.method()) || !"application/json".equals(bad.contentType())) {
            return; // method and content type are the HTTP layer's checks
        }
        AtomicInteger calls = new AtomicInteger();
        ConversionPolicy counting = new ConversionPolicy() {
            public ObjectNode convert(ObjectNode object, String desired) throws ConversionException {
                calls.incrementAndGet();
                return new DatabaseConversion().convert(object, desired);
            }
        };
        HandlerResult<ConversionReview> result = handler.handle(bad.body(), "crd-conversion", counting);
        assertEquals(bad.expectedStatus(), result.status(), () -> bad.description() + ": " + result.error());
        assertEquals(HandlerResult.Outcome.BAD_REQUEST, result.outcome());
        assertEquals(0, calls.get());
        JsonNode error = new com.fasterxml.jackson.databind.ObjectMapper().readTree(result.body());
        assertEquals(bad.expectedStatus(), error.path("code").asInt());
        assertFalse(error.path("message").asText().isEmpty());
    }

    @Test
    void theValidReviewBehindTheBadOnesConverts() {
        assertTrue(ConversionTester.of(new DatabaseConversion()).convert("data.tollgate.dev/v1", Databases.v1alpha1())
                .converted());
    }
}
