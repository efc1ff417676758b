package dev.tollgate.terraform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import dev.tollgate.admission.registration.RegistrationValidator;
import dev.tollgate.admission.registration.Registrations;
import dev.tollgate.admission.registration.WebhookRegistration;

/**
 * Renders the committed catalog's conversions through terraform/modules/crd-conversion with every converting
 * function's own CRD manifest (functions/&lt;name&gt;/crd.yaml), as a root module would: each CRD comes out with
 * spec.conversion as the API server expects it (strategy Webhook, an https URL with the path token and the declared
 * path, caBundle as base64 PEM, conversionReviewVersions from webhook.yaml), the patch for CRDs applied elsewhere
 * holds the same block, and the rest of the CRD is unchanged.
 */
class RenderedConversionsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String PEM = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUTollgateTestCA\n"
            + "-----END CERTIFICATE-----\n";

    private static final List<WebhookRegistration> CONVERSIONS = new ArrayList<>();
    private static JsonNode outputs;

    @BeforeAll
    static void render() throws IOException {
        Path root = ProjectRoot.get();
        for (Path yaml : Registrations.findAll(root.resolve("functions"))) {
            Registrations.load(yaml).stream().filter(WebhookRegistration::conversion).forEach(CONVERSIONS::add);
        }
        assertFalse(CONVERSIONS.isEmpty(), "no functions/*/webhook.yaml declares a conversion");
        StringBuilder manifests = new StringBuilder();
        for (WebhookRegistration r : CONVERSIONS) {
            Path crd = root.resolve("functions").resolve(r.function()).resolve("crd.yaml");
            assertTrue(Files.isRegularFile(crd), r.function() + " converts " + r.crd() + " but ships no crd.yaml");
            manifests.append("    \"").append(r.crd()).append("\" = yamldecode(file(\"").append(crd).append("\"))\n");
        }
        Path tree = Terraform.workTree();
        Path harness = Terraform.target().resolve("terraform-work/render-conversions");
        Terraform.deleteTree(harness);
        Files.createDirectories(harness);
        Files.writeString(harness.resolve("main.tf"), """
                locals {
                  catalog    = jsondecode(file("%s"))
                  converters = distinct([for c in values(local.catalog.conversions) : c.function])
                }

                module "conversions" {
                  source        = "%s"
                  catalog       = local.catalog
                  function_urls = { for f in local.converters : f => "https://${f}.functions.example.com/" }
                  path_tokens   = { for f in local.converters : f => "token-${f}-0123456789abcdef" }
                  ca_bundle     = %s
                  crd_manifests = {
                %s  }
                }

                output "crd_manifests" {
                  value     = module.conversions.crd_manifests
                  sensitive = true
                }
                output "crd_patches" {
                  value     = module.conversions.crd_patches
                  sensitive = true
                }
                output "summary" {
                  value = module.conversions.summary
                }
                """.formatted(tree.resolve("catalog/catalog.json"), tree.resolve("modules/crd-conversion"),
                JSON.writeValueAsString(PEM), manifests));
        Terraform.runOk(harness, "init", "-input=false", "-no-color");
        Terraform.runOk(harness, "apply", "-auto-approve", "-input=false", "-no-color");
        outputs = JSON.readTree(Terraform.runOk(harness, "output", "-json", "-no-color").stdout());
    }

    @Test
    void everyConvertedCrdGetsItsConversionBlock() {
        for (WebhookRegistration r : CONVERSIONS) {
            JsonNode conversion = outputs.path("crd_manifests").path("value").path(r.crd()).path("spec")
                    .path("conversion");
            assertEquals("Webhook", conversion.path("strategy").asText(), r.crd());
            JsonNode webhook = conversion.path("webhook");
            String url = webhook.path("clientConfig").path("url").asText();
            assertEquals("https://" + r.function() + ".functions.example.com/token-" + r.function()
                    + "-0123456789abcdef" + r.path(), url);
            assertEquals(List.of(), RegistrationValidator.validateUrl(url, r.crd() + ".clientConfig.url"));
            assertEquals(PEM, new String(Base64.getDecoder().decode(webhook.path("clientConfig").path("caBundle")
                    .asText()), StandardCharsets.UTF_8));
            assertEquals(r.webhook().get("conversionReviewVersions"), webhook.path("conversionReviewVersions"));
            assertEquals(List.of("clientConfig", "conversionReviewVersions"), fieldNames(webhook),
                    "apiextensions.k8s.io/v1 WebhookConversion has exactly these fields");
        }
    }

    @Test
    void theRestOfEachCrdIsAsShipped() throws IOException {
        for (WebhookRegistration r : CONVERSIONS) {
            JsonNode shipped = YAML.readTree(ProjectRoot.get().resolve("functions").resolve(r.function())
                    .resolve("crd.yaml").toFile());
            JsonNode rendered = outputs.path("crd_manifests").path("value").path(r.crd()).deepCopy();
            ((com.fasterxml.jackson.databind.node.ObjectNode) rendered.path("spec")).remove("conversion");
            assertEquals(shipped, rendered, r.crd());
            List<String> versions = new ArrayList<>();
            shipped.path("spec").path("versions").forEach(v -> versions.add(v.path("name").asText()));
            assertEquals(r.versions(), versions, r.crd() + ": crd.yaml and webhook.yaml list the same versions");
        }
    }

    @Test
    void thePatchForCrdsAppliedElsewhereHoldsTheSameBlock() throws IOException {
        for (WebhookRegistration r : CONVERSIONS) {
            JsonNode patch = JSON.readTree(outputs.path("crd_patches").path("value").path(r.crd()).asText());
            assertEquals(outputs.path("crd_manifests").path("value").path(r.crd()).path("spec").path("conversion"),
                    patch.path("spec").path("conversion"));
            assertEquals(List.of("spec"), fieldNames(patch));
            assertEquals(r.function(), outputs.path("summary").path("value").path(r.crd()).path("function").asText());
        }
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
