package dev.tollgate.simulator.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.Operation;
import dev.tollgate.simulator.InputManifest;
import dev.tollgate.simulator.ReviewSettings;

/**
 * Turns one log line into a {@link ReplayItem}: an {@code audit.k8s.io/v1} Event of the kube-apiserver's audit log,
 * or a line of Tollgate's decision log (shared/function-runtime {@code DecisionLog}), bare or as the
 * {@code message} of a JSON log record. Lines are read in log order: the reader keeps what it needs from earlier
 * lines (the stored objects for UPDATE and DELETE, the namespaces' labels) in bounded caches, nothing else.
 *
 * <p>
 * The Event's fields are those of k8s.io/apiserver/pkg/apis/audit/v1/types.go: {@code level}, {@code stage},
 * {@code requestURI}, {@code verb}, {@code user} and {@code impersonatedUser} (authentication/v1 UserInfo),
 * {@code objectRef} (resource, namespace, name, apiGroup, apiVersion, subresource), {@code responseStatus} (a
 * metav1.Status), {@code requestObject} (Request level and above), {@code responseObject} (RequestResponse) and
 * {@code annotations}.
 */
public final class ReplayReader {

    public static final String NO_OBJECT = "no object (Metadata level)";
    public static final String PATCH = "patch: the log holds the patch, not the object";
    public static final String SUBRESOURCE = "a subresource (only requests on the object itself are replayed)";
    public static final String NO_STORED = "UPDATE or DELETE without the stored object (no earlier RequestResponse "
            + "event for it, or it left the bounded cache)";
    public static final String OUTSIDE_ADMISSION = "the request failed outside admission (or the log does not say "
            + "why: no status message)";
    public static final String OTHER_VERB = "a verb that is not replayed (only create, update and delete)";
    public static final String NO_KIND = "the object names no apiVersion and kind";
    public static final String DECISION_NO_OBJECT = "decision-log line without the object (written with "
            + "tollgate.decision-log.include-objects=false)";
    public static final String DECISION_FAILED = "decision-log line of a call that failed (no verdict to compare)";

    public static final String BEFORE_SINCE = "received before --since";

    /** Where a request's Namespace came from, in this order of precedence. */
    public static final String FROM_GIVEN = "--namespaces";
    public static final String FROM_LOG = "the log";
    public static final String FROM_CLUSTER = "--kubeconfig";
    public static final String ASSUMED = "assumed (only the kubernetes.io/metadata.name label)";
    /** A cluster-scoped request: no namespace to find. */
    public static final String NO_NAMESPACE = "none (cluster-scoped)";

    static final ObjectMapper JSON = new ObjectMapper();

    /**
     * `admission webhook "name" denied the request...`
     * (k8s.io/apiserver/pkg/admission/plugin/webhook/errors/statuserror.go).
     */
    private static final Pattern DENIED = Pattern.compile("^admission webhook \"([^\"]+)\" denied the request");
    /**
     * A call that failed with failurePolicy Fail: `failed calling webhook "name"` (k8s.io/apiserver/pkg/util/webhook/
     * error.go; "failed to call webhook" in later versions).
     */
    private static final Pattern FAILED_CALL = Pattern.compile("failed (?:calling|to call) webhook \"([^\"]+)\"");

    private static final Set<String> READS = Set.of("get", "list", "watch");

    private final Function<String, String> functionOf;
    private final ObjectCache stored;
    private final ObjectCache namespaces;
    private final Map<String, InputManifest> givenNamespaces;
    private final Map<String, InputManifest> clusterNamespaces;
    private java.time.Instant since;

    /** As {@link #ReplayReader(Function, int, Map, Map)} with no cluster's namespaces. */
    public ReplayReader(Function<String, String> functionOf, int cacheCapacity,
            Map<String, InputManifest> givenNamespaces) {
        this(functionOf, cacheCapacity, givenNamespaces, Map.of());
    }

