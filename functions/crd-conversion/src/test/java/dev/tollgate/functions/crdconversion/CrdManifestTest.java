package dev.tollgate.functions.crdconversion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.admission.registration.RegistrationValidator;
import dev.tollgate.admission.registration.Registrations;
import dev.tollgate.admission.registration.WebhookRegistration;

/** crd.yaml, webhook.yaml and the conversion class describe the same CRD. */
class CrdManifestTest {

    private static final WebhookRegistration REGISTRATION = Registrations.load(Path.of("webhook.yaml")).get(0);

    @Test
    void webhookYamlDeclaresThisCrdsConversion() {
        assertEquals(List.of(), RegistrationValidator.validateDeclared(REGISTRATION));
        assertTrue(REGISTRATION.conversion());
        assertEquals(Crd.CRD.path("metadata").path("name").asText(), REGISTRATION.crd());
        List<String> versions = new ArrayList<>();
        Crd.CRD.path("spec").path("versions").forEach(v -> versions.add(v.path("name").asText()));
        assertEquals(versions, REGISTRATION.versions());
        assertEquals(DatabaseConversion.VERSIONS, versions);
    }

    @Test
    void crdMatchesTheConversion() {
        JsonNode spec = Crd.CRD.path("spec");
        assertEquals("apiextensions.k8s.io/v1", Crd.CRD.path("apiVersion").asText());
        assertEquals(DatabaseConversion.GROUP, spec.path("group").asText());
        assertEquals(DatabaseConversion.KIND, spec.path("names").path("kind").asText());
        assertEquals(spec.path("names").path("plural").asText() + "." + spec.path("group").asText(),
                Crd.CRD.path("metadata").path("name").asText());
        List<String> stored = new ArrayList<>();
        spec.path("versions").forEach(v -> {
            if (v.path("storage").asBoolean()) {
                stored.add(v.path("name").asText());
            }
            assertTrue(v.path("served").asBoolean(), v.path("name").asText() + " is served");
        });
        assertEquals(List.of(DatabaseConversion.HUB), stored, "the hub is the storage version");
        assertFalse(spec.has("conversion"), "spec.conversion is rendered by Terraform, not committed");
        assertFalse(spec.path("preserveUnknownFields").asBoolean(), "webhook conversion needs pruning");
    }

    @Test
    void theThreeDifferencesAreInTheSchemas() {
        JsonNode alpha = Crd.schema("v1alpha1").path("properties").path("spec").path("properties");
        JsonNode beta = Crd.schema("v1beta1").path("properties").path("spec").path("properties");
        JsonNode v1 = Crd.schema("v1").path("properties").path("spec").path("properties");
        // renamed
        assertTrue(alpha.has("storageSize") && !alpha.has("storage"));
        assertTrue(beta.has("storage") && v1.has("storage") && !v1.has("storageSize"));
        // split
        assertEquals("string", alpha.path("engine").path("type").asText());
        assertEquals("object", v1.path("engine").path("type").asText());
        assertTrue(v1.path("engine").path("properties").has("version"));
        // a default only the newest version has
        assertEquals("require", v1.path("tlsMode").path("default").asText());
        assertFalse(alpha.has("tlsMode") || beta.has("tlsMode"));
    }
}
