package dev.tollgate.functions.crdconversion;

import java.io.IOException;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.conversion.ConversionException;
import dev.tollgate.admission.conversion.ConversionPolicy;

/**
 * Converts {@code Database} objects (CRD {@code databases.data.tollgate.dev}, crd.yaml) between its three versions,
 * through v1 (the storage version) as the hub:
 *
 * <ul>
 * <li>{@code spec.storageSize} (v1alpha1) was renamed {@code spec.storage} (v1beta1, v1);</li>
 * <li>{@code spec.engine: "postgres:16.2"} (v1alpha1) was split into {@code spec.engine.name} and
 * {@code spec.engine.version} (v1beta1, v1);</li>
 * <li>{@code spec.tlsMode} exists only in v1, where the schema defaults it to {@code require}. Databases from before
 * v1 had no TLS, so an older object means {@code disable}: converting it up writes {@code tlsMode: disable}
 * explicitly, or the new default would switch TLS on.</li>
 * </ul>
 *
 * Round trips are lossless: what an older version cannot hold (a tlsMode other than disable, or absent; an engine
 * whose name contains ':' or that has no name) is kept in the annotation {@value #STASH} as JSON and restored from it
 * on the way back, as the Kubernetes documentation on CRD versioning recommends. The annotation is reserved: one
 * already on a v1 object is kept inside the stash and put back too.
 */
@ApplicationScoped
public class DatabaseConversion implements ConversionPolicy {

    public static final String GROUP = "data.tollgate.dev";
    public static final String KIND = "Database";
    public static final List<String> VERSIONS = List.of("v1alpha1", "v1beta1", "v1");
    public static final String HUB = "v1";
    /** Where v1 fields that an older version cannot hold are kept while the object is in that version. */
    public static final String STASH = "conversion.data.tollgate.dev/v1-fields";
    /** What a missing tlsMode meant before v1. */
    static final String TLS_BEFORE_V1 = "disable";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    @Override
    public ObjectNode convert(ObjectNode object, String desiredApiVersion) throws ConversionException {
        String from = version(object.path("apiVersion").asText(""), "apiVersion");
        String to = version(desiredApiVersion, "the desired apiVersion");
        if (!KIND.equals(object.path("kind").asText())) {
            throw new ConversionException("kind " + object.path("kind").asText() + " is not " + KIND);
        }
        if (!object.path("metadata").isObject()) {
            throw new ConversionException("metadata: required");
        }
        if (!from.equals(HUB)) {
            toHub(object, from);
        }
        if (!to.equals(HUB)) {
            fromHub(object, to);
        }
        object.put("apiVersion", desiredApiVersion);
        return object;
    }

    private static String version(String apiVersion, String what) throws ConversionException {
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        String version = apiVersion.substring(slash + 1);
        if (!group.equals(GROUP) || !VERSIONS.contains(version)) {
            throw new ConversionException(what + " " + apiVersion + " is not one of " + GROUP + "/"
                    + String.join(", ", VERSIONS));
        }
        return version;
    }

    // --- older version -> v1

    private static void toHub(ObjectNode object, String from) throws ConversionException {
        ObjectNode stash = takeStash(object);
        JsonNode specNode = object.get("spec");
        if (specNode == null || !specNode.isObject()) {
            return;
        }
        ObjectNode spec = (ObjectNode) specNode;
        if (from.equals("v1alpha1")) {
            rename(spec, "storageSize", "storage");
            JsonNode engine = spec.get("engine");
            if (engine != null) {
                if (!engine.isTextual()) {
                    throw new ConversionException("spec.engine: expected a string such as postgres:16.2");
                }
                JsonNode kept = stash.get("engine");
                spec.set("engine", kept != null && engineText(kept).equals(engine.textValue())
                        ? kept : splitEngine(engine.textValue()));
            }
        }
        if (stash.has("tlsMode")) {
            JsonNode tls = stash.get("tlsMode");
            if (!tls.isNull()) {
                spec.set("tlsMode", tls);
            }
        } else {
            spec.put("tlsMode", TLS_BEFORE_V1);
        }
    }

