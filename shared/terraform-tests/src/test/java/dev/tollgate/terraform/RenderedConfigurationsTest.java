package dev.tollgate.terraform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.JsonMetaSchema;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.NonValidationKeyword;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import com.networknt.schema.oas.OpenApi30;

import dev.tollgate.admission.registration.RegistrationValidator;
import dev.tollgate.testing.Skip;

/**
 * Renders the committed catalog through the webhook-configurations module (terraform apply of a module without
 * resources) with URLs, path tokens, a CA bundle and overrides on every function, then checks the objects: the API
 * server's rules (the same RegistrationValidator that checks webhook.yaml), the upstream OpenAPI schema of
 * admissionregistration.k8s.io/v1, every declared field carried over, and the YAML outputs equal to the objects.
 */
class RenderedConfigurationsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String SCHEMA_FILE = "schemas/k8s-admissionregistration-v1-openapi.json";
    private static final String PEM = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUTollgateTestCA\n"
            + "-----END CERTIFICATE-----\n";
    private static final Set<String> REBUILT = Set.of("timeoutSeconds", "failurePolicy", "namespaceSelector",
            "objectSelector", "matchConditions");

    private static JsonNode catalog;
    private static JsonNode outputs;

    @BeforeAll
    static void render() throws IOException {
        Path tree = Terraform.workTree();
        catalog = JSON.readTree(tree.resolve("catalog/catalog.json").toFile());
        Path harness = Terraform.target().resolve("terraform-work/render");
        Terraform.deleteTree(harness);
        Files.createDirectories(harness);
        Files.writeString(harness.resolve("main.tf"), """
                locals {
                  catalog   = jsondecode(file("%s"))
                  functions = keys(local.catalog.functions)
                }

                module "webhooks" {
                  source             = "%s"
                  catalog            = local.catalog
                  kubernetes_version = "1.30"
                  function_urls      = { for f in local.functions : f => "https://${f}.functions.example.com/" }
                  path_tokens   = { for f in local.functions : f => "token-${f}-0123456789abcdef" }
                  ca_bundle     = %s
                  overrides = { for f in local.functions : f => {
                    namespace_selector = { matchExpressions = [{ key = "tollgate.dev/enforce", operator = "In", values = ["true"] }] }
                    object_selector    = { matchExpressions = [{ key = "tollgate.dev/skip", operator = "DoesNotExist" }] }
                    match_conditions   = [{ name = "tollgate-test-not-dry-run", expression = "!request.dryRun" }]
                  } }
                  # Every kind of exception criterion, on every function: their matchConditions and selector
                  # requirements go through the same API server rules and schema as the rest.
                  exceptions = [
                    { name = "legacy", functions = local.functions, match = { namespaces = ["legacy"], names = ["old"], operations = ["UPDATE"] }, reason = "r", expires = "2099-12-31T00:00:00Z" },
                    { name = "ci", functions = local.functions, match = { users = ["ci-bot"], groups = ["ci"], service_accounts = ["ci/deployer", "tools/*"] }, reason = "r", expires = "2099-12-31T00:00:00Z" },
                    { name = "batch", functions = local.functions, match = { object_labels = { matchLabels = { team = "batch" }, matchExpressions = [{ key = "owner", operator = "DoesNotExist" }] } }, reason = "r", expires = "2099-12-31T00:00:00Z" },
                    { name = "sandbox", functions = local.functions, match = { namespace_labels = { matchExpressions = [{ key = "sandbox", operator = "In", values = ["true"] }] } }, reason = "r", expires = "2099-12-31T00:00:00Z" },
                  ]
                }

                output "manifests" {
                  value     = module.webhooks.manifests
                  sensitive = true
                }
                output "manifests_yaml" {
                  value     = module.webhooks.manifests_yaml
                  sensitive = true
                }
                output "validating_yaml" {
                  value     = module.webhooks.validating_configuration_yaml
                  sensitive = true
                }
                output "mutating_yaml" {
                  value     = module.webhooks.mutating_configuration_yaml
                  sensitive = true
                }
                output "timeouts" {
                  value = module.webhooks.timeouts
                }
                """.formatted(tree.resolve("catalog/catalog.json"), tree.resolve("modules/webhook-configurations"),
                JSON.writeValueAsString(PEM)));
        Terraform.runOk(harness, "init", "-input=false", "-no-color");
        Terraform.runOk(harness, "apply", "-auto-approve", "-input=false", "-no-color");
        outputs = JSON.readTree(Terraform.runOk(harness, "output", "-json", "-no-color").stdout());
    }

    @Test
    void everyConfigurationPassesTheApiServerRules() {
        for (JsonNode config : configurations()) {
            assertEquals(List.of(), RegistrationValidator.validateConfiguration(config), config.path("kind").asText());
        }
    }

    @Test
    void everyConfigurationMatchesTheUpstreamOpenApiSchema() throws IOException {
        for (JsonNode config : configurations()) {
            Set<ValidationMessage> errors = schemaFor("everyConfigurationMatchesTheUpstreamOpenApiSchema", config.path("kind").asText()).validate(config);
            assertEquals(Set.of(), errors, config.path("kind").asText() + " against " + SCHEMA_FILE);
        }
    }

    /** Controls: both checks do reject broken objects, so the two tests above cannot pass vacuously. */
    @Test
    void theChecksRejectBrokenConfigurations() throws IOException {
        JsonNode config = configurations().get(0);
        ObjectNode broken = config.deepCopy();
        ObjectNode webhook = (ObjectNode) broken.path("webhooks").get(0);
        webhook.put("timeoutSeconds", "seven");
        webhook.remove("name");
        webhook.with("clientConfig").put("url", "http://plain.example.com/x");
        Set<ValidationMessage> schemaErrors = schemaFor("theChecksRejectBrokenConfigurations", config.path("kind").asText()).validate(broken);
        String schemaText = schemaErrors.stream().map(ValidationMessage::getMessage).collect(Collectors.joining("; "));
        assertTrue(schemaText.contains("timeoutSeconds") && schemaText.contains("name"), schemaText);
        List<String> ruleErrors = RegistrationValidator.validateConfiguration(broken);
        assertTrue(ruleErrors.stream().anyMatch(e -> e.contains("https")), ruleErrors.toString());
        assertTrue(ruleErrors.stream().anyMatch(e -> e.contains(".name: required")), ruleErrors.toString());
    }

    /**
     * The runtime's default deadline (DeadlineConfig) is the one Terraform's default budget renders for every
     * function of the catalog, so a function run without Terraform (functions/all-in-one/README.md's run line, a
     * committed knative/*.yaml applied by hand) answers within the same deadline as one Terraform configured.
     */
    @Test
    void theRuntimesDefaultDeadlineIsTheDefaultBudgetsForEveryFunction() throws NoSuchMethodException {
        String declared = dev.tollgate.runtime.DeadlineConfig.class.getMethod("timeout")
                .getAnnotation(io.smallrye.config.WithDefault.class).value();
        long defaultMillis = java.time.Duration.parse("PT" + declared.toUpperCase(java.util.Locale.ROOT)).toMillis();
        for (Iterator<String> it = catalog.path("functions").fieldNames(); it.hasNext();) {
            String function = it.next();
            assertEquals(defaultMillis, outputs.path("timeouts").path("value").path(function)
                    .path("internal_deadline_ms").asLong(), function + ": Terraform's default budget against "
                    + "tollgate.deadline.timeout's default " + declared);
        }
    }

    /** Nothing declared is lost or changed, except what the module is meant to rebuild. */
    @Test
    void everyDeclaredEntryIsRenderedWithItsFields() {
        int declared = 0;
        for (Iterator<String> it = catalog.path("functions").fieldNames(); it.hasNext();) {
            String function = it.next();
            for (JsonNode entry : catalog.path("functions").path(function).path("webhooks")) {
                declared++;
                JsonNode want = entry.path("webhook");
                String kind = entry.path("type").asText().equals("mutating") ? "MutatingWebhookConfiguration"
                        : "ValidatingWebhookConfiguration";
                JsonNode got = find(kind, want.path("name").asText());
                String at = function + " " + want.path("name").asText();
                for (Iterator<String> f = want.fieldNames(); f.hasNext();) {
                    String field = f.next();
                    if (!REBUILT.contains(field)) {
                        assertEquals(want.get(field), got.get(field), at + "." + field + " must be carried unchanged");
                    }
                }
                assertEquals(want.path("failurePolicy").asText("Fail"), got.path("failurePolicy").asText(), at);
                assertEquals(outputs.path("timeouts").path("value").path(function).path("webhook_timeout_seconds"),
                        got.path("timeoutSeconds"), at + ".timeoutSeconds from the budget");
                assertEquals("https://" + function + ".functions.example.com/token-" + function + "-0123456789abcdef"
                        + entry.path("path").asText(), got.path("clientConfig").path("url").asText(), at + " URL");
                assertEquals(PEM, new String(Base64.getDecoder().decode(got.path("clientConfig").path("caBundle")
                        .asText()), StandardCharsets.UTF_8), at + " caBundle");
                assertPrefix(want.path("namespaceSelector").path("matchExpressions"),
                        got.path("namespaceSelector").path("matchExpressions"), at + ".namespaceSelector");
                assertPrefix(want.path("objectSelector").path("matchExpressions"),
                        got.path("objectSelector").path("matchExpressions"), at + ".objectSelector");
                assertPrefix(want.path("matchConditions"), got.path("matchConditions"), at + ".matchConditions");
                assertTrue(got.path("namespaceSelector").toString().contains("kube-system"), at + " excludes kube-system");
                assertTrue(got.path("objectSelector").toString().contains("tollgate.dev/skip"), at + " added selector");
                assertTrue(got.path("matchConditions").toString().contains("tollgate-test-not-dry-run"), at);
                for (String exception : List.of("legacy", "ci", "batch")) {
                    assertTrue(got.path("matchConditions").toString().contains("\"exception.tollgate.dev/" + exception
                            + "\""), at + " exception " + exception);
                }
                assertTrue(got.path("namespaceSelector").toString().contains(
                        "{\"key\":\"sandbox\",\"operator\":\"NotIn\",\"values\":[\"true\"]}"), at + " exception sandbox");
            }
        }
        int rendered = 0;
        for (JsonNode config : configurations()) {
            rendered += config.path("webhooks").size();
        }
        assertTrue(declared > 0, "the catalog is empty");
        assertEquals(declared, rendered, "one rendered webhook per declared entry");
    }

    @Test
    void yamlOutputsAreTheSameObjects() throws IOException {
        JsonNode manifests = outputs.path("manifests").path("value");
        for (String kind : List.of("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration")) {
            String yaml = outputs.path(kind.startsWith("Mutating") ? "mutating_yaml" : "validating_yaml").path("value")
                    .asText();
            if (manifests.has(kind)) {
                assertEquals(manifests.get(kind), YAML.readTree(yaml), kind + " YAML");
            } else {
                assertEquals("", yaml, kind + " absent: empty YAML");
            }
        }
        List<JsonNode> docs = new ArrayList<>();
        try (var it = YAML.readerFor(JsonNode.class).readValues(outputs.path("manifests_yaml").path("value").asText())) {
            while (it.hasNext()) {
                docs.add((JsonNode) it.next());
            }
        }
        assertEquals(configurations(), docs, "manifests_yaml holds every configuration, mutating first");
    }

    /** A Fail webhook that cannot outlast a cold start stops the plan, and the message gives the numbers. */
    @Test
    void aFailWebhookShorterThanTheBudgetIsAnErrorWithTheNumbers() throws IOException {
        String function = catalog.path("functions").fieldNames().next();
        Path harness = Terraform.target().resolve("terraform-work/too-short");
        Terraform.deleteTree(harness);
        Files.createDirectories(harness);
        Files.writeString(harness.resolve("main.tf"), """
                module "webhooks" {
                  source             = "%s"
                  catalog            = jsondecode(file("%s"))
                  kubernetes_version = "1.30"
                  default_url        = "https://functions.example.com"
                  functions   = ["%s"]
                  timing      = { cold_start_seconds = 4.5, evaluation_seconds = 1, network_seconds = 0.5 }
                  overrides   = { "%s" = { failure_policy = "Fail", timeout_seconds = 3 } }
                }
                """.formatted(Terraform.workTree().resolve("modules/webhook-configurations"),
                Terraform.workTree().resolve("catalog/catalog.json"), function, function));
        Terraform.runOk(harness, "init", "-input=false", "-no-color");
        Terraform.Result plan = Terraform.run(harness, "plan", "-input=false", "-no-color");
        assertFalse(plan.ok(), "the plan must fail:\n" + plan.output());
        String text = plan.flat();
        for (String part : List.of(function + ": failurePolicy Fail", "timeoutSeconds 3",
                "cold start 4.5s + evaluation 1s + network 0.5s", "timeoutSeconds >= 7")) {
            assertTrue(text.contains(part), "expected \"" + part + "\" in:\n" + plan.output());
        }
    }

    private static List<JsonNode> configurations() {
        List<JsonNode> out = new ArrayList<>();
        JsonNode manifests = outputs.path("manifests").path("value");
        for (String kind : List.of("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration")) {
            if (manifests.has(kind)) {
                out.add(manifests.get(kind));
            }
        }
        assertFalse(out.isEmpty(), "no configuration rendered: " + outputs);
        return out;
    }

    private static JsonNode find(String kind, String name) {
        JsonNode config = outputs.path("manifests").path("value").path(kind);
        for (JsonNode w : config.path("webhooks")) {
            if (w.path("name").asText().equals(name)) {
                return w;
            }
        }
        throw new AssertionError(name + " not rendered in the " + kind);
    }

    private static void assertPrefix(JsonNode declared, JsonNode rendered, String at) {
        if (declared.isMissingNode()) {
            return;
        }
        ArrayNode prefix = JSON.createArrayNode();
        for (int i = 0; i < declared.size() && i < rendered.size(); i++) {
            prefix.add(rendered.get(i));
        }
        assertEquals(declared, prefix, at + ": the declared items come first, unchanged");
    }

    private static JsonSchema schemaFor(String test, String kind) {
        Path file = ProjectRoot.fixtures().resolve(SCHEMA_FILE);
        Skip.unless(Files.isRegularFile(file), "RenderedConfigurationsTest." + test, () -> "fixture " + file
                + " is absent (the fixtures folder beside the checkout, ../shared/fixtures): the OpenAPI schema check "
                + "cannot run");
        // OpenAPI 3.0, plus the words of the Kubernetes document that mean nothing to validation: its own fields
        // (read while resolving the fragment) and the x-kubernetes-* extensions (list and map merge semantics, the
        // GVK). Declared, so that the validator does not warn about each as an unknown keyword.
        JsonMetaSchema openApi = JsonMetaSchema.builder(OpenApi30.getInstance())
                .keywords(Stream.of("openapi", "info", "paths", "components", "x-kubernetes-group-version-kind",
                        "x-kubernetes-list-map-keys", "x-kubernetes-list-type", "x-kubernetes-map-type",
                        "x-kubernetes-patch-merge-key", "x-kubernetes-patch-strategy")
                        .map(NonValidationKeyword::new).toList())
                .build();
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4,
                builder -> builder.metaSchema(openApi).defaultMetaSchemaIri(openApi.getIri()));
        JsonSchema schema = factory.getSchema(SchemaLocation.of(file.toUri()
                + "#/components/schemas/io.k8s.api.admissionregistration.v1." + kind));
        assertNotNull(schema);
        return schema;
    }
}