    /**
     * A request's Namespace is the one given ({@code --namespaces}), else the one the log last showed written before
     * it (the namespace as it was then), else the cluster's ({@code --kubeconfig}), else assumed with only its name
     * label, as the simulator assumes it.
     *
     * @param functionOf        the function of a webhook name
     * @param cacheCapacity     how many stored objects (and, separately, namespaces) to keep for later events
     * @param givenNamespaces   Namespace objects given, by name
     * @param clusterNamespaces a cluster's Namespace objects, by name
     */
    public ReplayReader(Function<String, String> functionOf, int cacheCapacity,
            Map<String, InputManifest> givenNamespaces, Map<String, InputManifest> clusterNamespaces) {
        this.functionOf = functionOf;
        this.stored = new ObjectCache(cacheCapacity);
        this.namespaces = new ObjectCache(cacheCapacity);
        this.givenNamespaces = Map.copyOf(givenNamespaces);
        this.clusterNamespaces = Map.copyOf(clusterNamespaces);
    }

    /** Audit events received before {@code since} are not replayed (their objects still feed the caches). */
    public ReplayReader since(java.time.Instant since) {
        this.since = since;
        return this;
    }

    public ObjectCache stored() {
        return stored;
    }

    public ReplayItem read(String line, String source) {
        if (line.isBlank()) {
            return ReplayItem.IGNORED;
        }
        JsonNode node;
        try {
            node = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            return new ReplayItem.Unreadable(source, "not JSON");
        }
        if (node == null || !node.isObject()) {
            return new ReplayItem.Unreadable(source, "not a JSON object");
        }
        if (node.path("apiVersion").asText().equals("audit.k8s.io/v1") && node.path("kind").asText().equals("Event")) {
            return auditEvent(node, source);
        }
        if (isDecision(node)) {
            return decision(node, source);
        }
        JsonNode message = node.path("message");
        if (message.isTextual() && message.asText().startsWith("{")) {
            try {
                JsonNode inner = JSON.readTree(message.asText());
                if (isDecision(inner)) {
                    return decision(inner, source);
                }
            } catch (JsonProcessingException e) {
                // not a decision line inside: unreadable below
            }
        }
        return new ReplayItem.Unreadable(source, "neither an audit.k8s.io/v1 Event nor a Tollgate decision-log line");
    }

    private static boolean isDecision(JsonNode n) {
        return n != null && n.isObject() && n.path("uid").isTextual() && n.path("function").isTextual()
                && n.path("verdict").isTextual();
    }

    // ---- audit events ------------------------------------------------------------------------------------------

