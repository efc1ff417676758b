package dev.tollgate.simulator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionCodec;
import dev.tollgate.admission.AdmissionHandler;
import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.EnforcedVerdict;
import dev.tollgate.admission.GroupVersionKind;
import dev.tollgate.admission.GroupVersionResource;
import dev.tollgate.admission.JsonPatches;
import dev.tollgate.admission.Operation;
import dev.tollgate.admission.ReviewDecodeException;
import dev.tollgate.admission.ReviewKind;
import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.admission.WarningRecorder;
import dev.tollgate.admission.match.Rule;
import dev.tollgate.cel.admission.SimulatedNamespaces;
import dev.tollgate.simulator.CallRecord.Result;
import dev.tollgate.testing.ResponseChecks;

/**
 * Plays the API server's dynamic admission for one request at a time, following the Kubernetes documentation of
 * dynamic admission control: which webhooks are called (namespaceSelector, objectSelector, rules with matchPolicy,
 * matchConditions), mutating webhooks in order with each patch applied before the next call and one reinvocation
 * round for {@code IfNeeded} webhooks, then every validating webhook concurrently on the final object;
 * failurePolicy on call errors, timeouts and bad responses; dry run against sideEffects.
 */
public final class Simulator implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final Configurations configurations;
    private final WebhookClient client;
    private final MatchConditionEvaluator conditions;
    private final AdmissionCodec codec = new AdmissionCodec();
    private final ExecutorService validators = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "validating-webhook");
        t.setDaemon(true);
        return t;
    });

    public Simulator(Configurations configurations, WebhookClient client, MatchConditionEvaluator conditions) {
        this.configurations = configurations;
        this.client = client;
        this.conditions = conditions;
    }

    @Override
    public void close() {
        validators.shutdownNow();
    }

    /** What the API server knows about the request, before any webhook. */
    private record Attributes(String uid, Operation operation, GroupVersionKind kind, GroupVersionResource resource,
            String name, String namespace, ObjectNode oldObject, ReviewSettings settings, ObjectNode namespaceObject) {
    }

    /** Whom to call and with which resource/kind (differs from the request's under matchPolicy Equivalent). */
    private record Invocation(GroupVersionResource resource, GroupVersionKind kind) {
    }

    /** The decision on whether to call a webhook: an invocation, or a reason not to call, or an error. */
    private record Decision(Invocation invocation, String skipReason, String error) {
    }

    /** Thrown inside the chain when the request is rejected; carries the status the client sees. */
    private static final class Rejection extends Exception {
        final int code;

        Rejection(int code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }

    /** Everything one request accumulates. */
    private static final class Trace {
        final List<CallRecord> calls = new ArrayList<>();
        final List<String> warnings = new ArrayList<>();
        final Map<String, String> audit = new LinkedHashMap<>();
        final List<String> notes = new ArrayList<>();
    }

    public ManifestReport review(InputManifest manifest, ReviewSettings settings) {
        return review(manifest, settings, null);
    }

    /**
     * @param served the kind's resource and scope as the cluster's discovery tells them (tollgate audit), or null to
     *               look them up in {@link KnownResources}
     */
    public ManifestReport review(InputManifest manifest, ReviewSettings settings, KnownResources.Info served) {
        Trace trace = new Trace();
        String apiVersion = manifest.apiVersion();
        int slash = apiVersion.indexOf('/');
        GroupVersionKind gvk = GroupVersionKind.of(slash < 0 ? "" : apiVersion.substring(0, slash),
                slash < 0 ? apiVersion : apiVersion.substring(slash + 1), manifest.kind());
        KnownResources.Info info = served != null ? served
                : KnownResources.lookup(gvk, !manifest.namespace().isEmpty());
        if (!info.known()) {
            trace.notes.add("kind " + gvk + " is not a built-in kind: assumed resource '" + info.resource() + "', "
                    + (info.namespaced() ? "namespaced" : "cluster-scoped"));
        }
        GroupVersionResource gvr = GroupVersionResource.of(gvk.group(), gvk.version(), info.resource());
        boolean namespaceKind = gvr.group().isEmpty() && gvr.resource().equals("namespaces");
        String namespace = info.namespaced()
                ? (manifest.namespace().isEmpty() ? settings.defaultNamespace() : manifest.namespace())
                : namespaceKind ? manifest.name() : "";
        ObjectNode submitted = manifest.object().deepCopy();
        // Strict field validation, Warn (the API server's default): unknown fields are reported and dropped before
        // admission, so webhooks never see them.
        trace.warnings.addAll(BuiltInSchemas.dropUnknownFields(gvk, submitted));
        if (info.namespaced()) {
            // The API server sets the request's namespace on an object that names none.
            submitted.withObject("/metadata").put("namespace", namespace);
        } else if (!manifest.namespace().isEmpty()) {
            trace.notes.add("metadata.namespace is ignored: " + gvk.kind() + " is cluster-scoped");
        }
        // Decoding into the Go type writes quantities in canonical form and refuses malformed ones (Quantities).
        List<String> requantified = decodeQuantities(manifest, gvk, submitted);
        if (!requantified.isEmpty()) {
            trace.notes.add("quantities in the API server's canonical form: " + String.join(", ", requantified));
        }
        // The API server decodes the object with its type's defaults before admission (Defaulting), so webhooks see
        // and patch defaulted objects; a stored old object is defaulted as well.
        List<String> defaulted = Defaulting.apply(gvk, submitted);
        Operation op = settings.operation();
        ObjectNode object = op == Operation.DELETE ? null : submitted;
        ObjectNode oldObject = switch (op) {
            case DELETE -> submitted;
            case UPDATE -> settings.oldObject(gvk.kind(), namespace, manifest.name()).map(old -> {
                ObjectNode copy = old.deepCopy();
                decodeQuantities(manifest, gvk, copy);
                Defaulting.apply(gvk, copy);
                return copy;
            }).orElseThrow(
                    () -> new InputException(manifest.source() + ": UPDATE needs the old " + gvk.kind() + " "
                            + namespace + "/" + manifest.name() + " (give it with --old)"));
            default -> null;
        };
        ObjectNode namespaceObject = null;
        if (!namespace.isEmpty() && !namespaceKind) {
            namespaceObject = settings.namespaceObjects().get(namespace);
            if (namespaceObject == null) {
                namespaceObject = ReviewSettings.assumedNamespace(namespace);
                trace.notes.add("namespace " + namespace + " was not given (--namespaces): assumed to exist with "
                        + "only the label " + ReviewSettings.NAME_LABEL + "=" + namespace);
            }
        } else if (namespaceKind) {
            // The namespace's own labels decide namespaceSelector for CREATE/UPDATE; the stored one for DELETE.
            namespaceObject = op == Operation.DELETE ? oldObject : object;
        }
        Attributes attrs = new Attributes(UUID.randomUUID().toString(), op, gvk, gvr, manifest.name(), namespace,
                oldObject, settings, namespaceObject);

        ObjectNode current = object;
        boolean allowed = true;
        int code = 200;
        String message = "";
        if (KnownResources.exemptFromWebhooks(gvr)) {
            trace.notes.add("the API server never calls webhooks for " + gvr.group() + " resources");
        } else {
            // The functions this process serves (the CLI's bundle, tests' in-process functions) see the namespaces
            // given here as the webhooks' matching does; those not given are the functions' own (issue 45).
            try (var given = SimulatedNamespaces.register(attrs.uid, settings.namespaceObjects()::get)) {
                current = mutate(attrs, object, trace);
                validate(attrs, current, trace);
            } catch (Rejection r) {
                allowed = false;
                code = r.code;
                message = r.getMessage();
            }
        }
        ArrayNode patch = object == null || current == null ? F.arrayNode() : JsonPatches.diff(object, current);
        // Validating calls finish in any order; report in calling order.
        trace.calls.sort(java.util.Comparator.comparing((CallRecord c) -> c.phase().equals("mutating") ? 0 : 1)
                .thenComparingInt(CallRecord::round).thenComparingInt(CallRecord::index));
        return new ManifestReport(manifest.source(), gvk.kind(), namespace, manifest.name(), op.name(),
                settings.dryRun(), allowed, code, message, List.copyOf(trace.calls), shown(trace.warnings),
                Map.copyOf(trace.audit), List.copyOf(trace.notes), submitted, op == Operation.DELETE ? null : current,
                patch, defaulted);
    }

    /**
     * The request's warnings as the client sees them: unknown fields first, then each webhook's in calling order,
     * through the API server's recorder (deduplicated; cut and dropped only past 4096 characters in total).
     */
    private static List<String> shown(List<String> warnings) {
        WarningRecorder recorder = new WarningRecorder();
        warnings.forEach(recorder::add);
        return recorder.warnings();
    }

    // ---- mutating ------------------------------------------------------------------------------------------

    private ObjectNode mutate(Attributes attrs, ObjectNode object, Trace trace) throws Rejection {
        List<Webhook> hooks = configurations.mutating();
        Set<Integer> reinvocable = new HashSet<>(); // IfNeeded webhooks called so far
        Set<Integer> toReinvoke = new HashSet<>();
        ObjectNode current = object;
        for (int round = 0; round < 2; round++) {
            if (round == 1 && toReinvoke.isEmpty()) {
                break;
            }
            for (Webhook hook : hooks) {
                if (round == 1 && !toReinvoke.contains(hook.index())) {
                    continue;
                }
                Decision d = decide(hook, attrs, current);
                if (d.skipReason != null) {
                    if (round == 0) {
                        trace.calls.add(record(hook, round, Result.SKIPPED, d.skipReason, 0, null, List.of()));
                    }
                    continue;
                }
                if (d.error != null) {
                    failed(hook, round, trace, "failed to evaluate matchConditions: " + d.error, 0);
                    continue;
                }
                checkDryRun(hook, attrs, round, trace);
                ObjectNode sent = convert(current, d.invocation, attrs.kind);
                Answer a = call(hook, attrs, d.invocation, sent, round, trace);
                if (a == null) {
                    continue; // failed open
                }
                ObjectNode next = current;
                ArrayNode patch = a.patch;
                if (patch != null && current != null) {
                    try {
                        JsonNode patched = JsonPatches.apply(patch, sent);
                        if (!patched.isObject()) {
                            throw new IllegalArgumentException("the patched object is not a JSON object");
                        }
                        next = convertBack((ObjectNode) patched, attrs.kind);
                    } catch (RuntimeException e) {
                        trace.calls.add(record(hook, round, Result.REJECTED, "patch does not apply: " + e.getMessage(),
                                a.micros, patch, a.warnings));
                        throw new Rejection(500, "Internal error occurred: " + e.getMessage());
                    }
                }
                if (next != current) {
                    // Decoding the patched object into its type drops fields the type does not have and writes its
                    // quantities in canonical form, before "mutated" is decided (so 0.5 for 500m is no change).
                    BuiltInSchemas.dropUnknownFields(attrs.kind, next);
                    try {
                        Quantities.canonicalize(attrs.kind, next);
                    } catch (Quantities.InvalidQuantity e) {
                        // mutating/dispatcher.go: the patched object does not decode, an internal error.
                        trace.calls.add(record(hook, round, Result.REJECTED, "patched object does not decode: "
                                + e.getMessage(), a.micros, patch, a.warnings));
                        throw new Rejection(500, "Internal error occurred: " + e.getMessage());
                    }
                }
                boolean changed = next != null && !next.equals(current);
                if (changed) {
                    // As the API server: "mutated" compares the patched object with the one sent; then the patched
                    // object gets its type's defaults again (mutating/dispatcher.go).
                    Defaulting.apply(attrs.kind, next);
                }
                String key = "round_" + round + "_index_" + hook.index();
                ObjectNode mutation = F.objectNode().put("configuration", hook.configuration())
                        .put("webhook", hook.name()).put("mutated", changed);
                trace.audit.put("mutation.webhook.admission.k8s.io/" + key, mutation.toString());
                if (patch != null && !patch.isEmpty()) {
                    ObjectNode p = F.objectNode().put("configuration", hook.configuration()).put("webhook", hook.name());
                    p.set("patch", patch);
                    p.put("patchType", "JSONPatch");
                    trace.audit.put("patch.webhook.admission.k8s.io/" + key, p.toString());
                }
                String operations = changed ? patch.size() + " patch operation" + (patch.size() == 1 ? "" : "s") : "";
                trace.calls.add(record(hook, round, changed ? Result.PATCHED : Result.ALLOWED,
                        operations.isEmpty() || a.note.isEmpty() ? operations + a.note : operations + "; " + a.note,
                        a.micros, changed ? patch : null, a.warnings));
                if (changed) {
                    current = next;
                    // The object changed: earlier IfNeeded webhooks must see it again.
                    toReinvoke.addAll(reinvocable);
                }
                if (hook.reinvokeIfNeeded()) {
                    reinvocable.add(hook.index());
                }
            }
        }
        return current;
    }

    // ---- validating ----------------------------------------------------------------------------------------

    private void validate(Attributes attrs, ObjectNode object, Trace trace) throws Rejection {
        record Outcome(Trace trace, Rejection rejection) {
        }
        List<Future<Outcome>> pending = new ArrayList<>();
        Rejection first = null;
        for (Webhook hook : configurations.validating()) {
            Decision d = decide(hook, attrs, object);
            if (d.skipReason != null) {
                trace.calls.add(record(hook, 0, Result.SKIPPED, d.skipReason, 0, null, List.of()));
                continue;
            }
            try {
                if (d.error != null) {
                    failed(hook, 0, trace, "failed to evaluate matchConditions: " + d.error, 0);
                    continue;
                }
                checkDryRun(hook, attrs, 0, trace);
            } catch (Rejection r) {
                first = first == null ? r : first;
                continue;
            }
            ObjectNode sent = convert(object, d.invocation, attrs.kind);
            // Every validating webhook is called at once, on the same final object; each keeps its own trace.
            pending.add(validators.submit(() -> {
                Trace own = new Trace();
                try {
                    call(hook, attrs, d.invocation, sent, 0, own);
                    return new Outcome(own, null);
                } catch (Rejection r) {
                    return new Outcome(own, r);
                }
            }));
        }
        for (Future<Outcome> p : pending) {
            Outcome outcome;
            try {
                outcome = p.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Rejection(500, "Internal error occurred: interrupted");
            } catch (ExecutionException e) {
                throw new IllegalStateException("validating webhook call crashed", e.getCause());
            }
            trace.calls.addAll(outcome.trace.calls);
            trace.warnings.addAll(outcome.trace.warnings);
            trace.audit.putAll(outcome.trace.audit);
            if (outcome.rejection != null) {
                first = first == null ? outcome.rejection : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    // ---- one webhook ---------------------------------------------------------------------------------------

    /** Whether the API server calls this webhook for this request, in its order of checks. */
    private Decision decide(Webhook hook, Attributes attrs, ObjectNode object) {
        // namespaceSelector: cluster-scoped resources other than namespaces are never excluded by it.
        boolean namespaceKind = attrs.resource.group().isEmpty() && attrs.resource.resource().equals("namespaces");
        if (!(attrs.namespace.isEmpty() && !namespaceKind) && !hook.namespaceSelector().matchesEverything()) {
            JsonNode ns = attrs.namespaceObject;
            java.util.Map<String, String> labels = ns == null ? Map.of()
                    : dev.tollgate.admission.KubeObject.stringMap(ns.path("metadata").path("labels"));
            if (!hook.namespaceSelector().matches(labels)) {
                return skip("namespaceSelector does not match namespace " + attrs.namespace);
            }
        }
        if (!hook.objectSelector().matchesEverything()) {
            boolean matches = matchesObject(hook, object) || matchesObject(hook, attrs.oldObject);
            if (!matches) {
                return skip("objectSelector does not match the object's labels");
            }
        }
        Invocation invocation = null;
        List<Rule> rules = hook.rules();
        for (Rule rule : rules) {
            if (rule.matches(attrs.operation, attrs.resource, "", attrs.namespace)) {
                invocation = new Invocation(attrs.resource, attrs.kind);
                break;
            }
        }
        if (invocation == null && hook.equivalentMatchPolicy()) {
            outer:
            for (Rule rule : rules) {
                for (GroupVersionResource eq : KnownResources.equivalents(attrs.resource)) {
                    if (rule.matches(attrs.operation, eq, "", attrs.namespace)) {
                        Optional<GroupVersionKind> kind = KnownResources.kindFor(eq, attrs.kind.kind());
                        if (kind.isPresent()) {
                            invocation = new Invocation(eq, kind.get());
                            break outer;
                        }
                    }
                }
            }
        }
        if (invocation == null) {
            return skip("no rule matches " + attrs.operation + " " + resourceText(attrs.resource));
        }
        if (!hook.matchConditions().isEmpty()) {
            AdmissionRequest request;
            try {
                ObjectNode review = review(ReviewVersion.V1, attrs, invocation, convert(object, invocation,
                        attrs.kind));
                request = codec.decode(review).request();
            } catch (ReviewDecodeException e) {
                return new Decision(null, null, e.getMessage());
            }
            MatchConditionEvaluator.Result r = conditions.evaluate(hook, request, attrs.namespaceObject);
            switch (r.outcome()) {
                case NO_MATCH:
                    return skip("matchConditions: " + r.detail());
                case ERROR:
                    return new Decision(null, null, r.detail());
                default:
                    break;
            }
        }
        return new Decision(invocation, null, null);
    }

    private static Decision skip(String reason) {
        return new Decision(null, reason, null);
    }

    private static boolean matchesObject(Webhook hook, ObjectNode object) {
        return object != null && hook.objectSelector().matches(
                dev.tollgate.admission.KubeObject.stringMap(object.path("metadata").path("labels")));
    }

    private static void checkDryRun(Webhook hook, Attributes attrs, int round, Trace trace) throws Rejection {
        if (attrs.settings.dryRun() && !hook.supportsDryRun()) {
            String msg = "admission webhook \"" + hook.name() + "\" does not support dry run";
            trace.calls.add(record(hook, round, Result.REJECTED, msg + " (sideEffects " + hook.sideEffects() + ")",
                    0, null, List.of()));
            throw new Rejection(400, msg);
        }
    }

    /**
     * Quantities as decoding gives them; a malformed one is refused as the API server's create and update handlers
     * refuse it (apiserver endpoints/handlers/rest.go transformDecodeError, 400).
     */
    private static List<String> decodeQuantities(InputManifest manifest, GroupVersionKind gvk, ObjectNode object) {
        try {
            return Quantities.canonicalize(gvk, object);
        } catch (Quantities.InvalidQuantity e) {
            throw new InputException(manifest.source() + ": " + gvk.kind() + " in version \"" + gvk.version()
                    + "\" cannot be handled as a " + gvk.kind() + ": " + e.getMessage(), e);
        }
    }

    /** A successful call's answer: allowed, with an optional patch. */
    private record Answer(ArrayNode patch, List<String> warnings, long micros, String note) {
    }

    /**
     * Calls the webhook; returns its answer when allowed, null when the call failed and failurePolicy is Ignore,
     * and throws a {@link Rejection} for a denial or a failure under Fail.
     */
    private Answer call(Webhook hook, Attributes attrs, Invocation invocation, ObjectNode object, int round,
            Trace trace) throws Rejection {
        Optional<ReviewVersion> version = hook.reviewVersion();
        if (version.isEmpty()) {
            failed(hook, round, trace, "webhook does not accept any AdmissionReview version Tollgate sends (v1, "
                    + "v1beta1)", 0);
            return null;
        }
        ObjectNode review = review(version.get(), attrs, invocation, object);
        byte[] body = review.toString().getBytes(StandardCharsets.UTF_8);
        long start = System.nanoTime();
        WebhookClient.Answer answer;
        try {
            answer = client.post(hook, body);
        } catch (WebhookClient.CallFailure e) {
            failed(hook, round, trace, "failed to call webhook: " + e.getMessage(), micros(start));
            return null;
        }
        long micros = micros(start);
        if (!ClientErrors.isAnswer(answer.status())) {
            // The API server's words (mutating/dispatcher.go, validating/dispatcher.go): "failed to call webhook: "
            // and client-go's error for the HTTP answer, which relays a Status body's message.
            failed(hook, round, trace, "failed to call webhook: " + ClientErrors.forResponse(answer.status(),
                    answer.contentType(), answer.body()), micros);
            return null;
        }
        // A body the client cannot decode is a call error in client-go's words (AnswerDecoding).
        AnswerDecoding.Decoded decoded = AnswerDecoding.decode(answer.status(), answer.contentType(), answer.body());
        if (decoded.error() != null) {
            failed(hook, round, trace, "failed to call webhook: " + decoded.error(), micros);
            return null;
        }
        JsonNode response = decoded.body();
        List<String> problems = ResponseChecks.problems(review, response, hook.mutating());
        if (!problems.isEmpty()) {
            failed(hook, round, trace, "received invalid webhook response: " + String.join("; ", problems), micros);
            return null;
        }
        JsonNode resp = response.get("response");
        List<String> warnings = new ArrayList<>();
        resp.path("warnings").forEach(w -> warnings.add(w.asText()));
        trace.warnings.addAll(warnings);
        resp.path("auditAnnotations").fields().forEachRemaining(e -> trace.audit.put(hook.name() + "/" + e.getKey(),
                e.getValue().asText()));
        if (!resp.path("allowed").asBoolean()) {
            JsonNode status = resp.path("status");
            String msg = status.path("message").asText("");
            String reason = status.path("reason").asText("");
            String denied = "admission webhook \"" + hook.name() + "\" denied the request";
            String full = !msg.isEmpty() ? denied + ": " + msg : !reason.isEmpty() ? denied + ": " + reason
                    : denied + " without explanation";
            int code = Math.max(status.path("code").asInt(0), 400);
            trace.calls.add(record(hook, round, Result.DENIED, full, micros, null, warnings));
            throw new Rejection(code, full);
        }
        ArrayNode patch = null;
        if (resp.hasNonNull("patch")) {
            try {
                patch = (ArrayNode) JSON.readTree(Base64.getDecoder().decode(resp.path("patch").asText()));
            } catch (java.io.IOException | IllegalArgumentException | ClassCastException e) {
                trace.calls.add(record(hook, round, Result.REJECTED, "patch cannot be decoded", micros, null,
                        warnings));
                throw new Rejection(500, "Internal error occurred: the patch of webhook \"" + hook.name()
                        + "\" cannot be decoded");
            }
        }
        String note = enforcementNote(resp);
        if (!hook.mutating()) {
            trace.calls.add(record(hook, round, Result.ALLOWED, note, micros, null, warnings));
        }
        return new Answer(patch, warnings, micros, note);
    }

    /** How a call's detail starts when an exception allowed the request in the function. */
    public static final String EXCEPTED = "excepted by ";
    /** How a call's detail starts when an exception's matchCondition kept the request from the webhook. */
    public static final String EXCEPTED_BY_CONDITION = "matchConditions: " + EXCEPTED;
    /** How a call's detail starts when a function in audit mode allowed what its policy denied. */
    public static final String AUDIT_DENIED = "audit mode: the policy denied: ";

    /**
     * What a Tollgate function's allowed answer says beyond the verdict (shared/function-runtime README,
     * "Enforcement modes" and "Exceptions the function applies"): the exception that allowed the request, or, in
     * audit and warn mode, the decision the policy made and that was not enforced. Empty for any other answer.
     */
    static String enforcementNote(JsonNode response) {
        JsonNode audit = response.path("auditAnnotations");
        if (audit.hasNonNull(AdmissionHandler.EXCEPTED_BY)) {
            return EXCEPTED + audit.path(AdmissionHandler.EXCEPTED_BY).asText() + " (applied by the function)";
        }
        List<String> notes = new ArrayList<>();
        if (audit.hasNonNull(EnforcedVerdict.WOULD_DENY)) {
            notes.add(AUDIT_DENIED + audit.path(EnforcedVerdict.WOULD_DENY).asText());
        }
        if (audit.hasNonNull(EnforcedVerdict.WOULD_PATCH)) {
            int ops;
            try {
                ops = JSON.readTree(audit.path(EnforcedVerdict.WOULD_PATCH).asText()).size();
            } catch (java.io.IOException e) {
                ops = -1; // cut at the annotation's length limit: no longer a whole patch
            }
            notes.add("audit mode: the policy's patch was not sent" + (ops < 0 ? ""
                    : " (" + ops + " operation" + (ops == 1 ? "" : "s") + ")"));
        }
        for (JsonNode w : response.path("warnings")) {
            if (w.asText().startsWith(EnforcedVerdict.WARNING_PREFIX)) {
                notes.add("warn mode: the policy denied, answered as a warning");
                break;
            }
        }
        return String.join("; ", notes);
    }

    /** A call error: rejects under failurePolicy Fail, records and goes on under Ignore. */
    private static void failed(Webhook hook, int round, Trace trace, String error, long micros) throws Rejection {
        // The API server's message carries the whole URL; the simulator prints it without secrets (SecretUrls).
        String message = "failed calling webhook \"" + hook.name() + "\": " + SecretUrls.redactIn(error);
        if (hook.ignoreFailures()) {
            trace.calls.add(record(hook, round, Result.FAILED_OPEN, message + " (failurePolicy Ignore)", micros, null,
                    List.of()));
            String key = (hook.mutating() ? "failed-open.mutation.webhook.admission.k8s.io/round_" + round
                    : "failed-open.validating.webhook.admission.k8s.io/round_0") + "_index_" + hook.index();
            trace.audit.put(key, hook.name());
            return;
        }
        trace.calls.add(record(hook, round, Result.FAILED_CLOSED, message + " (failurePolicy Fail)", micros, null,
                List.of()));
        throw new Rejection(500, "Internal error occurred: " + message);
    }

    private static CallRecord record(Webhook hook, int round, Result result, String detail, long micros,
            ArrayNode patch, List<String> warnings) {
        return new CallRecord(hook.mutating() ? "mutating" : "validating", round, hook.index(), hook.configuration(),
                hook.name(), result, detail, micros, patch, List.copyOf(warnings));
    }

    private static long micros(long start) {
        return Math.max(1, (System.nanoTime() - start) / 1000);
    }

    private static String resourceText(GroupVersionResource gvr) {
        return (gvr.group().isEmpty() ? "" : gvr.group() + "/") + gvr.version() + " " + gvr.resource();
    }

    // ---- the review the API server sends -------------------------------------------------------------------

    /** The object as the webhook receives it: for an equivalent resource, in that version. */
    private static ObjectNode convert(ObjectNode object, Invocation inv, GroupVersionKind requested) {
        if (object == null || inv.kind.equals(requested)) {
            return object;
        }
        // Only the apiVersion changes: the equivalent versions Tollgate knows share the fields policies read.
        ObjectNode copy = object.deepCopy();
        copy.put("apiVersion", inv.kind.apiVersion());
        return copy;
    }

    private static ObjectNode convertBack(ObjectNode object, GroupVersionKind requested) {
        if (!requested.apiVersion().equals(object.path("apiVersion").asText())) {
            object.put("apiVersion", requested.apiVersion());
        }
        return object;
    }

    private static ObjectNode review(ReviewVersion version, Attributes a, Invocation inv, ObjectNode object) {
        ObjectNode review = F.objectNode();
        review.put("apiVersion", ReviewKind.ADMISSION.apiVersion(version));
        review.put("kind", "AdmissionReview");
        ObjectNode req = review.putObject("request");
        req.put("uid", a.uid);
        req.set("kind", gvk(inv.kind));
        req.set("resource", gvr(inv.resource));
        req.set("requestKind", gvk(a.kind));
        req.set("requestResource", gvr(a.resource));
        if (!a.name.isEmpty()) {
            req.put("name", a.name);
        }
        if (!a.namespace.isEmpty()) {
            req.put("namespace", a.namespace);
        }
        req.put("operation", a.operation.name());
        ObjectNode user = req.putObject("userInfo");
        user.put("username", a.settings.username());
        ArrayNode groups = user.putArray("groups");
        a.settings.groups().forEach(groups::add);
        req.set("object", object == null ? F.nullNode() : object);
        ObjectNode old = a.oldObject == null ? null : convert(a.oldObject, inv, a.kind);
        req.set("oldObject", old == null ? F.nullNode() : old);
        req.put("dryRun", a.settings.dryRun());
        ObjectNode options = req.putObject("options");
        options.put("apiVersion", "meta.k8s.io/v1");
        options.put("kind", switch (a.operation) {
            case CREATE -> "CreateOptions";
            case UPDATE -> "UpdateOptions";
            default -> "DeleteOptions";
        });
        if (a.settings.dryRun()) {
            options.putArray("dryRun").add("All");
        }
        return review;
    }

    private static ObjectNode gvk(GroupVersionKind k) {
        return F.objectNode().put("group", k.group()).put("version", k.version()).put("kind", k.kind());
    }

    private static ObjectNode gvr(GroupVersionResource r) {
        return F.objectNode().put("group", r.group()).put("version", r.version()).put("resource", r.resource());
    }
}
