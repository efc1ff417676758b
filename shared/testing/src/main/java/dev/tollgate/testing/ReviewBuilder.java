package dev.tollgate.testing;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.Operation;
import dev.tollgate.admission.ReviewKind;
import dev.tollgate.admission.ReviewVersion;

/**
 * Builds AdmissionReview request bodies the way the API server sends them, in v1 or v1beta1. Kind and resource are
 * taken from the object (resource by the usual lowercase plural) unless set explicitly.
 */
public final class ReviewBuilder {

    private static final Map<String, String> IRREGULAR_PLURALS = Map.of(
            "Endpoints", "endpoints", "Ingress", "ingresses", "NetworkPolicy", "networkpolicies",
            "PodSecurityPolicy", "podsecuritypolicies", "StorageClass", "storageclasses",
            "PriorityClass", "priorityclasses", "RuntimeClass", "runtimeclasses");

    private ReviewVersion version = ReviewVersion.V1;
    private String uid = UUID.randomUUID().toString();
    private Operation operation = Operation.CREATE;
    private JsonNode object;
    private JsonNode oldObject;
    private String namespace;
    private String name;
    private String subResource = "";
    private String group;
    private String apiVersion;
    private String kind;
    private String resource;
    private boolean dryRun;
    private String username = "kubernetes-admin";
    private List<String> groups = List.of("system:masters", "system:authenticated");

    ReviewBuilder() {
    }

    public static ReviewBuilder create(JsonNode object) {
        return new ReviewBuilder().operation(Operation.CREATE).object(object);
    }

    public static ReviewBuilder update(JsonNode object, JsonNode oldObject) {
        return new ReviewBuilder().operation(Operation.UPDATE).object(object).oldObject(oldObject);
    }

    public static ReviewBuilder delete(JsonNode oldObject) {
        return new ReviewBuilder().operation(Operation.DELETE).oldObject(oldObject);
    }

    /**
     * A CONNECT to a pod subresource such as {@code exec}: as the API server does, the object is the connect
     * options (e.g. PodExecOptions) and the resource is {@code pods}.
     */
    public static ReviewBuilder connect(String podName, String namespace, String subResource, JsonNode options) {
        ReviewBuilder b = new ReviewBuilder().operation(Operation.CONNECT).resource("", "v1", "pods")
                .subResource(subResource).namespace(namespace).object(options);
        b.name = podName;
        return b;
    }

    /** A builder holding an existing review (e.g. a sample file), so tests can send it and vary its object. */
    public static ReviewBuilder fromReview(JsonNode review) {
        JsonNode req = review.path("request");
        ReviewBuilder b = new ReviewBuilder();
        b.version = ReviewKind.ADMISSION.version(review.path("apiVersion").asText())
                .orElseThrow(() -> new IllegalArgumentException("not an AdmissionReview request: " + review));
        b.uid = req.path("uid").asText();
        b.operation = Operation.valueOf(req.path("operation").asText());
        b.object = req.hasNonNull("object") ? req.get("object") : null;
        b.oldObject = req.hasNonNull("oldObject") ? req.get("oldObject") : null;
        b.namespace = req.path("namespace").asText("");
        b.name = req.path("name").asText("");
        b.subResource = req.path("subResource").asText("");
        b.group = req.path("resource").path("group").asText("");
        b.apiVersion = req.path("resource").path("version").asText("");
        b.resource = req.path("resource").path("resource").asText("");
        b.kind = req.path("kind").path("kind").asText("");
        b.dryRun = req.path("dryRun").asBoolean(false);
        b.username = req.path("userInfo").path("username").asText("");
        List<String> groups = new java.util.ArrayList<>();
        req.path("userInfo").path("groups").forEach(g -> groups.add(g.asText()));
        b.groups = groups;
        return b;
    }

    /** Reads a review file (JSON or YAML), e.g. one of a function's {@code samples/}. */
    public static ReviewBuilder fromFile(java.nio.file.Path file) {
        return fromReview(Manifests.read(file));
    }

    public ReviewBuilder version(ReviewVersion version) {
        this.version = version;
        return this;
    }

    public ReviewBuilder v1beta1() {
        return version(ReviewVersion.V1BETA1);
    }

    public ReviewBuilder uid(String uid) {
        this.uid = uid;
        return this;
    }

    public ReviewBuilder operation(Operation operation) {
        this.operation = operation;
        return this;
    }