    private ReplayItem auditEvent(JsonNode e, String source) {
        if (!e.path("stage").asText().equals("ResponseComplete")) {
            return ReplayItem.IGNORED;
        }
        String verb = e.path("verb").asText();
        JsonNode ref = e.path("objectRef");
        if (READS.contains(verb) || !ref.isObject() || ref.path("resource").asText().isEmpty()) {
            return ReplayItem.IGNORED;
        }
        String group = ref.path("apiGroup").asText("");
        String resource = ref.path("resource").asText();
        String namespace = ref.path("namespace").asText("");
        String name = ref.path("name").asText("");
        String subresource = ref.path("subresource").asText("");
        int code = e.path("responseStatus").path("code").asInt(0);
        boolean succeeded = code >= 200 && code < 300;
        String key = ObjectCache.key(group, resource, namespace, name);
        JsonNode response = e.path("responseObject");
        ObjectNode old = stored.get(key);
        String where = resource + (group.isEmpty() ? "" : "." + group) + " "
                + (namespace.isEmpty() ? "" : namespace + "/") + name;
        // What the log says is stored now, for the events after this one (whether or not this one is replayed).
        if (succeeded && subresource.isEmpty()) {
            if (verb.equals("delete")) {
                stored.remove(key);
            } else if (response.isObject() && response.path("metadata").isObject()
                    && !response.path("kind").asText().equals("Status")) {
                String storedName = response.path("metadata").path("name").asText(name);
                stored.put(ObjectCache.key(group, resource, namespace, storedName), (ObjectNode) response);
                rememberNamespace(group, resource, (ObjectNode) response);
            } else if ((verb.equals("create") || verb.equals("update")) && e.path("requestObject").isObject()) {
                rememberNamespace(group, resource, (ObjectNode) e.path("requestObject"));
            }
        }
        if (!subresource.isEmpty()) {
            return new ReplayItem.NotReplayed(source, SUBRESOURCE, verb + " " + resource + "/" + subresource + " "
                    + where);
        }
        Operation op = switch (verb) {
            case "create" -> Operation.CREATE;
            case "update" -> Operation.UPDATE;
            case "delete" -> Operation.DELETE;
            default -> null;
        };
        if (verb.equals("patch")) {
            return new ReplayItem.NotReplayed(source, PATCH, "patch " + where);
        }
        if (op == null) {
            return new ReplayItem.NotReplayed(source, OTHER_VERB, verb + " " + where);
        }
        java.time.Instant received = Registrations.time(e, "requestReceivedTimestamp");
        if (since != null && received != null && received.isBefore(since)) {
            return new ReplayItem.NotReplayed(source, BEFORE_SINCE, verb + " " + where + " at " + received);
        }
        Outcome recorded = recorded(e, code);
        if (recorded == null) {
            return new ReplayItem.NotReplayed(source, OUTSIDE_ADMISSION, verb + " " + where + ": " + code + " "
                    + e.path("responseStatus").path("reason").asText("") + " "
                    + e.path("responseStatus").path("message").asText(""));
        }
        ObjectNode object;
        if (op == Operation.DELETE) {
            if (old == null) {
                return new ReplayItem.NotReplayed(source, NO_STORED, "delete " + where);
            }
            object = old;
        } else {
            JsonNode request = e.path("requestObject");
            if (!request.isObject()) {
                return new ReplayItem.NotReplayed(source, NO_OBJECT, verb + " " + where + " (level "
                        + e.path("level").asText() + ")");
            }
            object = ((ObjectNode) request).deepCopy();
            if (op == Operation.UPDATE && old == null) {
                return new ReplayItem.NotReplayed(source, NO_STORED, "update " + where);
            }
        }
        if (!completeKind(object, ref, response, old)) {
            return new ReplayItem.NotReplayed(source, NO_KIND, verb + " " + where);
        }
        if (!namespace.isEmpty() && object.path("metadata").path("namespace").asText("").isEmpty()) {
            object.withObject("/metadata").put("namespace", namespace);
        }
        if (!name.isEmpty() && object.path("metadata").path("name").asText("").isEmpty()) {
            object.withObject("/metadata").put("name", name);
        }
        InputManifest manifest = new InputManifest(source, object);
        List<InputManifest> olds = op == Operation.UPDATE ? List.of(new InputManifest(source, old)) : List.of();
        JsonNode user = e.path("impersonatedUser").isObject() ? e.path("impersonatedUser") : e.path("user");
        List<String> groups = new ArrayList<>();
        user.path("groups").forEach(g -> groups.add(g.asText()));
        NamespaceView ns = namespaceFor(namespace);
        ReviewSettings settings = new ReviewSettings(op, olds, ns.manifests(), user.path("username").asText(),
                groups, dryRun(e.path("requestURI").asText()), namespace.isEmpty() ? "default" : namespace);
        // A create with generateName: the name the server gave, else the prefix.
        String shown = !manifest.name().isEmpty() ? manifest.name()
                : response.path("metadata").path("name").asText(object.path("metadata").path("generateName").asText()
                        + "*");
        String refText = manifest.kind() + " " + (namespace.isEmpty() ? "" : namespace + "/") + shown + " (" + op
                + ")";
        return new ReplayItem.Request(source, refText, manifest, settings, recorded, null, ns.from(), received);
    }

