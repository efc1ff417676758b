package dev.tollgate.knative.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestMethodOrder;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import dev.tollgate.knative.ServiceManifest;

/**
 * The functions that read namespaces from the Kubernetes API run as their own ServiceAccount with get on namespaces
 * and nothing more (knative/rbac/<name>.yaml); every other function runs as the namespace's default account.
 */
@Order(2)
// In refresh mode the generation runs first, so the checks after it read the refreshed files.
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RbacManifestsTest {

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static Map<String, JsonNode> byKind(Path file) throws IOException {
        Map<String, JsonNode> out = new java.util.LinkedHashMap<>();
        try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
            while (docs.hasNext()) {
                JsonNode d = docs.next();
                if (d != null && !d.isNull() && !d.isEmpty()) {
                    assertTrue(out.put(d.path("kind").asText(), d) == null, file + ": one " + d.path("kind"));
                }
            }
        }
        return out;
    }

    @Test
    void theCelFunctionsAndTheirBundleReadNamespaces() {
        List<String> readers = Project.functions().stream().filter(Project.FunctionModule::readsNamespaces)
                .map(Project.FunctionModule::name).toList();
        assertEquals(List.of("all-in-one", "cel-mutate", "cel-policy"), readers);
    }

    @TestFactory
    @Order(1)
    Stream<DynamicTest> rbacIsGeneratedForEveryFunctionThatReadsNamespaces() {
        return Project.functions().stream().filter(Project.FunctionModule::readsNamespaces).map(f ->
                dynamicTest(f.name(), () -> Project.golden(f.rbac(), Rbac.of(f), "the RBAC of " + f.name())));
    }

    @Test
    @Order(2)
    void noRbacForFunctionsThatDoNotNeedIt() throws IOException {
        Path dir = Project.knativeDir().resolve("rbac");
        List<String> expected = Project.functions().stream().filter(Project.FunctionModule::readsNamespaces)
                .map(f -> f.name() + ".yaml").sorted().toList();
        List<String> present = new ArrayList<>();
        if (Files.isDirectory(dir)) {
            try (var files = Files.list(dir)) {
                files.map(p -> p.getFileName().toString()).sorted().forEach(present::add);
            }
        }
        assertEquals(expected, present, dir + " holds RBAC for functions that do not read namespaces; delete it");
    }

    @TestFactory
    @Order(3)
    Stream<DynamicTest> getOnNamespacesOnlyBoundToTheServiceAccountTheServiceRunsAs() {
        return Project.functions().stream().map(f -> dynamicTest(f.name(), () -> {
            ServiceManifest service = ServiceManifest.read(f.committedManifest());
            JsonNode account = service.tree().path("spec").path("template").path("spec").path("serviceAccountName");
            if (!f.readsNamespaces()) {
                assertTrue(account.isMissingNode(), f.name() + " needs no API access: no ServiceAccount of its own");
                return;
            }
            assertEquals(f.serviceAccount(), account.asText(), f.committedManifest() + " serviceAccountName");
            Map<String, JsonNode> rbac = byKind(f.rbac());
            assertEquals(List.of("ServiceAccount", "ClusterRole", "ClusterRoleBinding"), List.copyOf(rbac.keySet()));
            JsonNode sa = rbac.get("ServiceAccount");
            assertEquals(f.serviceAccount(), sa.path("metadata").path("name").asText());
            assertEquals(YAML.readTree("[{apiGroups: [''], resources: [namespaces], verbs: [get]}]"),
                    rbac.get("ClusterRole").path("rules"), "get on namespaces, nothing else");
            JsonNode binding = rbac.get("ClusterRoleBinding");
            assertEquals(rbac.get("ClusterRole").path("metadata").path("name"), binding.path("roleRef").path("name"));
            assertEquals("ClusterRole", binding.path("roleRef").path("kind").asText());
            assertEquals(1, binding.path("subjects").size());
            JsonNode subject = binding.path("subjects").get(0);
            assertEquals("ServiceAccount", subject.path("kind").asText());
            assertEquals(sa.path("metadata").path("name"), subject.path("name"));
            assertEquals(sa.path("metadata").path("namespace"), subject.path("namespace"));
            assertFalse(Files.readString(f.rbac()).contains("\"*\""), "no wildcards");
        }));
    }
}
