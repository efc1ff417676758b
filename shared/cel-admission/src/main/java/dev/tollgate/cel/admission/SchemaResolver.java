package dev.tollgate.cel.admission;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.admission.GroupVersionKind;

/**
 * Where the type checker finds the kinds a policy matches and their schemas: the API server's RESTMapper and
 * SchemaResolver (k8s.io/apiserver/pkg/cel/openapi/resolver) for {@link PolicyTypeChecker}.
 */
public interface SchemaResolver {

    /** An OpenAPI v3 schema and how to follow its {@code $ref}s (null when it has none). */
    record Schema(JsonNode node, Function<String, JsonNode> refs) {
    }

    /** The kinds a resource of a group/version is served as (RESTMapper.KindsFor); empty when unknown. */
    List<GroupVersionKind> kindsFor(String group, String version, String resource);

    /** The schema of a kind (ResolveSchema); empty when unknown (that kind is then not checked, as upstream). */
    Optional<Schema> schema(GroupVersionKind gvk);

    /** The first resolver's answer, else the second's. */
    default SchemaResolver orElse(SchemaResolver other) {
        SchemaResolver first = this;
        return new SchemaResolver() {
            @Override
            public List<GroupVersionKind> kindsFor(String group, String version, String resource) {
                List<GroupVersionKind> k = first.kindsFor(group, version, resource);
                return k.isEmpty() ? other.kindsFor(group, version, resource) : k;
            }

            @Override
            public Optional<Schema> schema(GroupVersionKind gvk) {
                Optional<Schema> s = first.schema(gvk);
                return s.isPresent() ? s : other.schema(gvk);
            }
        };
    }
}