    /** Fills apiVersion and kind from objectRef and the stored or returned object when the request body lacks them. */
    private static boolean completeKind(ObjectNode object, JsonNode ref, JsonNode response, ObjectNode old) {
        if (object.path("apiVersion").asText("").isEmpty()) {
            String group = ref.path("apiGroup").asText("");
            String version = ref.path("apiVersion").asText("");
            if (!version.isEmpty()) {
                object.put("apiVersion", group.isEmpty() ? version : group + "/" + version);
            }
        }
        if (object.path("kind").asText("").isEmpty()) {
            String kind = response.path("kind").asText("");
            if (kind.isEmpty() && old != null) {
                kind = old.path("kind").asText("");
            }
            if (!kind.isEmpty() && !kind.equals("Status")) {
                object.put("kind", kind);
            }
        }
        return !object.path("apiVersion").asText("").isEmpty() && !object.path("kind").asText("").isEmpty();
    }

    /**
     * The outcome the event recorded, or null when the request failed for a reason other than a webhook (an in-tree
     * admission plugin, validation, a conflict): replaying it would compare nothing.
     */
    private Outcome recorded(JsonNode e, int code) {
        Map<String, String> annotations = new java.util.LinkedHashMap<>();
        e.path("annotations").fields().forEachRemaining(a -> annotations.put(a.getKey(), a.getValue().asText()));
        Map<String, com.fasterxml.jackson.databind.node.ArrayNode> patches = new java.util.LinkedHashMap<>();
        Set<String> mutated = new java.util.LinkedHashSet<>();
        Outcome.fromAnnotations(annotations, functionOf, patches, mutated);
        Set<String> involved = new java.util.LinkedHashSet<>(mutated);
        annotations.forEach((k, v) -> {
            if (k.startsWith(Outcome.MUTATION_PREFIX)) {
                try {
                    involved.add(functionOf.apply(JSON.readTree(v).path("webhook").asText()));
                } catch (JsonProcessingException ignored) {
                    // not the API server's annotation
                }
            }
        });
        // Patch annotations are written at Request level and above: at Metadata level only "mutated" is known.
        boolean patchesKnown = !e.path("level").asText().equals("Metadata");
        if (code >= 200 && code < 300) {
            return new Outcome(true, 200, "", Map.of(), patchesKnown ? patches : null, mutated, null, involved);
        }
        // Some API servers (v1.20 among them) log the status without its message; at RequestResponse level the
        // responseObject is the whole Status.
        String message = e.path("responseStatus").path("message").asText("");
        if (message.isEmpty() && e.path("responseObject").path("kind").asText().equals("Status")) {
            message = e.path("responseObject").path("message").asText("");
        }
        if (message.isEmpty()) {
            return null;
        }
        Matcher denied = DENIED.matcher(message);
        Matcher failed = FAILED_CALL.matcher(message);
        String webhook = denied.find() ? denied.group(1) : failed.find() ? failed.group(1) : null;
        if (webhook == null) {
            return null;
        }
        String f = functionOf.apply(webhook);
        involved.add(f);
        return new Outcome(false, code, message, Map.of(f, message), patchesKnown ? patches : null, mutated, null,
                involved);
    }

