package dev.tollgate.cel;

import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;

/**
 * The CEL type of an OpenAPI v3 schema, as the API server declares {@code object}, {@code oldObject} and
 * {@code params} when it type-checks a policy (Kubernetes staging/src/k8s.io/apiserver/pkg/cel/common/schemas.go
 * {@code SchemaDeclType}, with {@code isResourceRoot} true as admission/plugin/policy/validating/typechecking.go calls
 * it, and pkg/cel/types.go {@code MaybeAssignTypeName} for the names of object types):
 *
 * <ul>
 * <li>{@code x-kubernetes-int-or-string} is {@code dyn}; {@code array} a list of its items' type; {@code object} with
 * {@code additionalProperties} a {@code map(string, T)}, otherwise an object type with exactly its properties
 * (unknown fields of {@code x-kubernetes-preserve-unknown-fields} objects are not exposed);</li>
 * <li>{@code string} is {@code string}, or {@code bytes} (format byte), {@code google.protobuf.Duration} (duration),
 * {@code google.protobuf.Timestamp} (date, date-time); {@code boolean}, {@code number}, {@code integer} are
 * {@code bool}, {@code double}, {@code int};</li>
 * <li>a schema without a type, or whose items/values have none, is not exposed (its field is not declared);</li>
 * <li>the root of a resource (and of an {@code x-kubernetes-embedded-resource}) always has {@code apiVersion},
 * {@code kind}, {@code metadata.name} and {@code metadata.generateName} (WithTypeAndObjectMeta).</li>
 * </ul>
 *
 * <p>Object types are named from the root ({@code Deployment}, {@code Deployment.spec},
 * {@code Deployment.spec.template.spec.containers.@idx}, {@code ....labels.@elem}); upstream appends the current
 * nanosecond to the root's name to make it unique, which only shows in messages that print a type. {@code $ref}
 * (OpenAPI documents, {@code #/components/schemas/...}) and a single-element {@code allOf} are followed; a schema that
 * refers to itself again below is {@code dyn} there.
 */
public final class SchemaTypes {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Function<String, JsonNode> refs;
    private final Set<String> resolving = new HashSet<>();

    private SchemaTypes(Function<String, JsonNode> refs) {
        this.refs = refs;
    }

    /**
     * The type of a resource's schema ({@code typeName} names the root object type, e.g. the kind), or {@code dyn}
     * when the schema exposes nothing.
     *
     * @param refs resolves a {@code $ref} value to its schema (null when unknown: the field is then {@code dyn})
     */
    public static CelType ofResource(JsonNode schema, String typeName, Function<String, JsonNode> refs) {
        CelType t = new SchemaTypes(refs == null ? r -> null : refs).declType(schema, true, typeName);
        return t == null ? SimpleType.DYN : t;
    }

    private JsonNode resolve(JsonNode s) {
        JsonNode current = s;
        for (int i = 0; i < 32 && current != null; i++) {
            if (current.has("$ref")) {
                current = refs.apply(current.get("$ref").asText());
            } else if (!current.has("type") && current.path("allOf").size() == 1) {
                current = current.get("allOf").get(0);
            } else {
                return current;
            }
        }
        return current;
    }

    private CelType declType(JsonNode raw, boolean resourceRoot, String name) {
        String ref = raw == null ? null : raw.path("$ref").asText(raw.path("allOf").path(0).path("$ref").asText(null));
        if (ref != null && !resolving.add(ref)) {
            return SimpleType.DYN;   // a recursive schema (e.g. JSONSchemaProps)
        }
        try {
            JsonNode s = resolve(raw);
            if (s == null || s.isMissingNode() || s.isNull()) {
                return null;
            }
            if (s.path("x-kubernetes-int-or-string").asBoolean(false)) {
                return SimpleType.DYN;
            }
            if (resourceRoot) {
                s = withTypeAndObjectMeta(s);
            }
            switch (s.path("type").asText("")) {
                case "array": {
                    if (!s.has("items")) {
                        return null;
                    }
                    CelType items = declType(s.get("items"), embedded(s.get("items")), name + ".@idx");
                    return items == null ? null : ListType.create(items);
                }
                case "object": {
                    JsonNode additional = s.get("additionalProperties");
                    if (additional != null && additional.isObject()) {
                        CelType values = declType(additional, embedded(additional), name + ".@elem");
                        return values == null ? null : MapType.create(SimpleType.STRING, values);
                    }
                    Map<String, CelType> fields = new LinkedHashMap<>();
                    Iterator<Map.Entry<String, JsonNode>> props = s.path("properties").fields();
                    while (props.hasNext()) {
                        Map.Entry<String, JsonNode> p = props.next();
                        CelType t = declType(p.getValue(), embedded(p.getValue()), name + "." + p.getKey());
                        if (t != null) {
                            fields.put(p.getKey(), t);
                        }
                    }
                    return DeclaredTypes.objectType(name, fields);
                }
                case "string":
                    return switch (s.path("format").asText("")) {
                        case "byte" -> SimpleType.BYTES;
                        case "duration" -> SimpleType.DURATION;
                        case "date", "date-time" -> SimpleType.TIMESTAMP;
                        default -> SimpleType.STRING;
                    };
                case "boolean":
                    return SimpleType.BOOL;
                case "number":
                    return SimpleType.DOUBLE;
                case "integer":
                    return SimpleType.INT;
                default:
                    return null;
            }
        } finally {
            if (ref != null) {
                resolving.remove(ref);
            }
        }
    }

    private boolean embedded(JsonNode s) {
        JsonNode r = resolve(s);
        return r != null && r.path("x-kubernetes-embedded-resource").asBoolean(false);
    }

    /** schemas.go WithTypeAndObjectMeta: kind, apiVersion, metadata.name, metadata.generateName always declared. */
    private JsonNode withTypeAndObjectMeta(JsonNode s) {
        JsonNode props = s.path("properties");
        JsonNode metadata = props.has("metadata") ? resolve(props.get("metadata")) : null;
        if (isType(props.get("kind"), "string") && isType(props.get("apiVersion"), "string")
                && metadata != null && isType(metadata, "object")
                && isType(metadata.path("properties").get("name"), "string")
                && isType(metadata.path("properties").get("generateName"), "string")) {
            return s;
        }
        ObjectNode copy = s.deepCopy();
        ObjectNode newProps = copy.has("properties") && copy.get("properties").isObject()
                ? (ObjectNode) copy.get("properties") : copy.putObject("properties");
        newProps.set("kind", JSON.objectNode().put("type", "string"));
        newProps.set("apiVersion", JSON.objectNode().put("type", "string"));
        ObjectNode meta = JSON.objectNode().put("type", "object");
        meta.putObject("properties").<ObjectNode>set("name", JSON.objectNode().put("type", "string"))
                .set("generateName", JSON.objectNode().put("type", "string"));
        newProps.set("metadata", meta);
        return copy;
    }

    private boolean isType(JsonNode s, String type) {
        JsonNode r = s == null ? null : resolve(s);
        return r != null && type.equals(r.path("type").asText());
    }
}
