package dev.tollgate.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.tollgate.admission.registration.Registrations;
import dev.tollgate.admission.registration.WebhookRegistration;

class CatalogTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The committed catalog is exactly what the functions declare now. */
    @Test
    void committedCatalogMatchesTheFunctions() throws IOException {
        Path root = ProjectRoot.get();
        Path committed = root.resolve(RegistrationCatalog.CATALOG_PATH);
        String expected = RegistrationCatalog.render(RegistrationCatalog.build(root));
        if (!Files.isRegularFile(committed)) {
            fail(RegistrationCatalog.CATALOG_PATH + " is missing; create it with: " + RegistrationCatalog.REGENERATE_COMMAND);
        }
        String actual = Files.readString(committed);
        if (!expected.equals(actual)) {
            fail(RegistrationCatalog.CATALOG_PATH + " has drifted from functions/*/webhook.yaml ("
                    + describeDrift(JSON.readTree(actual), JSON.readTree(expected)) + "). Regenerate it with: "
                    + RegistrationCatalog.REGENERATE_COMMAND + " and commit the result.");
        }
    }

    /**
     * Every function folder with a webhook.yaml is in the catalog, every entry with its declared fields: admission
     * entries under {@code functions}, conversion entries under {@code conversions} by CRD.
     */
    @Test
    void catalogHoldsEveryDeclaredEntryUnchanged() {
        Path root = ProjectRoot.get();
        JsonNode catalog = RegistrationCatalog.build(root);
        JsonNode functions = catalog.path("functions");
        int admissionFunctions = 0;
        int conversions = 0;
        for (Path file : Registrations.findAll(root.resolve("functions"))) {
            String function = file.getParent().getFileName().toString();
            List<WebhookRegistration> declared = Registrations.load(file).stream().filter(r -> !r.conversion()).toList();
            for (WebhookRegistration r : Registrations.load(file)) {
                if (r.conversion()) {
                    conversions++;
                    JsonNode listed = catalog.path("conversions").path(r.crd());
                    assertEquals(function, listed.path("function").asText(), r.crd());
                    assertEquals(r.path(), listed.path("path").asText());
                    assertEquals(r.entry().get("versions"), listed.path("versions"));
                    assertEquals(r.webhook(), listed.path("webhook"));
                }
            }
            if (declared.isEmpty()) {
                assertTrue(functions.path(function).isMissingNode(), function + " declares only conversions");
                continue;
            }
            admissionFunctions++;
            JsonNode listed = functions.path(function).path("webhooks");
            assertEquals(declared.size(), listed.size(), file.toString());
            for (int i = 0; i < declared.size(); i++) {
                assertEquals(declared.get(i).type().name(), listed.get(i).path("type").asText());
                assertEquals(declared.get(i).path(), listed.get(i).path("path").asText());
                assertEquals(declared.get(i).webhook(), listed.get(i).path("webhook"));
            }
        }
        assertEquals(admissionFunctions, functions.size(), "one catalog entry per function with admission webhooks");
        assertEquals(conversions, catalog.path("conversions").size(), "one catalog entry per converted CRD");
    }

    /** A conversion entry is listed by CRD, outside the admission functions. */
    @Test
    void aConversionEntryIsListedByItsCrd(@TempDir Path root) throws IOException {
        writeFunction(root, "widgets", conversion("widgets.shop.tollgate.dev", "/widgets"));
        writeFunction(root, "zeta", entry("zeta.tollgate.dev", "/zeta", "validating"));
        var catalog = RegistrationCatalog.build(root);
        assertEquals(List.of("zeta"), names(catalog.path("functions")), "no admission entry for the converter");
        JsonNode listed = catalog.path("conversions").path("widgets.shop.tollgate.dev");
        assertEquals("widgets", listed.path("function").asText());
        assertEquals("/widgets", listed.path("path").asText());
        assertEquals(JSON.readTree("[\"v1alpha1\",\"v1\"]"), listed.path("versions"));
        assertEquals(JSON.readTree("{\"conversionReviewVersions\":[\"v1\",\"v1beta1\"]}"), listed.path("webhook"));
    }

    @Test
    void twoConvertersForOneCrdAreRejected(@TempDir Path root) throws IOException {
        writeFunction(root, "one", conversion("widgets.shop.tollgate.dev", "/one"));
        writeFunction(root, "two", conversion("widgets.shop.tollgate.dev", "/two"));
        var e = assertThrows(IllegalArgumentException.class, () -> RegistrationCatalog.build(root));
        assertTrue(e.getMessage().contains("two/webhook.yaml[widgets.shop.tollgate.dev].crd: already converted by one"),
                e.getMessage());
    }

    @Test
    void anInvalidConversionEntryIsReported(@TempDir Path root) throws IOException {
        writeFunction(root, "widgets", conversion("widgets", "/widgets").replace("[v1alpha1, v1]", "[v1]"));
        var e = assertThrows(IllegalArgumentException.class, () -> RegistrationCatalog.build(root));
        assertTrue(e.getMessage().contains("widgets/webhook.yaml[widgets].crd: 'widgets' must be a"), e.getMessage());
        assertTrue(e.getMessage().contains("widgets/webhook.yaml[widgets].versions: required"), e.getMessage());
    }

    private static String conversion(String crd, String path) {
        return """
                type: conversion
                path: %s
                crd: %s
                versions: [v1alpha1, v1]
                conversionReviewVersions: [v1, v1beta1]
                """.formatted(path, crd);
    }

    /** Adding a function folder with a webhook.yaml adds it: nothing is listed by hand. */
    @Test
    void aNewFunctionIsPickedUpWithoutEdits(@TempDir Path root) throws IOException {
        writeFunction(root, "zeta", entry("zeta.tollgate.dev", "/zeta", "validating"));
        writeFunction(root, "alpha", entry("alpha.tollgate.dev", "/alpha", "mutating")
                + "---\n" + entry("second.alpha.tollgate.dev", "/alpha/second", "validating"));
        Files.createDirectories(root.resolve("functions/all-in-one")); // a bundle without a registration of its own

        var catalog = RegistrationCatalog.build(root);
        assertEquals(List.of("alpha", "zeta"), names(catalog.path("functions")));
        JsonNode alpha = catalog.path("functions").path("alpha").path("webhooks");
        assertEquals(2, alpha.size());
        assertEquals("mutating", alpha.get(0).path("type").asText());
        assertEquals("/alpha/second", alpha.get(1).path("path").asText());
        assertEquals("second.alpha.tollgate.dev", alpha.get(1).path("webhook").path("name").asText());
        assertFalse(alpha.get(1).path("webhook").has("type"), "Tollgate's own fields stay out of the webhook object");
        assertFalse(alpha.get(1).path("webhook").has("path"));

        Path written = RegistrationCatalog.write(root);
        assertEquals(RegistrationCatalog.render(catalog), Files.readString(written));
        assertTrue(Files.readString(written).endsWith("}\n"));
    }

    /** The build's step: a function new since the committed catalog is added to it, nothing else changes. */
    @Test
    void theBuildAddsANewFunctionToTheCommittedCatalog(@TempDir Path root) throws IOException {
        writeFunction(root, "alpha", entry("alpha.tollgate.dev", "/alpha", "validating"));
        RegistrationCatalog.write(root);
        writeFunction(root, "beta", entry("beta.tollgate.dev", "/beta", "validating"));
        writeFunction(root, "widgets", conversion("widgets.shop.tollgate.dev", "/widgets"));

        assertEquals(List.of("beta", "widgets.shop.tollgate.dev"), RegistrationCatalog.addNew(root));
        assertEquals(RegistrationCatalog.render(RegistrationCatalog.build(root)),
                Files.readString(root.resolve(RegistrationCatalog.CATALOG_PATH)));
        assertEquals(List.of(), RegistrationCatalog.addNew(root), "nothing new the second time");
    }

    /**
     * What the drift check is for: a changed registration of a listed function is what Terraform would register
     * differently in every governed cluster, so the build leaves it to be regenerated on purpose, new functions too.
     */
    @Test
    void aChangedRegistrationIsNotWrittenByTheBuild(@TempDir Path root) throws IOException {
        writeFunction(root, "alpha", entry("alpha.tollgate.dev", "/alpha", "validating"));
        RegistrationCatalog.write(root);
        String committed = Files.readString(root.resolve(RegistrationCatalog.CATALOG_PATH));
        writeFunction(root, "alpha", entry("alpha.tollgate.dev", "/alpha", "validating")
                .replace("timeoutSeconds: 5", "timeoutSeconds: 7"));
        writeFunction(root, "beta", entry("beta.tollgate.dev", "/beta", "validating"));

        assertEquals(List.of(), RegistrationCatalog.addNew(root));
        assertEquals(committed, Files.readString(root.resolve(RegistrationCatalog.CATALOG_PATH)));
        Files.delete(root.resolve("functions/alpha/webhook.yaml"));
        assertEquals(List.of(), RegistrationCatalog.addNew(root), "a removed function is not taken out either");
        assertEquals(committed, Files.readString(root.resolve(RegistrationCatalog.CATALOG_PATH)));
    }

    @Test
    void anInvalidRegistrationStopsTheCatalogNamingEveryProblem(@TempDir Path root) throws IOException {
        writeFunction(root, "broken", entry("broken", "/elsewhere", "validating").replace("timeoutSeconds: 5",
                "timeoutSeconds: 45"));
        var e = assertThrows(IllegalArgumentException.class, () -> RegistrationCatalog.build(root));
        assertTrue(e.getMessage().contains("broken/webhook.yaml[broken].name"), e.getMessage());
        assertTrue(e.getMessage().contains(".path: must be /broken"), e.getMessage());
        assertTrue(e.getMessage().contains("timeoutSeconds: must be an integer between 1 and 30"), e.getMessage());
        assertFalse(Files.exists(root.resolve(RegistrationCatalog.CATALOG_PATH)));
    }

    @Test
    void theSameWebhookNameInTwoFunctionsIsRejected(@TempDir Path root) throws IOException {
        writeFunction(root, "one", entry("shared.tollgate.dev", "/one", "validating"));
        writeFunction(root, "two", entry("shared.tollgate.dev", "/two", "validating"));
        var e = assertThrows(IllegalArgumentException.class, () -> RegistrationCatalog.build(root));
        assertTrue(e.getMessage().contains("two/webhook.yaml[shared.tollgate.dev].name: already declared by one"),
                e.getMessage());
    }

    @Test
    void aWebhookYamlThatIsNotYamlIsReported(@TempDir Path root) throws IOException {
        writeFunction(root, "garbled", "name: [unclosed\n");
        var e = assertThrows(IllegalArgumentException.class, () -> RegistrationCatalog.build(root));
        assertTrue(e.getMessage().contains("garbled/webhook.yaml"), e.getMessage());
    }

    private static String entry(String name, String path, String type) {
        return """
                name: %s
                type: %s
                path: %s
                rules:
                  - operations: ["CREATE"]
                    apiGroups: [""]
                    apiVersions: ["v1"]
                    resources: ["pods"]
                sideEffects: None
                timeoutSeconds: 5
                admissionReviewVersions: ["v1"]
                """.formatted(name, type, path);
    }

    private static void writeFunction(Path root, String name, String webhookYaml) throws IOException {
        Path dir = Files.createDirectories(root.resolve("functions").resolve(name));
        Files.writeString(dir.resolve("webhook.yaml"), webhookYaml);
    }

    private static List<String> names(JsonNode object) {
        List<String> out = new ArrayList<>();
        object.fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** Which functions were added, removed or changed, so the failure says what moved. */
    private static String describeDrift(JsonNode committed, JsonNode current) {
        Set<String> all = new TreeSet<>(names(committed.path("functions")));
        all.addAll(names(current.path("functions")));
        List<String> parts = new ArrayList<>();
        for (String f : all) {
            JsonNode was = committed.path("functions").path(f);
            JsonNode now = current.path("functions").path(f);
            if (was.isMissingNode()) {
                parts.add("not yet listed: " + f);
            } else if (now.isMissingNode()) {
                parts.add("listed but gone: " + f);
            } else if (!was.equals(now)) {
                parts.add("changed: " + f);
            }
        }
        return parts.isEmpty() ? "formatting differs" : String.join("; ", parts);
    }
}