    /** Removes the stash annotation and returns what it held (empty when absent), restoring what it replaced. */
    private static ObjectNode takeStash(ObjectNode object) throws ConversionException {
        ObjectNode metadata = (ObjectNode) object.get("metadata");
        JsonNode annotations = metadata.get("annotations");
        if (annotations == null || !annotations.isObject() || !annotations.has(STASH)) {
            return JsonNodeFactory.instance.objectNode();
        }
        String raw = ((ObjectNode) annotations).remove(STASH).asText();
        JsonNode stash;
        try {
            stash = JSON.readTree(raw);
        } catch (IOException e) {
            stash = null;
        }
        if (stash == null || !stash.isObject()) {
            throw new ConversionException("annotation " + STASH + " is not the JSON object this webhook wrote; "
                    + "remove or repair it");
        }
        if (stash.has("annotation")) {
            ((ObjectNode) annotations).set(STASH, stash.get("annotation"));
        }
        if (stash.path("noAnnotations").asBoolean() && annotations.isEmpty()) {
            metadata.remove("annotations");
        }
        return (ObjectNode) stash;
    }

    private static ObjectNode splitEngine(String text) {
        ObjectNode engine = JsonNodeFactory.instance.objectNode();
        int colon = text.indexOf(':');
        engine.put("name", colon < 0 ? text : text.substring(0, colon));
        if (colon >= 0) {
            engine.put("version", text.substring(colon + 1));
        }
        return engine;
    }

    // --- v1 -> older version

    private static void fromHub(ObjectNode object, String to) throws ConversionException {
        ObjectNode stash = JsonNodeFactory.instance.objectNode();
        JsonNode specNode = object.get("spec");
        if (specNode != null && specNode.isObject()) {
            ObjectNode spec = (ObjectNode) specNode;
            JsonNode tls = spec.remove("tlsMode");
            if (tls == null) {
                stash.putNull("tlsMode"); // absent in v1 (not yet defaulted) is not the same as disable
            } else if (!tls.equals(JsonNodeFactory.instance.textNode(TLS_BEFORE_V1))) {
                stash.set("tlsMode", tls);
            }
            if (to.equals("v1alpha1")) {
                rename(spec, "storage", "storageSize");
                JsonNode engine = spec.get("engine");
                if (engine != null) {
                    if (!representable(engine)) {
                        stash.set("engine", engine);
                    }
                    spec.put("engine", engineText(engine));
                }
            }
        }
        putStash(object, stash);
    }

    /** Whether v1alpha1's "name[:version]" string holds this engine exactly. */
    private static boolean representable(JsonNode engine) {
        if (!engine.isObject() || engine.size() > 2 || !engine.path("name").isTextual()
                || engine.path("name").textValue().contains(":")) {
            return false;
        }
        JsonNode version = engine.get("version");
        return engine.size() == 1 ? version == null : version != null && version.isTextual();
    }

    /** The v1alpha1 string for an engine; for one it cannot hold exactly, the closest string. */
    private static String engineText(JsonNode engine) {
        String name = engine.path("name").isTextual() ? engine.path("name").textValue() : "";
        JsonNode version = engine.get("version");
        return version == null || version.isNull() ? name : name + ":" + version.asText();
    }

    private static void putStash(ObjectNode object, ObjectNode stash) throws ConversionException {
        ObjectNode metadata = (ObjectNode) object.get("metadata");
        JsonNode annotations = metadata.get("annotations");
        if (annotations != null && !annotations.isObject()) {
            throw new ConversionException("metadata.annotations: expected an object");
        }
        if (annotations != null && annotations.has(STASH)) {
            stash.set("annotation", annotations.get(STASH)); // someone else's value under the reserved key
        }
        if (stash.isEmpty()) {
            return;
        }
        if (annotations == null) {
            stash.put("noAnnotations", true);
            annotations = metadata.putObject("annotations");
        }
        try {
            ((ObjectNode) annotations).put(STASH, JSON.writeValueAsString(JSON.treeToValue(stash, Object.class)));
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the stash", e);
        }
    }

    private static void rename(ObjectNode spec, String from, String to) {
        JsonNode value = spec.remove(from);
        if (value != null) {
            spec.set(to, value);
        }
    }
}
