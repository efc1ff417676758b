package dev.tollgate.simulator;

import static dev.tollgate.simulator.FakeWebhooks.ops;
import static dev.tollgate.simulator.FakeWebhooks.patch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.cel.KubeCel;
import dev.tollgate.simulator.CallRecord.Result;

/**
 * Quantities as the API server writes them after decoding (apimachinery pkg/api/resource/quantity.go ParseQuantity
 * and CanonicalizeBytes, amount.go), and what webhooks therefore see.
 */
class QuantitiesTest {

    @ParameterizedTest
    @CsvSource({
        "0.5, 500m", "1.5, 1500m", "0.1, 100m", "0.0001, 100u", "100m, 100m", "1000m, 1", "2000, 2k", "1500, 1500",
        "1k, 1k", "12e6, 12e6", "1e3, 1e3", "1.5e3, 1500", "1e2, 100", "0.1n, 1n", "0, 0", "-0, 0", "0.000, 0",
        "-0.5, -500m",
        // binary: whole multiples of 1024 move to the largest suffix; small or fractional amounts become decimal
        "1024Mi, 1Gi", "1536Mi, 1536Mi", "1.5Gi, 1536Mi", "0.5Gi, 512Mi", "1Ki, 1Ki", "8Ki, 8Ki", "1024Ki, 1Mi",
        "0.5Ki, 512", "1.5Ki, 1536", "1.1Ki, 1126400m", "1023, 1023",
        // ParseQuantity keeps text that already looks canonical as written, sign and leading zeros included
        "+1, +1", "01, 01", "' 2 ', 2",
    })
    void canonicalFormIsApimachinerys(String written, String canonical) {
        assertEquals(canonical, Quantities.canonical(written));
    }

    @ParameterizedTest
    @CsvSource({ "'', format", "abc, format", "1.2.3, format", "1Mb, format", "1 Gi, format", "1K, suffix",
        "1i, suffix", "1e, suffix", "1ex, format" })
    void malformedQuantitiesAreRefusedInApimachinerysWords(String written, String which) {
        Quantities.InvalidQuantity e = assertThrows(Quantities.InvalidQuantity.class,
                () -> Quantities.canonical(written));
        assertEquals(which.equals("format") ? Quantities.FORMAT_WRONG : Quantities.SUFFIX_WRONG, e.getMessage());
    }

    private final FakeWebhooks fake = new FakeWebhooks();

    private ManifestReport review(InputManifest m, String... hooks) {
        try (Simulator s = new Simulator(new Configurations(List.of(SimulatorTest.config(true, "m", hooks))), fake,
                new MatchConditionsSupport(KubeCel.standard()))) {
            return s.review(m, ReviewSettings.defaults());
        }
    }

    private static InputManifest pod(String resources) {
        return SimulatorTest.manifest("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web, namespace: shop}
                spec:
                  containers:
                  - name: app
                    image: nginx:1.25
                    resources: %s
                    env: [{name: CPU, valueFrom: {resourceFieldRef: {resource: limits.cpu}}}]
                  volumes: [{name: scratch, emptyDir: {sizeLimit: 1024Mi}}]
                """.formatted(resources));
    }

    @Test
    void webhooksSeeCanonicalQuantitiesAndRequestsCopiedFromThem() {
        fake.on("/m", FakeWebhooks.allow());
        ManifestReport r = review(pod("{limits: {cpu: 0.5, memory: 1024Mi, ephemeral-storage: 2}}"),
                SimulatorTest.hook("m.example.com", "/m", ""));
        assertTrue(r.allowed(), r.message());
        JsonNode sent = fake.received.get("/m").get(0).path("request").path("object").path("spec");
        JsonNode app = sent.path("containers").get(0);
        assertEquals("500m", app.path("resources").path("limits").path("cpu").asText());
        assertEquals("1Gi", app.path("resources").path("limits").path("memory").asText());
        JsonNode storage = app.path("resources").path("limits").path("ephemeral-storage");
        assertTrue(storage.isTextual(), "a number becomes a string: " + storage);
        assertEquals("2", storage.asText());
        // SetDefaults_Pod copies the limits as decoded, so the requests are canonical too.
        assertEquals("500m", app.path("resources").path("requests").path("cpu").asText());
        assertEquals("1Gi", app.path("resources").path("requests").path("memory").asText());
        assertEquals("0", app.path("env").get(0).path("valueFrom").path("resourceFieldRef").path("divisor").asText(),
                "divisor is not a pointer: written as 0 when unset");
        assertEquals("1Gi", sent.path("volumes").get(0).path("emptyDir").path("sizeLimit").asText());
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("spec.containers[0].resources.limits.cpu: 0.5 -> 500m")),
                r.notes().toString());
    }

    @Test
    void aPatchWritingTheSameQuantityDifferentlyIsNoMutation() {
        // mutating/dispatcher.go compares the decoded objects: 0.5 and 500m are the same quantity.
        fake.on("/m", patch(o -> ops("[{\"op\":\"replace\",\"path\":\"/spec/containers/0/resources/limits/cpu\","
                + "\"value\":\"0.5\"}]")));
        ManifestReport r = review(pod("{limits: {cpu: 500m}}"), SimulatorTest.hook("m.example.com", "/m", ""));
        assertTrue(r.allowed(), r.message());
        CallRecord call = r.calls().get(0);
        assertEquals(Result.ALLOWED, call.result(), call.toString());
        assertTrue(r.auditAnnotations().values().stream().anyMatch(v -> v.contains("\"mutated\":false")),
                r.auditAnnotations().toString());
    }

    @Test
    void aPatchWritingAMalformedQuantityIsAnInternalError() {
        fake.on("/m", patch(o -> ops("[{\"op\":\"replace\",\"path\":\"/spec/containers/0/resources/limits/cpu\","
                + "\"value\":\"half\"}]")));
        ManifestReport r = review(pod("{limits: {cpu: 500m}}"), SimulatorTest.hook("m.example.com", "/m", ""));
        assertFalse(r.allowed());
        assertEquals(500, r.code());
        assertEquals("Internal error occurred: " + Quantities.FORMAT_WRONG, r.message());
    }

    @Test
    void aMalformedQuantityInTheManifestIsRefusedAsTheApiServerRefusesIt() {
        InputException e = assertThrows(InputException.class, () -> review(pod("{limits: {cpu: 1 core}}"),
                SimulatorTest.hook("m.example.com", "/m", "")));
        assertTrue(e.getMessage().endsWith(": Pod in version \"v1\" cannot be handled as a Pod: "
                + Quantities.FORMAT_WRONG), e.getMessage());
        assertTrue(fake.calls.isEmpty(), "no webhook is called");
    }

    @Test
    void kindsTheApiServerDoesNotDecodeHereKeepTheirText() {
        ObjectNode custom = (ObjectNode) SimulatorTest.manifest("""
                apiVersion: example.com/v1
                kind: Widget
                metadata: {name: w}
                spec: {resources: {limits: {cpu: 0.5}}}
                """).object();
        assertTrue(Quantities.canonicalize(dev.tollgate.admission.GroupVersionKind.of("example.com", "v1", "Widget"),
                custom).isEmpty());
        assertEquals("0.5", custom.path("spec").path("resources").path("limits").path("cpu").asText());
    }
}
