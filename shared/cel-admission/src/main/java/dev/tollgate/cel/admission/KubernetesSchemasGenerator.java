package dev.tollgate.cel.admission;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Writes the built-in kinds' schemas ({@link KubernetesSchemas#RESOURCE}) at build time: cel-admission's Maven build
 * runs {@link #main} after compiling (process-classes), so the document is in its jar and a native executable needs
 * no reflection over fabric8's models at run time. An OpenAPI v3 document as the API server publishes its own
 * ({@code /openapi/v3/apis/<group>/<version>}: {@code components.schemas}, kinds marked with
 * {@code x-kubernetes-group-version-kind}, shared types by {@code $ref}), plus {@code x-tollgate-resources}: each
 * kind's resource name, which an OpenAPI document does not say.
 *
 * <p>From each model class's Jackson properties ({@link KubernetesModels}): arrays, maps ({@code additionalProperties}),
 * objects, string, integer, number, boolean; IntOrString and Quantity {@code x-kubernetes-int-or-string} (their own
 * deserializers take a number or a string); RawExtension, FieldsV1 and other untyped values ({@code JSON},
 * {@code Object}) {@code x-kubernetes-preserve-unknown-fields}; {@code metav1.Time} and {@code MicroTime}, which
 * fabric8 models as strings, {@code format: date-time} as upstream (k8s.io/apimachinery pkg/apis/meta/v1/time.go and
 * micro_time.go {@code OpenAPISchemaFormat}), by the names of the upstream fields of those types ({@link #TIME}),
 * and {@code []byte} fields {@code format: byte} ({@link #BYTES}).
 * {@code required} is left out: type checking does not use it.
 */
public final class KubernetesSchemasGenerator {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String MODEL_PACKAGE = "io.fabric8.kubernetes.api.model.";

    /**
     * The fields of the built-in APIs whose Go type is {@code metav1.Time} or {@code metav1.MicroTime}
     * (k8s.io/api types.go of each group, k8s.io/apimachinery pkg/apis/meta/v1/types.go); fabric8 types all of them
     * {@code String}. {@code time} is ManagedFieldsEntry's and storage's VolumeError's; PodDisruptionBudgetStatus's
     * {@code disruptedPods} is a map of them.
     */
    static final Set<String> TIME = Set.of("creationTimestamp", "deletionTimestamp", "time", "startedAt",
            "finishedAt", "lastProbeTime", "lastTransitionTime", "lastUpdateTime", "lastHeartbeatTime", "startTime",
            "completionTime", "lastScheduleTime", "lastSuccessfulTime", "lastScaleTime", "firstTimestamp",
            "lastTimestamp", "eventTime", "lastObservedTime", "deprecatedFirstTimestamp", "deprecatedLastTimestamp",
            "timeAdded", "lastPhaseTransitionTime", "acquireTime", "renewTime", "pingTime", "expirationTimestamp",
            "disruptedPods");

    /**
     * The fields whose Go type is {@code []byte} (format byte upstream; fabric8: String), by model class and field:
     * webhooks' and APIServices' {@code caBundle}, a Secret's {@code data}, a ConfigMap's {@code binaryData}, a
     * CertificateSigningRequest's {@code request} and {@code certificate}.
     */
    static final Set<String> BYTES = Set.of("WebhookClientConfig.caBundle", "ServiceReference.caBundle",
            "APIServiceSpec.caBundle", "Secret.data", "ConfigMap.binaryData", "CertificateSigningRequestSpec.request",
            "CertificateSigningRequestStatus.certificate");

    private final ObjectNode components = JSON.objectNode();
    private final Map<String, ObjectNode> byName = new TreeMap<>();
    private final Deque<JavaType> pending = new ArrayDeque<>();

    private KubernetesSchemasGenerator() {
    }

    /** {@code args[0]}: the classes directory the resource is written below. */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: KubernetesSchemasGenerator <classes directory>");
            System.exit(2);
        }
        Path out = Path.of(args[0]).resolve(KubernetesSchemas.RESOURCE);
        Files.createDirectories(out.getParent());
        byte[] json = new ObjectMapper().writeValueAsBytes(document());
        try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(out))) {
            o.write(json);
        }
    }

    /** The document for every built-in kind {@link KubernetesModels} knows. */
    public static ObjectNode document() {
        KubernetesSchemasGenerator g = new KubernetesSchemasGenerator();
        ObjectNode doc = JSON.objectNode().put("openapi", "3.0.0");
        doc.putObject("info").put("title", "The built-in Kubernetes kinds, from fabric8's kubernetes-model classes")
                .put("version", modelVersion());
        ArrayNode resources = doc.putArray("x-tollgate-resources");
        for (KubernetesModels.Model m : KubernetesModels.all()) {
            String name = g.ref(KubernetesModels.type(m.model()));
            g.drain();
            ObjectNode gvk = JSON.objectNode().put("group", m.gvk().group()).put("version", m.gvk().version())
                    .put("kind", m.gvk().kind());
            g.byName.get(name).withArray("x-kubernetes-group-version-kind").add(gvk);
            resources.add(gvk.deepCopy().put("resource", m.resource()).put("namespaced", m.namespaced()));
        }
        g.byName.forEach(g.components::set);
        doc.putObject("components").set("schemas", g.components);
        return doc;
    }

    /** fabric8's kubernetes-model version (its jar's manifest), so the document says what it was made from. */
    private static String modelVersion() {
        String v = io.fabric8.kubernetes.api.model.Pod.class.getPackage().getImplementationVersion();
        return v == null ? "unknown" : v;
    }

    /** The component name of a model class, its schema queued for {@link #drain}. */
    private String ref(JavaType type) {
        String name = type.getRawClass().getName().substring(MODEL_PACKAGE.length());
        if (!byName.containsKey(name)) {
            byName.put(name, JSON.objectNode());
            pending.add(type);
        }
        return name;
    }

    private void drain() {
        while (!pending.isEmpty()) {
            JavaType type = pending.pop();
            ObjectNode schema = byName.get(ref(type));
            schema.put("type", "object");
            ObjectNode props = schema.putObject("properties");
            String owner = type.getRawClass().getSimpleName();
            new TreeMap<>(KubernetesModels.properties(type)).forEach((field, t) -> props.set(field,
                    schema(t, TIME.contains(field) ? "date-time"
                            : BYTES.contains(owner + "." + field) ? "byte" : null)));
        }
    }

    private JsonNode schema(JavaType type, String format) {
        if (type.isCollectionLikeType() || type.isArrayType()) {
            return JSON.objectNode().put("type", "array").set("items", schema(type.getContentType(), format));
        }
        if (type.isMapLikeType()) {
            return JSON.objectNode().put("type", "object").set("additionalProperties",
                    schema(type.getContentType(), format));
        }
        Class<?> cls = type.getRawClass();
        if (cls == String.class || cls.isEnum()) {
            ObjectNode s = JSON.objectNode().put("type", "string");
            return format == null ? s : s.put("format", format);
        }
        if (cls == Boolean.class || cls == boolean.class) {
            return JSON.objectNode().put("type", "boolean");
        }
        if (cls == Integer.class || cls == int.class || cls == Long.class || cls == long.class
                || cls == Short.class || cls == short.class) {
            return JSON.objectNode().put("type", "integer");
        }
        if (Number.class.isAssignableFrom(cls) || cls == double.class || cls == float.class) {
            return JSON.objectNode().put("type", "number");
        }
        if (cls.getName().equals(MODEL_PACKAGE + "IntOrString") || cls.getName().equals(MODEL_PACKAGE + "Quantity")) {
            return JSON.objectNode().put("x-kubernetes-int-or-string", true);
        }
        if (KubernetesModels.properties(type) != null) {
            return JSON.objectNode().put("$ref", "#/components/schemas/" + ref(type));
        }
        // RawExtension, FieldsV1, apiextensions JSON, Object, interfaces: any JSON value
        return JSON.objectNode().put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
    }
}
