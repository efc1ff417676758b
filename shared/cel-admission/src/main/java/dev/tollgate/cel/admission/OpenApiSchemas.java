package dev.tollgate.cel.admission;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.GroupVersionKind;

/**
 * A {@link SchemaResolver} over schema documents: CustomResourceDefinitions ({@code apiextensions.k8s.io/v1}: each
 * served version's {@code schema.openAPIV3Schema}, resource {@code spec.names.plural}) and Kubernetes OpenAPI v3
 * documents ({@code /openapi/v3/apis/<group>/<version>}: {@code components.schemas} with
 * {@code x-kubernetes-group-version-kind}, their {@code $ref}s resolved within the document; the resource names of
 * such kinds are given with {@link #resource}, as an OpenAPI document does not say them). A CRD's kinds get the
 * metadata the API server publishes for them ({@link #withObjectMeta}).
 */
public final class OpenApiSchemas implements SchemaResolver {

    private final Map<GroupVersionKind, Schema> schemas = new LinkedHashMap<>();
    private final Map<String, List<GroupVersionKind>> resources = new LinkedHashMap<>();

    /** Adds every CustomResourceDefinition and OpenAPI document among {@code documents}; others are ignored. */
    public OpenApiSchemas add(List<ConfigFiles.Document> documents) {
        for (ConfigFiles.Document d : documents) {
            add(d.object());
        }
        return this;
    }

    /** Adds a CustomResourceDefinition or an OpenAPI v3 document (anything else is ignored). */
    public OpenApiSchemas add(JsonNode doc) {
        if ("CustomResourceDefinition".equals(doc.path("kind").asText())
                && doc.path("apiVersion").asText().startsWith("apiextensions.k8s.io/")) {
            addCrd(doc);
        } else if (doc.has("openapi") && doc.path("components").path("schemas").isObject()) {
            addOpenApi(doc);
        }
        return this;
    }

    /** Declares that {@code group/version/resource} is served as {@code gvk} (the RESTMapper's knowledge). */
    public OpenApiSchemas resource(String resource, GroupVersionKind gvk) {
        resources.computeIfAbsent(key(gvk.group(), gvk.version(), resource), k -> new ArrayList<>()).add(gvk);
        return this;
    }

    private void addCrd(JsonNode crd) {
        JsonNode spec = crd.path("spec");
        String group = spec.path("group").asText();
        String kind = spec.path("names").path("kind").asText();
        String plural = spec.path("names").path("plural").asText();
        for (JsonNode v : spec.path("versions")) {
            if (!v.path("served").asBoolean(true)) {
                continue;
            }
            GroupVersionKind gvk = GroupVersionKind.of(group, v.path("name").asText(), kind);
            JsonNode schema = v.path("schema").path("openAPIV3Schema");
            if (schema.isObject()) {
                schemas.put(gvk, new Schema(withObjectMeta((ObjectNode) schema), null));
            }
            resource(plural, gvk);
        }
    }

    private void addOpenApi(JsonNode doc) {
        JsonNode components = doc.path("components").path("schemas");
        java.util.function.Function<String, JsonNode> refs = ref -> {
            String prefix = "#/components/schemas/";
            return ref.startsWith(prefix) ? components.get(ref.substring(prefix.length())) : null;
        };
        Iterator<Map.Entry<String, JsonNode>> it = components.fields();
        while (it.hasNext()) {
            JsonNode s = it.next().getValue();
            for (JsonNode g : s.path("x-kubernetes-group-version-kind")) {
                schemas.put(GroupVersionKind.of(g.path("group").asText(), g.path("version").asText(),
                        g.path("kind").asText()), new Schema(s, refs));
            }
        }
    }

    /**
     * A CRD's schema as the API server publishes it: apiVersion, kind and the full ObjectMeta as metadata
     * (apiextensions-apiserver/pkg/controller/openapi/builder/builder.go adds them; the CRD itself describes at most
     * metadata.name and generateName). ObjectMeta's fields and types: k8s.io/apimachinery/pkg/apis/meta/v1/types.go.
     */
    static JsonNode withObjectMeta(ObjectNode crdSchema) {
        ObjectNode s = crdSchema.deepCopy();
        ObjectNode props = s.has("properties") && s.get("properties").isObject() ? (ObjectNode) s.get("properties")
                : s.putObject("properties");
        props.set("apiVersion", JSON.objectNode().put("type", "string"));
        props.set("kind", JSON.objectNode().put("type", "string"));
        props.set("metadata", OBJECT_META);
        return s;
    }

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final ObjectNode OBJECT_META = objectMeta();

    private static ObjectNode objectMeta() {
        ObjectNode strings = JSON.objectNode().put("type", "array");
        strings.putObject("items").put("type", "string");
        ObjectNode stringMap = JSON.objectNode().put("type", "object");
        stringMap.putObject("additionalProperties").put("type", "string");
        ObjectNode owner = object(Map.of("apiVersion", type("string"), "kind", type("string"), "name", type("string"),
                "uid", type("string"), "controller", type("boolean"), "blockOwnerDeletion", type("boolean")));
        ObjectNode managed = object(Map.of("manager", type("string"), "operation", type("string"),
                "apiVersion", type("string"), "time", dateTime(), "fieldsType", type("string"),
                "fieldsV1", type("object"), "subresource", type("string")));
        Map<String, JsonNode> fields = new LinkedHashMap<>();
        fields.put("name", type("string"));
        fields.put("generateName", type("string"));
        fields.put("namespace", type("string"));
        fields.put("selfLink", type("string"));
        fields.put("uid", type("string"));
        fields.put("resourceVersion", type("string"));
        fields.put("generation", type("integer"));
        fields.put("creationTimestamp", dateTime());
        fields.put("deletionTimestamp", dateTime());
        fields.put("deletionGracePeriodSeconds", type("integer"));
        fields.put("labels", stringMap);
        fields.put("annotations", stringMap.deepCopy());
        fields.put("ownerReferences", array(owner));
        fields.put("finalizers", strings);
        fields.put("managedFields", array(managed));
        return object(fields);
    }

    private static ObjectNode type(String type) {
        return JSON.objectNode().put("type", type);
    }

    private static ObjectNode dateTime() {
        return type("string").put("format", "date-time");
    }

    private static ObjectNode array(JsonNode items) {
        ObjectNode a = type("array");
        a.set("items", items);
        return a;
    }

    private static ObjectNode object(Map<String, ? extends JsonNode> fields) {
        ObjectNode o = type("object");
        ObjectNode props = o.putObject("properties");
        fields.forEach(props::set);
        return o;
    }

    @Override
    public List<GroupVersionKind> kindsFor(String group, String version, String resource) {
        return resources.getOrDefault(key(group, version, resource), List.of());
    }

    @Override
    public Optional<Schema> schema(GroupVersionKind gvk) {
        return Optional.ofNullable(schemas.get(gvk));
    }

    private static String key(String group, String version, String resource) {
        return group + "/" + version + "/" + resource;
    }
}
