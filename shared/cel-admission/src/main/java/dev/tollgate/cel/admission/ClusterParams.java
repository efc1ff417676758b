package dev.tollgate.cel.admission;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.match.LabelSelector;
import dev.tollgate.admission.match.LabelSyntax;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * One cluster's param objects, read from its Kubernetes API on demand through that cluster's read-only
 * {@link ClusterConnection}: the API server keeps an informer per paramKind; a function that scales to zero asks
 * for what a review needs and keeps it for a short time ({@link Settings}), as {@link ClusterNamespaces} does for
 * namespaces. The kind's resource and scope come from the cluster's discovery ({@code GET /api/v1},
 * {@code GET /apis/<group>/<version>}), the objects from {@code GET .../<resource>/<name>} (paramRef.name) or
 * {@code LIST .../<resource>?labelSelector=...} (paramRef.selector). Concurrent reviews share one request per key;
 * failures are not kept, and neither is a name that is not found, so a param created a moment ago is seen at once
 * (upstream GETs the API server directly when its informer misses a name:
 * k8s.io/apiserver pkg/admission/plugin/policy/generic/policy_dispatcher.go, CollectParams and getParamDirectly).
 * RBAC: get and list on each param resource (terraform's cluster-registration: {@code param_resources}).
 */
public final class ClusterParams implements ParamSource {

    /** Cache and call limits. */
    public record Settings(Duration ttl, int maxEntries, Duration timeout) {
        public Settings {
            if (ttl.isNegative()) {
                throw new IllegalArgumentException("param cache TTL must not be negative, got " + ttl);
            }
            if (maxEntries < 1) {
                throw new IllegalArgumentException("param cache size must be at least 1, got " + maxEntries);
            }
            if (timeout.isZero() || timeout.isNegative()) {
                throw new IllegalArgumentException("param lookup timeout must be positive, got " + timeout);
            }
        }

        /** 30 s, 1000 lookups, 2 s per request. */
        public static Settings defaults() {
            return new Settings(Duration.ofSeconds(30), 1000, Duration.ofSeconds(2));
        }
    }

    /** A paramKind's resource in this cluster, as discovery reports it. */
    record Resource(String group, String version, String plural, boolean namespaced) {
    }

    private record Query(Params.Kind kind, String namespace, String name, String selector) {
    }

    /** A query's namespace that lists a namespaced kind in every namespace (not a DNS label, so never a real one). */
    private static final String EVERY_NAMESPACE = "*";

    private final ClusterConnection connection;
    private final Settings settings;
    private KubernetesClient client; // built at the first lookup; guarded by this
    private final AtomicLong calls = new AtomicLong();
    private final LookupCache<Params.Kind, Optional<Resource>> resources;
    private final LookupCache<Query, List<ObjectNode>> objects;

    public ClusterParams(ClusterConnection connection, Settings settings) {
        this(connection, settings, System::nanoTime);
    }

    ClusterParams(ClusterConnection connection, Settings settings, LongSupplier clock) {
        this.connection = connection;
        this.settings = settings;
        this.resources = new LookupCache<>(settings.ttl(), settings.maxEntries(), clock);
        this.objects = new LookupCache<>(settings.ttl(), settings.maxEntries(), clock);
    }

    @Override
    public String describe() {
        return "from the Kubernetes API (" + connection.describe() + ") (cached " + settings.ttl().toSeconds()
                + " s, at most " + settings.maxEntries() + ")";
    }

    /** How many requests were sent, discovery included (for tests and diagnostics). */
    public long apiCalls() {
        return calls.get();
    }

    /**
     * The API server refuses a policy whose paramKind names no resource it serves, with
     * {@code failed to find resource referenced by paramKind: '<group>/<version>, Kind=<kind>'}
     * (k8s.io/apiserver pkg/admission/plugin/policy/generic/policy_source.go, ensureParamsForPolicyLocked).
     */
    @Override
    public void checkKind(Params.Kind kind) {
        resource(kind);
    }

    @Override
    public List<ObjectNode> collect(Params.Kind kind, Params.Ref ref, AdmissionRequest request) {
        if (kind == null || ref == null) {
            return Params.nothingToCollect();
        }
        Resource resource = resource(kind);
        return Params.collect(ref, request, resource.namespaced(), (namespace, r) -> {
            if (!r.name().isEmpty() && !validName(r.name()) || !namespace.isEmpty() && !LabelSyntax.isDnsLabel(
                    namespace)) {
                // Not a name the API server could hold; never put it into a URL.
                return List.of();
            }
            Query q = new Query(kind, namespace, r.name(), r.name().isEmpty() ? selector(r.selector()) : null);
            try {
                return objects.get(q, x -> fetch(resource, x));
            } catch (NotFound e) {
                return List.of(); // not kept: the next review asks again, as upstream's direct GET on a miss
            }
        });
    }

    /**
     * Every object of the kind in the cluster (all namespaces; none when the cluster does not serve the kind): one LIST, cached as a param lookup is (the TTL, the
     * size bound, one request shared by concurrent reviews, failures not kept).
     */
    @Override
    public List<ObjectNode> everything(Params.Kind kind) {
        Optional<Resource> served;
        try {
            served = resources.get(kind, this::discover);
        } catch (NamespaceLookupException e) {
            throw new Params.ParamException(notFound(kind) + " (discovery: " + e.getMessage() + ")");
        }
        if (served.isEmpty()) {
            return List.of(); // a kind the cluster does not serve has no objects (Gatekeeper syncs none either)
        }
        Resource resource = served.get();
        return objects.get(new Query(kind, EVERY_NAMESPACE, "", ""), x -> fetch(resource, x));
    }

    private Resource resource(Params.Kind kind) {
        Optional<Resource> r;
        try {
            r = resources.get(kind, this::discover);
        } catch (NamespaceLookupException e) {
            throw new Params.ParamException(notFound(kind) + " (discovery: " + e.getMessage() + ")");
        }
        return r.orElseThrow(() -> new Params.ParamException(notFound(kind)));
    }

    private static String notFound(Params.Kind kind) {
        int slash = kind.apiVersion().indexOf('/');
        String gvk = (slash < 0 ? "/" + kind.apiVersion() : kind.apiVersion()) + ", Kind=" + kind.kind();
        return "failed to find resource referenced by paramKind: '" + gvk + "'";
    }

    private Optional<Resource> discover(Params.Kind kind) {
        KubernetesClient c = client();
        calls.incrementAndGet();
        String apiVersion = kind.apiVersion();
        String path = apiVersion.contains("/") ? "/apis/" + apiVersion : "/api/" + apiVersion;
        APIResourceList list;
        try {
            list = c.getApiResources(apiVersion);
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return Optional.empty(); // the group/version is not served
            }
            throw ClusterNamespaces.failure(c, e, path, "get " + path);
        }
        if (list == null || list.getResources() == null) {
            return Optional.empty();
        }
        int slash = apiVersion.indexOf('/');
        for (APIResource r : list.getResources()) {
            // Subresources (deployments/scale) share the kind of something else.
            if (kind.kind().equals(r.getKind()) && r.getName() != null && !r.getName().contains("/")) {
                return Optional.of(new Resource(slash < 0 ? "" : apiVersion.substring(0, slash),
                        apiVersion.substring(slash + 1), r.getName(), Boolean.TRUE.equals(r.getNamespaced())));
            }
        }
        return Optional.empty();
    }

    private List<ObjectNode> fetch(Resource resource, Query q) {
        KubernetesClient c = client();
        calls.incrementAndGet();
        var context = new ResourceDefinitionContext.Builder().withGroup(resource.group())
                .withVersion(resource.version()).withKind(q.kind().kind()).withPlural(resource.plural())
                .withNamespaced(resource.namespaced()).build();
        var all = c.genericKubernetesResources(context);
        boolean everywhere = EVERY_NAMESPACE.equals(q.namespace());
        var op = resource.namespaced() ? all.inNamespace(q.namespace()) : all;
        String path = (resource.group().isEmpty() ? "/api/" : "/apis/" + resource.group() + "/") + resource.version()
                + (resource.namespaced() && !everywhere ? "/namespaces/" + q.namespace() : "") + "/"
                + resource.plural();
        try {
            if (!q.name().isEmpty()) {
                GenericKubernetesResource one = op.withName(q.name()).get();
                if (one == null) {
                    throw new NotFound();
                }
                return List.of(object(c, q.kind(), one));
            }
            List<ObjectNode> found = new ArrayList<>();
            var items = resource.namespaced() && everywhere ? all.inAnyNamespace().list().getItems()
                    : op.withLabelSelector(q.selector()).list().getItems();
            for (GenericKubernetesResource o : items) {
                found.add(object(c, q.kind(), o));
            }
            return List.copyOf(found);
        } catch (KubernetesClientException e) {
            String what = (q.name().isEmpty() ? "list " : "get ") + resource.plural()
                    + (q.name().isEmpty() ? "" : " " + q.name());
            throw new Params.ParamException(ClusterNamespaces.failure(c, e, path + (q.name().isEmpty() ? ""
                    : "/" + q.name()), what).getMessage());
        }
    }

    // Items of a list carry no apiVersion and kind; a param from the files has them, so one from the API does too.
    private static ObjectNode object(KubernetesClient c, Params.Kind kind, GenericKubernetesResource r) {
        ObjectNode o = c.getKubernetesSerialization().convertValue(r, ObjectNode.class);
        o.put("apiVersion", kind.apiVersion());
        o.put("kind", kind.kind());
        return o;
    }

    private synchronized KubernetesClient client() {
        if (client == null) {
            try {
                client = connection.client(settings.timeout());
            } catch (RuntimeException e) {
                throw new Params.ParamException(connection.describe() + ": " + e.getMessage());
            }
        }
        return client;
    }

    /**
     * The selector as the API's {@code labelSelector} query (k8s.io/apimachinery pkg/labels/selector.go: {@code k in
     * (a,b)}, {@code k notin (a,b)}, {@code k}, {@code !k}), requirements and values sorted, so one selector written
     * two ways is one cache entry.
     */
    static String selector(LabelSelector selector) {
        TreeSet<String> parts = new TreeSet<>();
        for (LabelSelector.Requirement r : selector.requirements()) {
            String values = "(" + String.join(",", new TreeSet<>(r.values())) + ")";
            parts.add(switch (r.operator()) {
                case In -> r.key() + " in " + values;
                case NotIn -> r.key() + " notin " + values;
                case Exists -> r.key();
                case DoesNotExist -> "!" + r.key();
            });
        }
        return String.join(",", parts);
    }

    private static boolean validName(String name) {
        // Object names are DNS subdomains (most kinds) or path segments; what cannot be a path segment is refused.
        return !name.isEmpty() && !name.equals(".") && !name.equals("..") && !name.contains("/")
                && !name.contains("%") && name.length() <= 253;
    }

    /** Thrown inside a lookup so that a name not found is not kept (the lookup of that key answers empty). */
    private static final class NotFound extends RuntimeException {
        NotFound() {
            super(null, null, false, false);
        }
    }
}
