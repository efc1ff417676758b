package dev.tollgate.functions.crdconversion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.testing.ConversionTester;

class DatabaseConversionTest {

    private static final String V1ALPHA1 = "data.tollgate.dev/v1alpha1";
    private static final String V1BETA1 = "data.tollgate.dev/v1beta1";
    private static final String V1 = "data.tollgate.dev/v1";

    private final ConversionTester tester = ConversionTester.of(new DatabaseConversion());

    private static ObjectNode spec(JsonNode o) {
        return (ObjectNode) o.get("spec");
    }

    private static ObjectNode annotations(JsonNode o) {
        return ((ObjectNode) o.get("metadata")).with("annotations");
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void upgradesRenamingSplittingAndKeepingTlsOff(ReviewVersion review) {
        tester.version(review).convert(V1, Databases.v1alpha1()).assertConverted().assertObject(0, Databases.v1());
        tester.version(review).convert(V1, Databases.v1beta1()).assertConverted().assertObject(0, Databases.v1());
        tester.version(review).convert(V1BETA1, Databases.v1alpha1()).assertConverted()
                .assertObject(0, Databases.v1beta1());
    }

    @Test
    void downgradesWithoutAnAnnotationWhenNothingIsLost() {
        tester.convert(V1ALPHA1, Databases.v1()).assertConverted().assertObject(0, Databases.v1alpha1());
        tester.convert(V1BETA1, Databases.v1()).assertConverted().assertObject(0, Databases.v1beta1());
    }

    @Test
    void keepsWhatAnOlderVersionCannotHoldInTheAnnotation() {
        ObjectNode v1 = Databases.v1();
        spec(v1).put("tlsMode", "require");
        spec(v1).with("engine").put("name", "mysql:compat");
        JsonNode alpha = tester.convert(V1ALPHA1, v1).assertConverted().object(0);
        assertEquals("mysql:compat:16.2", alpha.path("spec").path("engine").asText(), "the closest string");
        assertEquals("{\"engine\":{\"name\":\"mysql:compat\",\"version\":\"16.2\"},\"noAnnotations\":true,"
                + "\"tlsMode\":\"require\"}",
                alpha.path("metadata").path("annotations").path(DatabaseConversion.STASH).asText());
        assertEquals(v1, tester.convert(V1, alpha).assertConverted().object(0), "restored from the annotation");
        assertEquals(List.of(), Crd.problems("v1alpha1", alpha));
    }

    @Test
    void aV1ObjectNotYetDefaultedStaysWithoutTlsMode() {
        ObjectNode v1 = Databases.v1();
        spec(v1).remove("tlsMode");
        JsonNode beta = tester.convert(V1BETA1, v1).assertConverted().object(0);
        assertEquals("{\"noAnnotations\":true,\"tlsMode\":null}", beta.path("metadata").path("annotations").path(DatabaseConversion.STASH)
                .asText());
        assertFalse(tester.convert(V1, beta).assertConverted().object(0).path("spec").has("tlsMode"));
        tester.assertLossless(v1, V1ALPHA1).assertLossless(v1, V1BETA1);
    }

    @Test
    void anEditInTheOlderVersionWinsOverTheAnnotation() {
        ObjectNode v1 = Databases.v1();
        spec(v1).with("engine").put("name", "my:sql");
        ObjectNode alpha = (ObjectNode) tester.convert(V1ALPHA1, v1).assertConverted().object(0).deepCopy();
        spec(alpha).put("engine", "postgres:17.0"); // a client edits the v1alpha1 field
        JsonNode back = tester.convert(V1, alpha).assertConverted().object(0);
        assertEquals(Databases.parse("{name: postgres, version: '17.0'}"), back.path("spec").path("engine"));
    }

    @Test
    void anAnnotationUnderTheReservedKeyIsKept() {
        ObjectNode v1 = Databases.v1();
        annotations(v1).put(DatabaseConversion.STASH, "someone else's");
        tester.assertLossless(v1, V1ALPHA1).assertLossless(v1, V1BETA1);
        ObjectNode v1WithoutAnnotations = Databases.v1();
        spec(v1WithoutAnnotations).put("tlsMode", "require");
        tester.assertLossless(v1WithoutAnnotations, V1BETA1);
        assertFalse(v1WithoutAnnotations.path("metadata").has("annotations"));
    }

    @Test
    void everyPairOfVersionsRoundTrips() {
        for (ObjectNode object : List.of(Databases.v1alpha1(), Databases.v1beta1(), Databases.v1())) {
            for (String via : List.of(V1ALPHA1, V1BETA1, V1)) {
                tester.assertLossless(object, via);
            }
        }
    }

    @Test
    void convertsSeveralObjectsInOrder() {
        ObjectNode other = Databases.v1beta1();
        ((ObjectNode) other.get("metadata")).put("name", "carts").put("uid", "u-carts");
        var result = tester.convert(V1, Databases.v1alpha1(), other, Databases.v1()).assertConverted();
        assertEquals(3, result.objects().size());
        assertEquals("carts", result.object(1).path("metadata").path("name").asText());
        result.objects().forEach(o -> assertEquals(V1, o.path("apiVersion").asText()));
    }

    @Test
    void oneObjectItCannotConvertFailsTheReview() {
        ObjectNode broken = Databases.v1alpha1();
        spec(broken).putObject("engine").put("name", "postgres"); // an object where v1alpha1 has a string
        tester.convert(V1, Databases.v1alpha1(), broken).assertFailed()
                .withMessageContaining("objects[1] (Database shop/orders, data.tollgate.dev/v1alpha1): cannot "
                        + "convert to data.tollgate.dev/v1: spec.engine: expected a string such as postgres:16.2");
        tester.convert("data.tollgate.dev/v2", Databases.v1()).assertFailed()
                .withMessageContaining("the desired apiVersion data.tollgate.dev/v2 is not one of data.tollgate.dev/"
                        + "v1alpha1, v1beta1, v1");
        ObjectNode gadget = Databases.v1();
        gadget.put("kind", "Gadget");
        tester.convert(V1ALPHA1, gadget).assertFailed().withMessageContaining("kind Gadget is not Database");
        ObjectNode garbled = Databases.v1alpha1();
        annotations(garbled).put(DatabaseConversion.STASH, "{not json");
        tester.convert(V1, garbled).assertFailed()
                .withMessageContaining("annotation " + DatabaseConversion.STASH + " is not the JSON object");
    }

    @Test
    void convertedObjectsPassTheTargetSchema() {
        for (ObjectNode object : List.of(Databases.v1alpha1(), Databases.v1beta1(), Databases.v1())) {
            for (String version : DatabaseConversion.VERSIONS) {
                JsonNode out = tester.convert("data.tollgate.dev/" + version, object).assertConverted().object(0);
                assertEquals(List.of(), Crd.problems(version, out), () -> version + ": " + out);
            }
        }
        assertTrue(Crd.problems("v1alpha1", Databases.v1()).contains("spec.engine: expected string, got OBJECT"),
                "the schema check itself can fail");
    }
}
