package dev.tollgate.simulator;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.GroupVersionKind;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The built-in Kubernetes kinds and their fields, for the API server's strict field validation. The field lists are
 * the fabric8 kubernetes-model classes, which fabric8 generates from the upstream Kubernetes OpenAPI documents
 * (kubernetes/kubernetes api/openapi-spec); {@code BuiltInSchemasTest} compares them with the upstream
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

    private static final String SERVICE_FILE = "META-INF/services/" + KubernetesResource.class.getName();
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Map<Class<?>, Map<String, JavaType>> PROPERTIES = new ConcurrentHashMap<>();
    private static volatile Map<String, BuiltInKind> kinds;

    private BuiltInSchemas() {
    }

    /** The built-in kind for group/version/kind, if Kubernetes serves one. */
    public static Optional<BuiltInKind> lookup(GroupVersionKind gvk) {
        return Optional.ofNullable(kinds().get(key(gvk.group(), gvk.version(), gvk.kind())));
    }

    /** The built-in kinds of one group/version, sorted. */
    public static List<String> kinds(String group, String version) {
        String prefix = key(group, version, "");
        return kinds().keySet().stream().filter(k -> k.startsWith(prefix)).map(k -> k.substring(prefix.length()))
                .sorted().toList();
    }

    /**
     * Removes the fields of {@code object} that its built-in kind does not have, and says which (as the API server's
     * warnings, in document order). Objects of other kinds are left alone.
     */
    public static List<String> dropUnknownFields(GroupVersionKind gvk, ObjectNode object) {
        List<String> warnings = new ArrayList<>();
        lookup(gvk).ifPresent(k -> walk(object, MAPPER.constructType(k.model()), "", warnings));
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

    /**
     * Go types whose own {@code UnmarshalJSON} keeps the JSON as raw bytes, so strict decoding never looks inside
     * (sigs.k8s.io/json hands an {@code Unmarshaler} its bytes whole) and the API server accepts any content there:
     * {@code metav1.FieldsV1} (k8s.io/apimachinery pkg/apis/meta/v1/helpers.go, {@code FieldsV1.UnmarshalJSON}: a
     * set of field paths such as {@code f:metadata}, in the format of sigs.k8s.io/structured-merge-diff, which
     * validation only checks is {@code fieldsType: FieldsV1}) and {@code runtime.RawExtension}
     * (k8s.io/apimachinery pkg/runtime/extension.go, {@code RawExtension.UnmarshalJSON}). fabric8 models them as
     * classes without properties.
     */
    private static final java.util.Set<String> RAW_JSON = java.util.Set.of("io.fabric8.kubernetes.api.model.FieldsV1",
            "io.fabric8.kubernetes.api.model.runtime.RawExtension");

    /** The JSON properties of a model class, or null when values of the type are not checked field by field. */
    static Map<String, JavaType> properties(JavaType type) {
        Class<?> cls = type.getRawClass();
        if (!cls.getName().startsWith("io.fabric8.kubernetes.api.model.") || cls.isEnum() || cls.isInterface()
                || Modifier.isAbstract(cls.getModifiers()) || RAW_JSON.contains(cls.getName())) {
            return null;
        }
        JsonDeserialize custom = cls.getAnnotation(JsonDeserialize.class);
        if (custom != null && custom.using() != JsonDeserializer.None.class) {
            return null; // IntOrString, Quantity and the like read any JSON shape themselves
        }
        return PROPERTIES.computeIfAbsent(cls, c -> {
            Map<String, JavaType> byName = new HashMap<>();
            for (BeanPropertyDefinition p : MAPPER.getDeserializationConfig().introspect(type).findProperties()) {
                if (p.hasSetter() || p.hasField() || p.hasConstructorParameter()) {
                    byName.put(p.getName(), p.getPrimaryType());
                }
            }
            return Map.copyOf(byName);
        });
    }

    private static Map<String, BuiltInKind> kinds() {
        Map<String, BuiltInKind> k = kinds;
        if (k == null) {
            synchronized (BuiltInSchemas.class) {
                if (kinds == null) {
                    kinds = index();
                }
                k = kinds;
            }
        }
        return k;
    }

    /** Every model class the fabric8 jars register for their kinds (their ServiceLoader files). */
    private static Map<String, BuiltInKind> index() {
        ClassLoader loader = BuiltInSchemas.class.getClassLoader();
        Map<String, BuiltInKind> byKey = new HashMap<>();
        try {
            Enumeration<URL> files = loader.getResources(SERVICE_FILE);
            while (files.hasMoreElements()) {
                URL url = files.nextElement();
                try (BufferedReader in = new BufferedReader(
                        new InputStreamReader(url.openStream(), StandardCharsets.UTF_8))) {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        String name = line.strip();
                        if (!name.isEmpty() && !name.startsWith("#")) {
                            register(loader, name, byKey);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the built-in Kubernetes kinds", e);
        }
        return Map.copyOf(byKey);
    }

    private static void register(ClassLoader loader, String className, Map<String, BuiltInKind> byKey) {
        Class<?> cls;
        try {
            cls = Class.forName(className, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return; // listed by a jar whose dependencies are not here
        }
        Group group = cls.getAnnotation(Group.class);
        Version version = cls.getAnnotation(Version.class);
        if (group == null || version == null || !builtInGroup(group.value())) {
            return;
        }
        Kind kind = cls.getAnnotation(Kind.class);
        Plural plural = cls.getAnnotation(Plural.class);
        String kindName = kind != null ? kind.value() : cls.getSimpleName();
        String resource = plural != null ? plural.value() : KnownResources.plural(kindName);
        byKey.putIfAbsent(key(group.value(), version.value(), kindName),
                new BuiltInKind(cls, resource, Namespaced.class.isAssignableFrom(cls)));
    }

    /** The API server's own groups: the legacy ones and *.k8s.io, less the CRD-served sigs projects'. */
    static boolean builtInGroup(String group) {
        return switch (group) {
            case "", "apps", "batch", "autoscaling", "policy", "extensions" -> true;
            default -> group.endsWith(".k8s.io") && !group.endsWith(".x-k8s.io")
                    && !group.equals("gateway.networking.k8s.io") && !group.equals("metrics.k8s.io");
        };
    }

    private static String key(String group, String version, String kind) {
        return group + "/" + version + "/" + kind;
    }
}