    public ReviewBuilder object(JsonNode object) {
        this.object = object;
        identity(object);
        return this;
    }

    public ReviewBuilder oldObject(JsonNode oldObject) {
        this.oldObject = oldObject;
        if (object == null) {
            identity(oldObject);
        }
        return this;
    }

    public ReviewBuilder namespace(String namespace) {
        this.namespace = namespace;
        return this;
    }

    public ReviewBuilder subResource(String subResource) {
        this.subResource = subResource;
        return this;
    }

    /** Sets group, version and resource explicitly, e.g. {@code ("apps", "v1", "deployments")}. */
    public ReviewBuilder resource(String group, String version, String resource) {
        this.group = group;
        this.apiVersion = version;
        this.resource = resource;
        return this;
    }

    public ReviewBuilder dryRun() {
        this.dryRun = true;
        return this;
    }

    public ReviewBuilder user(String username, String... groups) {
        this.username = username;
        this.groups = List.of(groups);
        return this;
    }

    public ReviewVersion version() {
        return version;
    }

    public String uid() {
        return uid;
    }

    public JsonNode object() {
        return object;
    }

    /** The review as a JSON tree. */
    public ObjectNode build() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode review = f.objectNode();
        review.put("apiVersion", ReviewKind.ADMISSION.apiVersion(version));
        review.put("kind", "AdmissionReview");
        ObjectNode req = review.putObject("request");
        req.put("uid", uid);
        String g = group == null ? "" : group;
        String v = apiVersion == null ? "v1" : apiVersion;
        String k = kind == null ? "Pod" : kind;
        String r = resource == null ? plural(k) : resource;
        ObjectNode gvk = req.putObject("kind");
        gvk.put("group", g).put("version", v).put("kind", k);
        ObjectNode gvr = req.putObject("resource");
        gvr.put("group", g).put("version", v).put("resource", r);
        if (!subResource.isEmpty()) {
            req.put("subResource", subResource);
        }
        req.set("requestKind", gvk.deepCopy());
        req.set("requestResource", gvr.deepCopy());
        if (!subResource.isEmpty()) {
            req.put("requestSubResource", subResource);
        }
        if (name != null && !name.isEmpty()) {
            req.put("name", name);
        }
        if (namespace != null && !namespace.isEmpty()) {
            req.put("namespace", namespace);
        }
        req.put("operation", operation.name());
        ObjectNode user = req.putObject("userInfo");
        user.put("username", username);
        var gs = user.putArray("groups");
        groups.forEach(gs::add);
        req.set("object", object == null ? f.nullNode() : object.deepCopy());
        req.set("oldObject", oldObject == null ? f.nullNode() : oldObject.deepCopy());
        req.put("dryRun", dryRun);
        ObjectNode options = req.putObject("options");
        options.put("apiVersion", "meta.k8s.io/v1");
        options.put("kind", switch (operation) {
            case CREATE -> "CreateOptions";
            case UPDATE -> "UpdateOptions";
            case DELETE -> "DeleteOptions";
            case CONNECT -> "PodExecOptions";
        });
        return review;
    }

    public byte[] bytes() {
        return Manifests.toJson(build()).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private ReviewBuilder identity(JsonNode obj) {
        if (obj == null || !obj.isObject()) {
            return this;
        }
        String av = obj.path("apiVersion").asText("v1");
        int slash = av.indexOf('/');
        if (group == null) {
            group = slash < 0 ? "" : av.substring(0, slash);
            apiVersion = slash < 0 ? av : av.substring(slash + 1);
        }
        if (kind == null && obj.hasNonNull("kind")) {
            kind = obj.path("kind").asText();
        }
        JsonNode md = obj.path("metadata");
        if (name == null) {
            name = md.path("name").asText("");
        }
        if (namespace == null && md.hasNonNull("namespace")) {
            namespace = md.path("namespace").asText();
        }
        return this;
    }

    static String plural(String kind) {
        String irregular = IRREGULAR_PLURALS.get(kind);
        if (irregular != null) {
            return irregular;
        }
        String lower = kind.toLowerCase(Locale.ROOT);
        if (lower.endsWith("s")) {
            return lower + "es";
        }
        if (lower.endsWith("y")) {
            return lower.substring(0, lower.length() - 1) + "ies";
        }
        return lower + "s";
    }
}