    /** {@code dryRun=All} in the request URI's query. */
    static boolean dryRun(String requestUri) {
        int q = requestUri.indexOf('?');
        if (q < 0) {
            return false;
        }
        for (String p : requestUri.substring(q + 1).split("&")) {
            if (p.startsWith("dryRun=") && !p.substring("dryRun=".length()).isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private void rememberNamespace(String group, String resource, ObjectNode object) {
        if (group.isEmpty() && resource.equals("namespaces")) {
            String name = object.path("metadata").path("name").asText("");
            if (!name.isEmpty()) {
                ObjectNode ns = object.deepCopy();
                ns.put("apiVersion", "v1");
                ns.put("kind", "Namespace");
                namespaces.put(name, ns);
            }
        }
    }

    /** A request's Namespace (none, or one) and where it came from. */
    private record NamespaceView(List<InputManifest> manifests, String from) {
    }

    /** The request's namespace as given, else as the log last showed it, else the cluster's, else none. */
    private NamespaceView namespaceFor(String namespace) {
        if (namespace.isEmpty()) {
            return new NamespaceView(List.of(), NO_NAMESPACE);
        }
        InputManifest given = givenNamespaces.get(namespace);
        if (given != null) {
            return new NamespaceView(List.of(given), FROM_GIVEN);
        }
        ObjectNode seen = namespaces.get(namespace);
        if (seen != null) {
            return new NamespaceView(List.of(new InputManifest("log", seen)), FROM_LOG);
        }
        InputManifest cluster = clusterNamespaces.get(namespace);
        return cluster != null ? new NamespaceView(List.of(cluster), FROM_CLUSTER)
                : new NamespaceView(List.of(), ASSUMED);
    }

    // ---- decision-log lines ------------------------------------------------------------------------------------

    private ReplayItem decision(JsonNode d, String source) {
        String function = d.path("function").asText();
        String operation = d.path("operation").asText();
        String verdict = d.path("verdict").asText();
        String namespace = d.path("namespace").asText("");
        String where = function + " " + operation + " " + d.path("kind").asText() + " "
                + (namespace.isEmpty() ? "" : namespace + "/") + d.path("name").asText();
        Operation op = switch (operation) {
            case "CREATE" -> Operation.CREATE;
            case "UPDATE" -> Operation.UPDATE;
            case "DELETE" -> Operation.DELETE;
            default -> null;
        };
        if (op == null) {
            return ReplayItem.IGNORED; // a conversion (CONVERT) or CONNECT: not admission of an object
        }
        boolean denied = verdict.equals("denied");
        if (!denied && !verdict.equals("allowed") && !verdict.equals("patched") && !verdict.equals("excepted")) {
            return new ReplayItem.NotReplayed(source, DECISION_FAILED, where + ": verdict " + verdict);
        }
        JsonNode object = op == Operation.DELETE ? d.path("oldObject") : d.path("object");
        JsonNode oldObject = d.path("oldObject");
        if (!object.isObject() || (op == Operation.UPDATE && !oldObject.isObject())) {
            return new ReplayItem.NotReplayed(source, DECISION_NO_OBJECT, where);
        }
        ObjectNode copy = ((ObjectNode) object).deepCopy();
        if (copy.path("apiVersion").asText("").isEmpty() || copy.path("kind").asText("").isEmpty()) {
            return new ReplayItem.NotReplayed(source, NO_KIND, where);
        }
        if (!namespace.isEmpty() && copy.path("metadata").path("namespace").asText("").isEmpty()) {
            copy.withObject("/metadata").put("namespace", namespace);
        }
        InputManifest manifest = new InputManifest(source, copy);
        List<InputManifest> olds = op == Operation.UPDATE
                ? List.of(new InputManifest(source, (ObjectNode) oldObject)) : List.of();
        // The line names the user but not the groups: every authenticated user is in system:authenticated.
        NamespaceView ns = namespaceFor(namespace);
        ReviewSettings settings = new ReviewSettings(op, olds, ns.manifests(), d.path("user").asText(""),
                List.of("system:authenticated"), false, namespace.isEmpty() ? "default" : namespace);
        boolean patched = verdict.equals("patched") || d.path("patchOps").asInt(0) > 0;
        Map<String, String> denials = new java.util.HashMap<>();
        if (denied) {
            denials.put(function, null); // the line has no message
        }
        Outcome recorded = new Outcome(!denied, denied ? d.path("code").asInt(403) : 200, null, denials, null,
                patched ? Set.of(function) : Set.of(), null, Set.of(function));
        String ref = manifest.kind() + " " + (namespace.isEmpty() ? "" : namespace + "/") + manifest.name() + " ("
                + op + ")";
        return new ReplayItem.Request(source, ref, manifest, settings, recorded, function, ns.from(), null);
    }
}
