package dev.tollgate.functions.crdconversion;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionLimits;
import dev.tollgate.admission.ReviewKind;
import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.testing.ConversionTester;
import dev.tollgate.testing.MalformedConversionRequests;
import dev.tollgate.testing.MalformedRequests;
import dev.tollgate.testing.Manifests;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * The function over HTTP, as the API server calls it: every answer is re-checked from its bytes with the API server's
 * rules ({@link ConversionTester.Conversion#checked}) and compared with what the policy gives in-process.
 * {@link CrdConversionIT} runs these same tests on the packaged function, behind a path token.
 */
@QuarkusTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DatabaseConversionHttpTest {

    static final String PATH = "/crd-conversion";
    static final String GROUP = DatabaseConversion.GROUP + "/";

    /** The URL path a caller posts reviews to: the function's own here (test mode asks for no caller check). */
    protected String callerPath() {
        return PATH;
    }

    /** Sends one ConversionReview to the function and checks the answer as the API server would. */
    ConversionTester.Conversion convert(ReviewVersion version, String desired, JsonNode... objects) {
        ObjectNode sent = ConversionTester.request(version, desired, objects);
        return send(sent);
    }

    ConversionTester.Conversion send(JsonNode sent) {
        Response r = given().contentType("application/json").body(Manifests.toJson(sent)).post(callerPath());
        return ConversionTester.Conversion.checked(sent, r.statusCode(), r.asByteArray());
    }

    static Stream<Arguments> reviewVersionsAndTargets() {
        List<Arguments> out = new ArrayList<>();
        for (ReviewVersion review : ReviewVersion.values()) {
            for (String target : DatabaseConversion.VERSIONS) {
                out.add(Arguments.of(review, target));
            }
        }
        return out.stream();
    }

    /** The same database in each version converts to the target exactly as written in {@link Databases}. */
    @ParameterizedTest(name = "{0} review to {1}")
    @MethodSource("reviewVersionsAndTargets")
    void theExampleDatabaseConvertsToEachVersion(ReviewVersion review, String target) {
        List<ObjectNode> sources = new ArrayList<>(List.of(Databases.v1alpha1(), Databases.v1beta1(), Databases.v1()));
        sources.removeIf(o -> o.path("apiVersion").asText().equals(GROUP + target)); // never sent, as upstream
        var answer = convert(review, GROUP + target, sources.toArray(JsonNode[]::new)).assertConverted();
        assertEquals(ReviewKind.CONVERSION.apiVersion(review), answer.review().path("apiVersion").asText(),
                "answered in its version");
        ObjectNode expected = switch (target) {
            case "v1alpha1" -> Databases.v1alpha1();
            case "v1beta1" -> Databases.v1beta1();
            default -> Databases.v1();
        };
        for (int i = 0; i < sources.size(); i++) {
            answer.assertObject(i, ConversionTester.normalized(expected));
            assertEquals(List.of(), Crd.problems(target, answer.object(i)), "fits the " + target + " schema");
        }
    }

    /** The shipped examples (what `tollgate convert` reads) give over HTTP what they give in-process. */
    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void theShippedExamplesConvertAsInProcess(ReviewVersion review) throws IOException {
        List<JsonNode> examples = new ArrayList<>();
        try (var files = Files.list(Path.of("examples"))) {
            for (Path f : files.sorted().toList()) {
                examples.add(Manifests.read(f));
            }
        }
        ConversionTester local = ConversionTester.of(new DatabaseConversion()).version(review);
        for (String target : DatabaseConversion.VERSIONS) {
            JsonNode[] toSend = examples.stream().filter(o -> !o.path("apiVersion").asText().equals(GROUP + target))
                    .toArray(JsonNode[]::new);
            var overHttp = convert(review, GROUP + target, toSend).assertConverted();
            assertEquals(local.convert(GROUP + target, toSend).assertConverted().objects(), overHttp.objects(),
                    "to " + target);
        }
    }

    /** What an older version cannot hold survives a round trip through it, over HTTP. */
    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void roundTripThroughV1alpha1KeepsEveryV1Field(ReviewVersion review) {
        ObjectNode v1 = Databases.v1();
        ((ObjectNode) v1.get("spec")).put("tlsMode", "require");
        ((ObjectNode) v1.with("spec").get("engine")).put("name", "mysql:compat");
        JsonNode alpha = convert(review, GROUP + "v1alpha1", v1).assertConverted().object(0);
        assertEquals(ConversionTester.normalized(v1), convert(review, GROUP + "v1", alpha).assertConverted().object(0));
    }

    @Test
    void anObjectItCannotConvertFailsTheWholeReview() {
        ObjectNode foreign = Databases.v1alpha1();
        foreign.put("kind", "Cache");
        convert(ReviewVersion.V1, GROUP + "v1", Databases.v1beta1(), foreign).assertFailed()
                .withMessageContaining("objects[1] (Cache shop/orders, data.tollgate.dev/v1alpha1): cannot convert "
                        + "to data.tollgate.dev/v1: kind Cache is not Database");
    }

    static Stream<Path> samples() throws IOException {
        return Files.list(Path.of("samples")).filter(p -> p.toString().endsWith(".json")).sorted();
    }

    /** The README's curl commands send these. */
    @ParameterizedTest
    @MethodSource("samples")
    void shippedSampleConverts(Path sample) {
        JsonNode sent = Manifests.read(sample);
        var answer = send(sent).assertConverted();
        String desired = sent.path("request").path("desiredAPIVersion").asText();
        answer.objects().forEach(o -> assertEquals(desired, o.path("apiVersion").asText()));
    }

    static List<MalformedRequests.Case> malformed() {
        return MalformedConversionRequests.cases(Databases.v1alpha1(), GROUP + "v1",
                AdmissionLimits.DEFAULTS.maxBodyBytes());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    @Order(1)
    void refusesMalformedRequestWithAStatus(MalformedRequests.Case badRequest) {
        badRequest.assertRefused(callerPath());
    }

    @Test
    @Order(2)
    void stillServingAfterBadRequests() {
        convert(ReviewVersion.V1, GROUP + "v1", Databases.v1alpha1()).assertConverted()
                .assertObject(0, ConversionTester.normalized(Databases.v1()));
    }
}
