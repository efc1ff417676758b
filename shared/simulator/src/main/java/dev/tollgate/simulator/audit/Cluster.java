package dev.tollgate.simulator.audit;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import javax.net.ssl.SSLException;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.simulator.InputException;
import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIGroupList;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * The cluster as audit reads it, through the fabric8 client: discovery, paged lists, namespaces, webhook
 * configurations, and (only for {@code --apply}) writing PolicyReports. Every failure becomes a one-line
 * {@link ClusterException} naming the host and what was being done.
 */
public final class Cluster implements AutoCloseable {

    private final KubernetesClient client;

    public Cluster(KubernetesClient client) {
        this.client = client;
    }

    /**
     * The user's cluster: {@code kubeconfig} when given, else the usual lookup (KUBECONFIG, ~/.kube/config, then the
     * in-cluster service account, as a Job gets it); {@code context} picks a kubeconfig context.
     */
    public static Cluster connect(Path kubeconfig, String context) {
        Config config;
        if (kubeconfig != null) {
            if (!Files.isReadable(kubeconfig)) {
                throw new InputException("--kubeconfig " + kubeconfig + ": cannot read it ("
                        + (Files.exists(kubeconfig) ? "not readable" : "no such file") + ")");
            }
            config = Config.fromKubeconfig(context, kubeconfig.toFile());
        } else {
            config = Config.autoConfigure(context);
        }
        if (context != null && (config.getCurrentContext() == null
                || !context.equals(config.getCurrentContext().getName()))) {
            throw new InputException("--context " + context + ": no such context in the kubeconfig");
        }
        // Fail within seconds on an unreachable cluster instead of retrying for minutes.
        config.setConnectionTimeout(10_000);
        config.setRequestTimeout(60_000);
        config.setRequestRetryBackoffLimit(1);
        return new Cluster(new KubernetesClientBuilder().withConfig(config).build());
    }

    public String host() {
        return String.valueOf(client.getMasterUrl());
    }

    @Override
    public void close() {
        client.close();
    }

    // ---- discovery ---------------------------------------------------------------------------------------

    /**
     * What the API server serves, for the groups {@code wanted} accepts (the core group is ""): each group's
     * versions in its priority order and the resources of each (subresources left out).
     */
    public Discovery discover(Predicate<String> wanted) {
        List<ServedResource> served = new ArrayList<>();
        Map<String, List<String>> versions = new LinkedHashMap<>();
        try {
            if (wanted.test("")) {
                List<String> core = client.getAPIVersions().getVersions();
                versions.put("", List.copyOf(core));
                for (String v : core) {
                    resources("", v, client.getApiResources(v), served);
                }
            }
            APIGroupList groups = client.getApiGroups();
            for (APIGroup g : groups == null ? List.<APIGroup>of() : groups.getGroups()) {
                if (!wanted.test(g.getName())) {
                    continue;
                }
                // The preferred version first, then the others in the server's (priority) order.
                List<String> order = new ArrayList<>();
                if (g.getPreferredVersion() != null) {
                    order.add(g.getPreferredVersion().getVersion());
                }
                for (GroupVersionForDiscovery v : g.getVersions()) {
                    if (!order.contains(v.getVersion())) {
                        order.add(v.getVersion());
                    }
                }
                versions.put(g.getName(), List.copyOf(order));
                for (String v : order) {
                    resources(g.getName(), v, client.getApiResources(g.getName() + "/" + v), served);
                }
            }
        } catch (KubernetesClientException e) {
            throw translate(e, "read the API discovery");
        }
        return new Discovery(served, versions);
    }

    private static void resources(String group, String version, APIResourceList list, List<ServedResource> out) {
        if (list == null) {
            return; // announced but not served (an aggregated API that is down): nothing to list there
        }
        for (APIResource r : list.getResources()) {
            if (r.getName().contains("/")) {
                continue; // subresources carry no objects of their own to list
            }
            out.add(new ServedResource(group, version, r.getName(), r.getKind(),
                    Boolean.TRUE.equals(r.getNamespaced()), r.getVerbs() == null ? List.of() : r.getVerbs()));
        }
    }

    // ---- reading -----------------------------------------------------------------------------------------

    /** One page of a list: its objects (apiVersion and kind set), the continue token, the count still to come. */
    public record Page(List<ObjectNode> items, String continueToken, Long remainingItemCount) {
    }

