package dev.tollgate.terraform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.tollgate.knative.Deployer;
import dev.tollgate.knative.ServiceManifest;

/**
 * Three paths write a function's Knative Service: knative/&lt;name&gt;.yaml (the committed manifest), the Knative
 * deployer (first deploy, new images) and the Knative example's Terraform (cluster.tf, or knative_manifests_yaml with
 * kubectl). The deployer applies the committed manifest with its namespace and image; Terraform's Service must be that
 * same object, differing only in the fields Terraform owns (the budget's request timeout and deadline, the callers'
 * token files, the clusters' connections, enforcement modes, exceptions), so whichever ran last, the Service is the
 * same. Compared here for every Service the example renders with the whole catalog registered.
 */
class KnativeServiceOwnersTest {

    private static final ObjectMapper YAML = new YAMLMapper();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String REGISTRY = "registry.example.com/platform";
    private static final String TAG = "1.0.0";

    /** What Terraform writes into a Service and the deployer does not (terraform/examples/knative-external-cluster). */
    private static final Set<String> TERRAFORM_ENV = Set.of("TOLLGATE_DEADLINE_TIMEOUT", "TOLLGATE_CLUSTERS_DIR",
            "TOLLGATE_AUTH_PATH_TOKEN_FILES", "TOLLGATE_AUTH_CLUSTERS_DIR", "TOLLGATE_ENFORCEMENT_MODE",
            "TOLLGATE_ENFORCEMENT_CLUSTER_MODES", "TOLLGATE_EXCEPTIONS_FILE");
    private static final Set<String> TERRAFORM_VOLUMES = Set.of("tollgate-auth", "tollgate-callers",
            "tollgate-clusters", "tollgate-exceptions");
    private static final Set<String> TERRAFORM_ANNOTATIONS = Set.of("tollgate.dev/callers",
            "tollgate.dev/exceptions-sha256");

    @Test
    void terraformAppliesTheDeployersServiceWithOnlyItsOwnFieldsAdded() throws IOException {
        Path example = Terraform.folders("examples").stream()
                .filter(d -> d.getFileName().toString().equals("knative-external-cluster")).findFirst().orElseThrow();
        Path knative = ProjectRoot.get().resolve("knative");
        JsonNode catalog = JSON.readTree(ProjectRoot.get().resolve("terraform/catalog/catalog.json").toFile());

        // The whole catalog registered: require-labels and always-pull-images by their own URLs (the tfvars
        // example), every other function through the bundle (default_url).
        Map<String, Map<String, String>> tokens = new TreeMap<>();
        Map<String, String> east = new TreeMap<>();
        catalog.path("functions").fieldNames().forEachRemaining(f -> east.put(f, "east-" + f + "-0123456789ab"));
        catalog.path("conversions").forEach(c -> east.put(c.path("function").asText(),
                "east-" + c.path("function").asText() + "-0123456789ab"));
        tokens.put("east", east);
        Map<String, String> images = new TreeMap<>();
        for (String service : List.of("require-labels", "always-pull-images", "all-in-one")) {
            images.put(service, Deployer.deployedImage(ServiceManifest.read(knative.resolve(service + ".yaml")),
                    REGISTRY, TAG));
        }

        Path copy = ValidateTest.withoutClusterPart(example);
        Terraform.runOk(copy, "init", "-backend=false", "-input=false", "-no-color");
        String[] vars = {"-var-file=" + example.resolve("terraform.tfvars.example"),
            "-var=path_tokens=" + JSON.writeValueAsString(tokens), "-var=images=" + JSON.writeValueAsString(images),
            "-var=default_url=https://all-in-one.tollgate.functions.example.com", "-var=functions=null"};
        Terraform.runOk(copy, concat(new String[] {"apply", "-auto-approve", "-input=false", "-no-color",
            "-state=" + copy.resolve("owners.tfstate")}, vars));
        String yaml = Terraform.runOk(copy, "output", "-no-color", "-state=" + copy.resolve("owners.tfstate"), "-raw",
                "knative_manifests_yaml").stdout();

        Map<String, ObjectNode> byTerraform = new LinkedHashMap<>();
        for (JsonNode doc : YAML.readValues(new YAMLFactory().createParser(yaml), JsonNode.class).readAll()) {
            if (doc.path("kind").asText().equals("Service")) {
                byTerraform.put(doc.path("metadata").path("name").asText(), (ObjectNode) doc);
            }
        }
        assertEquals(images.keySet(), new java.util.TreeSet<>(byTerraform.keySet()), "the Services Terraform renders");
        for (Map.Entry<String, ObjectNode> e : byTerraform.entrySet()) {
            ObjectNode deployer = Deployer.applied(ServiceManifest.read(knative.resolve(e.getKey() + ".yaml")),
                    "tollgate", REGISTRY, TAG);
            ObjectNode terraform = e.getValue();
            assertFalse(terraform.equals(deployer), "Terraform adds its own fields to " + e.getKey());
            assertEquals(YAML.writeValueAsString(withoutTerraformFields(canonical(deployer))),
                    YAML.writeValueAsString(withoutTerraformFields(canonical(terraform))),
                    e.getKey() + ": the deployer's Service and Terraform's, less what Terraform owns");
        }
    }

    /** Numbers and key order as one mapper reads them, so YAML's and HCL's encodings compare. */
    private static ObjectNode canonical(JsonNode node) throws IOException {
        return (ObjectNode) JSON.readTree(JSON.writeValueAsString(sorted(node)));
    }

    private static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            ObjectNode out = JSON.createObjectNode();
            List<String> keys = new java.util.ArrayList<>();
            node.fieldNames().forEachRemaining(keys::add);
            keys.sort(null);
            keys.forEach(k -> out.set(k, sorted(node.get(k))));
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = JSON.createArrayNode();
            node.forEach(v -> out.add(sorted(v)));
            return out;
        }
        return node;
    }

    private static ObjectNode withoutTerraformFields(ObjectNode service) {
        ObjectNode template = (ObjectNode) service.path("spec").path("template");
        ObjectNode spec = (ObjectNode) template.path("spec");
        spec.remove("timeoutSeconds");
        if (template.path("metadata").path("annotations") instanceof ObjectNode annotations) {
            annotations.remove(TERRAFORM_ANNOTATIONS);
            if (annotations.isEmpty()) { // Terraform's merge leaves an empty map where it added none
                ((ObjectNode) template.path("metadata")).remove("annotations");
            }
        }
        if (template.path("metadata").isEmpty()) {
            template.remove("metadata");
        }
        removeNamed(spec.path("volumes"), TERRAFORM_VOLUMES);
        for (JsonNode container : spec.path("containers")) {
            removeNamed(container.path("env"), TERRAFORM_ENV);
            removeNamed(container.path("volumeMounts"), TERRAFORM_VOLUMES);
        }
        return service;
    }

    private static void removeNamed(JsonNode list, Set<String> names) {
        for (Iterator<JsonNode> it = list.iterator(); it.hasNext();) {
            if (names.contains(it.next().path("name").asText())) {
                it.remove();
            }
        }
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
