package dev.tollgate.cel.admission;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.tollgate.admission.GroupVersionKind;

/**
 * The schemas of the built-in Kubernetes kinds for type checking, as the API server resolves the kinds a policy
 * matches from its own OpenAPI definitions (k8s.io/apiserver/pkg/cel/openapi/resolver: {@code
 * DefinitionsSchemaResolver} for the built-in types, combined with {@code ClientDiscoveryResolver} for CRDs, as
 * kube-apiserver wires them for admission/plugin/policy/validating/typechecking.go). One OpenAPI v3 document
 * ({@link #RESOURCE}, gzipped), written at build time by {@link KubernetesSchemasGenerator} from fabric8's models and
 * read here with {@link OpenApiSchemas#add(JsonNode)}: no reflection at run time, so it works the same in a native
 * executable (which must include the resource: {@code quarkus.native.resources.includes}). The simulator and the CEL
 * functions both use it.
 */
public final class KubernetesSchemas {

    /** The class path resource of the document. */
    public static final String RESOURCE = "dev/tollgate/cel/admission/kubernetes-schemas.json.gz";

    private KubernetesSchemas() {
    }

    private static final class Holder {
        static final SchemaResolver BUILT_IN = load();
    }

    private static final class ResourcesHolder {
        static final List<BuiltInResource> RESOURCES = resources(document());
    }

    /** A built-in kind's resource (plural) name and scope, as the API server's discovery gives them. */
    public record BuiltInResource(GroupVersionKind gvk, String resource, boolean namespaced) {
    }

    /** The built-in kinds' schemas and resources, read once. */
    public static SchemaResolver builtIn() {
        return Holder.BUILT_IN;
    }

    /**
     * The resolver for a set of configuration documents: the CustomResourceDefinitions and OpenAPI documents among
     * them first (a CRD given wins for its kind), then the built-in kinds, read when a kind is first looked up (a
     * start whose policies were all checked when the function was built looks none up).
     */
    public static SchemaResolver with(List<ConfigFiles.Document> documents) {
        return new OpenApiSchemas().add(documents).orElse(BUILT_IN_ON_FIRST_USE);
    }

    private static final SchemaResolver BUILT_IN_ON_FIRST_USE = new SchemaResolver() {
        @Override
        public List<GroupVersionKind> kindsFor(String group, String version, String resource) {
            return builtIn().kindsFor(group, version, resource);
        }

        @Override
        public Optional<Schema> schema(GroupVersionKind gvk) {
            return builtIn().schema(gvk);
        }
    };

    /** Every built-in kind with its resource and scope (the document's {@code x-tollgate-resources}), read once. */
    public static List<BuiltInResource> builtInResources() {
        return ResourcesHolder.RESOURCES;
    }

    private static List<BuiltInResource> resources(JsonNode doc) {
        List<BuiltInResource> out = new ArrayList<>();
        for (JsonNode r : doc.path("x-tollgate-resources")) {
            out.add(new BuiltInResource(GroupVersionKind.of(r.path("group").asText(), r.path("version").asText(),
                    r.path("kind").asText()), r.path("resource").asText(), r.path("namespaced").asBoolean()));
        }
        return List.copyOf(out);
    }

    private static SchemaResolver load() {
        JsonNode doc = document();
        OpenApiSchemas schemas = new OpenApiSchemas().add(doc);
        for (BuiltInResource r : resources(doc)) {
            schemas.resource(r.resource(), r.gvk());
        }
        return schemas;
    }

    private static JsonNode document() {
        try (InputStream in = KubernetesSchemas.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the class path has no " + RESOURCE
                        + " (written by cel-admission's build; a native executable must include it)");
            }
            return new ObjectMapper().readTree(new GZIPInputStream(in));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }
}