    /**
     * One page of objects, as client-go's pager asks for them ({@code limit}, then {@code continue}).
     *
     * @param namespace the namespace, or null for all namespaces (and for cluster-scoped resources)
     */
    public Page list(ServedResource r, String namespace, String labelSelector, long limit, String continueToken) {
        ListOptionsBuilder options = new ListOptionsBuilder().withLimit(limit);
        if (continueToken != null && !continueToken.isEmpty()) {
            options.withContinue(continueToken);
        }
        if (labelSelector != null && !labelSelector.isEmpty()) {
            options.withLabelSelector(labelSelector);
        }
        ListOptions built = options.build();
        var op = client.genericKubernetesResources(context(r));
        GenericKubernetesResourceList list;
        try {
            list = !r.namespaced() ? op.list(built)
                    : namespace == null ? op.inAnyNamespace().list(built) : op.inNamespace(namespace).list(built);
        } catch (KubernetesClientException e) {
            String what = "list " + r + (!r.namespaced() ? "" : namespace == null ? " in all namespaces"
                    : " in namespace " + namespace);
            if (e.getCode() == 410 && built.getContinue() != null) {
                throw new ContinueExpired(translate(e, what).getMessage(), e);
            }
            throw translate(e, what);
        }
        List<ObjectNode> items = new ArrayList<>(list.getItems().size());
        for (GenericKubernetesResource item : list.getItems()) {
            // fabric8's own serialization (its modules know the typed metadata), straight into a tree.
            ObjectNode o = client.getKubernetesSerialization().convertValue(item, ObjectNode.class);
            // List items do not always repeat apiVersion and kind; the simulator needs both.
            o.put("apiVersion", r.apiVersion());
            o.put("kind", r.kind());
            items.add(o);
        }
        var meta = list.getMetadata();
        return new Page(items, meta == null ? null : meta.getContinue(),
                meta == null ? null : meta.getRemainingItemCount());
    }

    /**
     * The continue token of a long list expired (HTTP 410: etcd compacted the revision it pointed to); the list
     * must start again.
     */
    public static final class ContinueExpired extends ClusterException {
        ContinueExpired(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Every object of a resource (for small ones: namespaces, webhook configurations), page by page. */
    public List<ObjectNode> listAll(ServedResource r, long pageSize) {
        List<ObjectNode> out = new ArrayList<>();
        String token = null;
        do {
            Page page = list(r, null, null, pageSize, token);
            out.addAll(page.items());
            token = page.continueToken();
        } while (token != null && !token.isEmpty());
        return out;
    }

    // ---- writing (--apply only) --------------------------------------------------------------------------

    /** Creates the object, or replaces the one of the same name: PolicyReports only. */
    public void createOrReplace(ServedResource r, ObjectNode object) {
        GenericKubernetesResource resource = client.getKubernetesSerialization().convertValue(object,
                GenericKubernetesResource.class);
        String ns = object.path("metadata").path("namespace").asText("");
        var op = client.genericKubernetesResources(context(r));
        try {
            if (r.namespaced()) {
                op.inNamespace(ns).resource(resource).createOr(NonDeletingOperation::update);
            } else {
                op.resource(resource).createOr(NonDeletingOperation::update);
            }
        } catch (KubernetesClientException e) {
            throw translate(e, "write " + r.kind() + " " + (ns.isEmpty() ? "" : ns + "/")
                    + object.path("metadata").path("name").asText());
        }
    }

    private static ResourceDefinitionContext context(ServedResource r) {
        return new ResourceDefinitionContext.Builder().withGroup(r.group()).withVersion(r.version())
                .withPlural(r.resource()).withKind(r.kind()).withNamespaced(r.namespaced()).build();
    }

    // ---- errors ------------------------------------------------------------------------------------------

    /** The cause in one line: unreachable, TLS, refused credentials, forbidden, or the server's own message. */
    ClusterException translate(KubernetesClientException e, String action) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof UnknownHostException
                    || t instanceof NoRouteToHostException || t instanceof java.net.http.HttpConnectTimeoutException
                    || t instanceof java.util.concurrent.TimeoutException
                    || t instanceof java.net.SocketTimeoutException) {
                return new ClusterException("cannot reach the cluster at " + host() + " to " + action + " ("
                        + t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage())
                        + "); check --kubeconfig/--context and that the API server is up", e);
            }
            if (t instanceof SSLException) {
                return new ClusterException("TLS with the cluster at " + host() + " failed while trying to " + action
                        + ": " + t.getMessage(), e);
            }
        }
        return switch (e.getCode()) {
            case 401 -> new ClusterException("the cluster at " + host() + " refused the credentials (HTTP 401) "
                    + "when asked to " + action + "; log in again or choose another --context", e);
            case 403 -> new ClusterException("the cluster at " + host() + " does not allow to " + action
                    + " (HTTP 403: " + reason(e) + "); grant the ClusterRole in shared/simulator/rbac/"
                    + "tollgate-audit.yaml", e);
            default -> new ClusterException("the cluster at " + host() + " could not " + action
                    + (e.getCode() > 0 ? " (HTTP " + e.getCode() + ")" : "") + ": " + reason(e), e);
        };
    }

    private static String reason(KubernetesClientException e) {
        if (e.getStatus() != null && e.getStatus().getMessage() != null) {
            return e.getStatus().getMessage();
        }
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
