package dev.tollgate.simulator;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.GroupVersionKind;
import dev.tollgate.cel.admission.KubernetesModels;

/**
 * The built-in Kubernetes kinds and their fields, for the API server's strict field validation. The field lists are
 * the fabric8 kubernetes-model classes as shared/cel-admission's {@link KubernetesModels} reads them (the same walk
 * gives the type checker's schemas of these kinds), which fabric8 generates from the upstream Kubernetes OpenAPI
 * documents (kubernetes/kubernetes api/openapi-spec); {@code BuiltInSchemasTest} compares them with the upstream
 * admissionregistration.k8s.io/v1 document in the shared fixtures.
 *
 * <p>As upstream (k8s.io/apiserver handlers with {@code fieldValidation=Warn}, the default since 1.27; the messages
 * come from sigs.k8s.io/json's strict decoding), a field the type does not have is reported as
 * {@code unknown field "spec.containers[0].nmae"} and dropped: decoding into the type loses it, so admission webhooks
 * never see it.
 */
public final class BuiltInSchemas {

    /** A built-in kind: its model class, resource (plural) name and scope. */
    public record BuiltInKind(Class<?> model, String resource, boolean namespaced) {
    }

    private BuiltInSchemas() {
    }

    /** The built-in kind for group/version/kind, if Kubernetes serves one. */
    public static Optional<BuiltInKind> lookup(GroupVersionKind gvk) {
        return KubernetesModels.lookup(gvk).map(m -> new BuiltInKind(m.model(), m.resource(), m.namespaced()));
    }

    /** The built-in kinds of one group/version, sorted. */
    public static List<String> kinds(String group, String version) {
        return KubernetesModels.kinds(group, version);
    }

    /**
     * Removes the fields of {@code object} that its built-in kind does not have, and says which (as the API server's
     * warnings, in document order). Objects of other kinds are left alone.
     */
    public static List<String> dropUnknownFields(GroupVersionKind gvk, ObjectNode object) {
        List<String> warnings = new ArrayList<>();
        lookup(gvk).ifPresent(k -> walk(object, KubernetesModels.type(k.model()), "", warnings));
        return warnings;
    }

    private static void walk(JsonNode node, JavaType type, String path, List<String> warnings) {
        if (node == null || node.isNull()) {
            return;
        }
        if (type.isCollectionLikeType() || type.isArrayType()) {
            if (node.isArray()) {
                for (int i = 0; i < node.size(); i++) {
                    walk(node.get(i), type.getContentType(), path + "[" + i + "]", warnings);
                }
            }
            return;
        }
        if (type.isMapLikeType()) {
            if (node.isObject()) {
                node.fields().forEachRemaining(e -> walk(e.getValue(), type.getContentType(),
                        path + "[" + e.getKey() + "]", warnings));
            }
            return;
        }
        Map<String, JavaType> properties = properties(type);
        if (properties == null || !node.isObject()) {
            return; // a scalar, a free-form value (IntOrString, Quantity, RawExtension, ...) or a type mismatch
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> field = it.next();
            String fieldPath = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
            JavaType fieldType = properties.get(field.getKey());
            if (fieldType == null) {
                warnings.add("unknown field \"" + fieldPath + "\"");
                it.remove();
            } else {
                walk(field.getValue(), fieldType, fieldPath, warnings);
            }
        }
    }

    /** The JSON properties of a model class, or null when values of the type are not checked field by field. */
    static Map<String, JavaType> properties(JavaType type) {
        return KubernetesModels.properties(type);
    }
}
