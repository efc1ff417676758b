package dev.tollgate.terraform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.registration.RegistrationValidator;
import dev.tollgate.simulator.ServedPolicies;

/**
 * What webhook-configurations registers from {@code policy_rules} is the registration the Java derivation gives
 * (shared/gatekeeper RegistrationRules, as {@code tollgate registration} writes it): cel-policy's webhook rendered from
 * the JSON of functions/cel-policy/examples, of the gatekeeper-library's general/ sample constraints (when the fixture
 * is there) and of a constraint by namespace names, on 1.30 and 1.20, and each configuration passes the API server's
 * rules.
 */
class PolicyRulesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Input name => the JSON the derivation wrote for it. */
    private static final Map<String, ObjectNode> DERIVED = new LinkedHashMap<>();
    private static JsonNode outputs;

    @BeforeAll
    static void render() throws IOException {
        Path root = ProjectRoot.get();
        Path tree = Terraform.workTree(); // first: it makes target/terraform-work afresh
        Path harness = Terraform.target().resolve("terraform-work/policy-rules");
        Terraform.deleteTree(harness);
        Files.createDirectories(harness);
        DERIVED.put("examples", derive(List.of(root.resolve("functions/cel-policy/examples"))));
        Path general = ProjectRoot.fixtures().resolve("gatekeeper-library/library/general");
        if (Files.isDirectory(general)) {
            List<Path> constraints;
            try (Stream<Path> files = Files.walk(general)) {
                constraints = files.filter(p -> p.getFileName().toString().equals("constraint.yaml")).sorted().toList();
            }
            DERIVED.put("library", derive(constraints));
        } else {
            System.out.println("SKIPPED PolicyRulesTest library: fixture " + general + " is absent");
        }
        Path names = Files.writeString(harness.resolve("names.yaml"), """
                apiVersion: constraints.gatekeeper.sh/v1beta1
                kind: K8sRequiredLabels
                metadata: {name: shop-pods}
                spec:
                  match:
                    kinds: [{apiGroups: [""], kinds: [Pod]}]
                    namespaces: [shop, web]
                    labelSelector: {matchExpressions: [{key: tier, operator: Exists}]}
                """);
        DERIVED.put("names", derive(List.of(names)));
        StringBuilder tf = new StringBuilder("""
                locals {
                  catalog = jsondecode(file("%s"))
                }
                """.formatted(tree.resolve("catalog/catalog.json")));
        for (var d : DERIVED.entrySet()) {
            Path file = harness.resolve(d.getKey() + ".json");
            Files.writeString(file, JSON.writeValueAsString(d.getValue()));
            for (String version : List.of("1.30", "1.20")) {
                String name = d.getKey() + "_" + version.replace('.', '_');
                tf.append("""

                        module "%1$s" {
                          source              = "%2$s"
                          catalog             = local.catalog
                          kubernetes_version  = "%3$s"
                          functions           = ["cel-policy"]
                          function_urls       = { "cel-policy" = "https://cel-policy.example.com" }
                          excluded_namespaces = []
                          functions_namespace = null
                          policy_rules        = { "cel-policy" = jsondecode(file("%4$s")) }
                        }

                        output "%1$s" {
                          value     = module.%1$s.validating_configuration
                          sensitive = true
                        }
                        output "%1$s_summary" {
                          value = module.%1$s.policy_rules
                        }
                        """.formatted(name, tree.resolve("modules/webhook-configurations"), version,
                        file));
            }
        }
        Files.writeString(harness.resolve("main.tf"), tf.toString());
        Terraform.runOk(harness, "init", "-input=false", "-no-color");
        Terraform.runOk(harness, "apply", "-auto-approve", "-input=false", "-no-color");
        outputs = JSON.readTree(Terraform.runOk(harness, "output", "-json", "-no-color").stdout());
    }

    private static ObjectNode derive(List<Path> paths) {
        return ServedPolicies.registration(paths, ServedPolicies.GATEKEEPER_OPERATIONS, "PolicyRulesTest");
    }

    private static JsonNode webhook(String output) {
        JsonNode config = outputs.path(output).path("value");
        assertEquals(List.of(), RegistrationValidator.validateConfiguration(config), output);
        assertEquals(1, config.path("webhooks").size(), output);
        return config.path("webhooks").get(0);
    }

    @Test
    void theRenderedRulesAndSelectorsAreTheDerivedOnes() {
        List<String> compared = new ArrayList<>();
        for (var d : DERIVED.entrySet()) {
            JsonNode w = webhook(d.getKey() + "_1_30");
            assertEquals("cel-policy.tollgate.dev", w.path("name").asText());
            assertEquals(d.getValue().path("rules"), w.path("rules"), d.getKey());
            assertEquals(d.getValue().path("namespaceSelector"), w.path("namespaceSelector"), d.getKey());
            assertEquals(d.getValue().path("objectSelector"), w.path("objectSelector"), d.getKey());
            assertEquals(d.getValue().path("policies"), outputs.path(d.getKey() + "_1_30_summary").path("value")
                    .path("cel-policy").path("policies"), d.getKey());
            compared.add(d.getKey());
        }
        JsonNode examples = DERIVED.get("examples").path("rules");
        assertTrue(examples.toString().contains("\"pods\"") && examples.toString().contains("\"deployments\""),
                examples.toString());
        assertTrue(DERIVED.get("names").has("namespaceSelector"), "the names case has a selector to compare");
        System.out.println("PolicyRulesTest: compared " + compared);
    }

    @Test
    void onKubernetes120TheNameRequirementsAreLeftToTheFunction() {
        JsonNode w = webhook("names_1_20");
        assertEquals(DERIVED.get("names").path("rules"), w.path("rules"));
        assertFalse(w.toString().contains("kubernetes.io/metadata.name"), w.toString());
        assertEquals(DERIVED.get("names").path("objectSelector"), w.path("objectSelector"));
        assertEquals("[\"namespaceSelector kubernetes.io/metadata.name In [shop, web] (needs Kubernetes 1.21)\"]",
                outputs.path("names_1_20_summary").path("value").path("cel-policy").path("applied_by_function")
                        .toString());
    }
}
