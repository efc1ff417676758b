package dev.tollgate.knative;

import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeoutException;

import javax.net.ssl.SSLException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabric8.knative.client.KnativeClient;
import io.fabric8.knative.serving.v1.Service;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Creates or updates the functions' Knative Services, waits until each is Ready, and reports their URLs; lists and
 * deletes them. Every cluster failure becomes a {@link DeployException} that says what to do.
 */
public final class Deployer {

    /** Time and sleeping, replaceable so tests run the wait loop without waiting. */
    public interface Ticker {
        long nanoTime();

        void sleep(Duration d) throws InterruptedException;

        Ticker SYSTEM = new Ticker() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public void sleep(Duration d) throws InterruptedException {
                Thread.sleep(d.toMillis());
            }
        };
    }

    /**
     * @param timeout      how long to wait for every service to become Ready
     * @param pollInterval how often to read their status
     * @param failWindow   how long Ready=False may last before the deploy fails (Knative reports False briefly
     *                     while a revision is replaced)
     */
    public record WaitOptions(Duration timeout, Duration pollInterval, Duration failWindow) {
        public static final WaitOptions DEFAULT = new WaitOptions(Duration.ofMinutes(5), Duration.ofSeconds(1),
                Duration.ofSeconds(10));
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesClient kube;
    private final KnativeClient knative;
    private final String namespace;
    private final PrintWriter progress;
    private final Ticker ticker;

    public Deployer(KubernetesClient kube, String namespace, PrintWriter progress, Ticker ticker) {
        this.kube = kube;
        this.knative = kube.adapt(KnativeClient.class);
        this.namespace = namespace;
        this.progress = progress;
        this.ticker = ticker;
    }

    public String namespace() {
        return namespace;
    }

    /**
     * Applies the manifests (with the image moved to {@code registry} and {@code tag} when given), waits for Ready,
     * and returns function name -> HTTPS URL.
     */
    public Map<String, String> deploy(List<ServiceManifest> manifests, String registry, String tag,
            WaitOptions wait) {
        List<Violation> problems = new ArrayList<>();
        for (ServiceManifest m : manifests) {
            KnativeRules.DEFAULTS.check(m).forEach(v -> problems.add(new Violation(m.source() + " " + v.path(),
                    v.message())));
        }
        if (!problems.isEmpty()) {
            throw new DeployException("the manifests break Knative's rules, nothing was deployed:\n  "
                    + String.join("\n  ", problems.stream().map(Violation::toString).toList()));
        }
        preflight();
        checkSecrets(manifests);
        checkConfigMaps(manifests);
        checkServiceAccounts(manifests);
        Map<String, Service> applied = new LinkedHashMap<>();
        for (ServiceManifest m : manifests) {
            Service svc = toService(m, registry, tag);
            applied.put(m.name(), apply(svc));
        }
        Map<String, ServiceState> ready = await(applied.keySet(), wait);
        Map<String, String> urls = new TreeMap<>();
        List<String> notHttps = new ArrayList<>();
        ready.forEach((name, state) -> {
            if (!state.url().startsWith("https://")) {
                notHttps.add(name + " -> " + (state.url().isEmpty() ? "(no URL)" : state.url()));
            }
            urls.put(name, state.url());
        });
        if (!notHttps.isEmpty()) {
            throw new DeployException("the services are Ready, but the API server calls webhooks over HTTPS only "
                    + "and these URLs are not https: " + notHttps + ". Enable Knative external-domain TLS "
                    + "(knative/README.md, section HTTPS) and deploy again.");
        }
        return urls;
    }

    /** The state of each manifest's service in the namespace. */
    public List<ServiceState> status(List<ServiceManifest> manifests) {
        preflight();
        List<ServiceState> out = new ArrayList<>();
        for (ServiceManifest m : manifests) {
            out.add(read(m.name()));
        }
        return out;
    }

    /** Deletes each manifest's service; returns the names that existed. */
    public List<String> delete(List<ServiceManifest> manifests) {
        preflight();
        List<String> deleted = new ArrayList<>();
        for (ServiceManifest m : manifests) {
            try {
                var result = knative.services().inNamespace(namespace).withName(m.name()).delete();
                if (result != null && !result.isEmpty()) {
                    deleted.add(m.name());
                    progress.println(m.name() + ": deleted");
                } else {
                    progress.println(m.name() + ": not deployed in " + namespace);
                }
            } catch (KubernetesClientException e) {
                throw translate(e, "delete service " + m.name());
            }
        }
        return deleted;
    }

    /** Reachability, credentials and Knative Serving's API, checked once before anything is changed. */
    void preflight() {
        try {
            knative.services().inNamespace(namespace).list();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                throw new DeployException("Knative Serving is not installed in the cluster at "
                        + kube.getMasterUrl() + ": it does not serve serving.knative.dev/v1 services. Install "
                        + "Knative Serving (https://knative.dev/docs/install/) and try again.", e);
            }
            throw translate(e, "list Knative services in namespace " + namespace);
        }
    }

    /**
     * Every secret the manifests read (an env var's secretKeyRef, or a secret volume; a file named by an env var
     * under the volume's mount path is a key it needs) must exist with those keys, or the revision never starts.
     */
    void checkSecrets(List<ServiceManifest> manifests) {
        Map<String, java.util.Set<String>> needed = new TreeMap<>();
        for (ServiceManifest m : manifests) {
            JsonNode spec = m.tree().path("spec").path("template").path("spec");
            Map<String, String> secretVolumes = new TreeMap<>();
            for (JsonNode v : spec.path("volumes")) {
                JsonNode secret = v.path("secret");
                if (secret.isObject() && !secret.path("optional").asBoolean(false)) {
                    secretVolumes.put(v.path("name").asText(), secret.path("secretName").asText());
                    needed.computeIfAbsent(secret.path("secretName").asText(), k -> new java.util.TreeSet<>());
                }
            }
            for (JsonNode c : spec.path("containers")) {
                Map<String, String> mountedSecrets = new TreeMap<>(); // mount path -> secret
                for (JsonNode mount : c.path("volumeMounts")) {
                    String secret = secretVolumes.get(mount.path("name").asText());
                    if (secret != null) {
                        mountedSecrets.put(mount.path("mountPath").asText().replaceAll("/+$", ""), secret);
                    }
                }
                for (JsonNode env : c.path("env")) {
                    JsonNode ref = env.path("valueFrom").path("secretKeyRef");
                    if (ref.isObject() && !ref.path("optional").asBoolean(false)) {
                        needed.computeIfAbsent(ref.path("name").asText(), k -> new java.util.TreeSet<>())
                                .add(ref.path("key").asText());
                    }
                    for (String file : env.path("value").asText("").split(",")) {
                        int slash = file.lastIndexOf('/');
                        String secret = slash > 0 ? mountedSecrets.get(file.substring(0, slash)) : null;
                        if (secret != null) {
                            needed.get(secret).add(file.substring(slash + 1));
                        }
                    }
                }
            }
        }
        List<String> missing = new ArrayList<>();
        needed.forEach((name, keys) -> {
            Secret secret;
            try {
                secret = kube.secrets().inNamespace(namespace).withName(name).get();
            } catch (KubernetesClientException e) {
                throw translate(e, "read secret " + name);
            }
            if (secret == null && keys.isEmpty()) {
                missing.add(name);
            }
            for (String key : keys) {
                boolean has = secret != null && ((secret.getData() != null && secret.getData().containsKey(key))
                        || (secret.getStringData() != null && secret.getStringData().containsKey(key)));
                if (!has) {
                    missing.add(name + "/" + key);
                }
            }
        });
        if (!missing.isEmpty()) {
            throw new DeployException("the functions read these secret keys, which do not exist in namespace "
                    + namespace + ": " + missing + ". Create them first, e.g. kubectl create secret generic "
                    + "tollgate-auth -n " + namespace + " --from-literal=path-tokens=\"$(openssl rand -hex 24)\" "
                    + "(knative/README.md, section Caller token).");
        }
    }

    /** Every ConfigMap mounted as a volume (the CEL functions' policy files) must exist, or the pod never starts. */
    void checkConfigMaps(List<ServiceManifest> manifests) {
        java.util.Set<String> needed = new java.util.TreeSet<>();
        for (ServiceManifest m : manifests) {
            for (JsonNode v : m.tree().path("spec").path("template").path("spec").path("volumes")) {
                JsonNode cm = v.path("configMap");
                if (cm.isObject() && !cm.path("optional").asBoolean(false)) {
                    needed.add(cm.path("name").asText());
                }
            }
        }
        List<String> missing = new ArrayList<>();
        for (String name : needed) {
            try {
                if (kube.configMaps().inNamespace(namespace).withName(name).get() == null) {
                    missing.add(name);
                }
            } catch (KubernetesClientException e) {
                throw translate(e, "read config map " + name);
            }
        }
        if (!missing.isEmpty()) {
            throw new DeployException("the functions mount these config maps, which do not exist in namespace "
                    + namespace + ": " + missing + ". Create them first from your policy files, e.g. kubectl create "
                    + "configmap " + missing.get(0) + " -n " + namespace + " --from-file=<policy files>.");
        }
    }

    /**
     * Every ServiceAccount a Service runs as (the CEL functions: get on namespaces) must exist, or Knative cannot
     * create its pods; knative/rbac/ holds them with their RBAC.
     */
    void checkServiceAccounts(List<ServiceManifest> manifests) {
        java.util.Map<String, String> needed = new java.util.TreeMap<>();
        for (ServiceManifest m : manifests) {
            String account = m.tree().path("spec").path("template").path("spec").path("serviceAccountName").asText("");
            if (!account.isEmpty()) {
                needed.putIfAbsent(account, m.name());
            }
        }
        List<String> missing = new ArrayList<>();
        List<String> files = new ArrayList<>();
        needed.forEach((account, function) -> {
            try {
                if (kube.serviceAccounts().inNamespace(namespace).withName(account).get() == null) {
                    missing.add(account);
                    files.add("knative/rbac/" + function + ".yaml");
                }
            } catch (KubernetesClientException e) {
                throw translate(e, "read service account " + account);
            }
        });
        if (!missing.isEmpty()) {
            throw new DeployException("the functions run as these service accounts, which do not exist in namespace "
                    + namespace + ": " + missing + ". Create them and their RBAC first: kubectl apply -f "
                    + String.join(" -f ", files) + " (knative/README.md, section Namespaces from the cluster).");
        }
    }

    private Service toService(ServiceManifest manifest, String registry, String tag) {
        return JSON.convertValue(applied(manifest, namespace, registry, tag), Service.class);
    }

    /**
     * The Service the deployer applies for a manifest: the manifest in {@code namespace}, its image moved to
     * {@code registry} and {@code tag} when given (shared/terraform-tests compares it with what Terraform applies).
     */
    public static ObjectNode applied(ServiceManifest manifest, String namespace, String registry, String tag) {
        ObjectNode tree = manifest.tree().deepCopy();
        ((ObjectNode) tree.path("metadata")).put("namespace", namespace);
        if (registry != null || tag != null) {
            ObjectNode container = (ObjectNode) tree.path("spec").path("template").path("spec").path("containers")
                    .get(0);
            container.put("image", deployedImage(manifest, registry, tag));
        }
        return tree;
    }

    /** The image a manifest is deployed with: its own, moved to {@code registry} and {@code tag} when given. */
    public static String deployedImage(ServiceManifest manifest, String registry, String tag) {
        ImageRef image = ImageRef.parse(manifest.tree().path("spec").path("template").path("spec").path("containers")
                .path(0).path("image").asText());
        if (registry != null) {
            image = image.withRegistry(registry);
        }
        if (tag != null) {
            image = image.withTag(tag);
        }
        return image.toString();
    }

    private Service apply(Service svc) {
        String name = svc.getMetadata().getName();
        try {
            var resource = knative.services().inNamespace(namespace).withName(name);
            Service existing = resource.get();
            Service result;
            if (existing == null) {
                result = knative.services().inNamespace(namespace).resource(svc).create();
                progress.println(name + ": created in " + namespace + " (image " + image(svc) + ")");
            } else {
                svc.getMetadata().setResourceVersion(existing.getMetadata().getResourceVersion());
                result = knative.services().inNamespace(namespace).resource(svc).update();
                progress.println(name + ": updated in " + namespace + " (image " + image(svc) + ")");
            }
            return result;
        } catch (KubernetesClientException e) {
            throw translate(e, "apply service " + name);
        }
    }

    private static String image(Service svc) {
        return svc.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
    }

    private ServiceState read(String name) {
        try {
            return ServiceState.of(name, knative.services().inNamespace(namespace).withName(name).get());
        } catch (KubernetesClientException e) {
            throw translate(e, "read service " + name);
        }
    }

    /** Polls until every named service is Ready for its latest spec, printing each change of state. */
    Map<String, ServiceState> await(java.util.Collection<String> names, WaitOptions wait) {
        long start = ticker.nanoTime();
        long deadline = start + wait.timeout().toNanos();
        Map<String, ServiceState> ready = new TreeMap<>();
        Map<String, String> lastSummary = new TreeMap<>();
        Map<String, Long> failedSince = new TreeMap<>();
        List<String> pending = new ArrayList<>(names);
        long nextHeartbeat = start + Duration.ofSeconds(15).toNanos();
        while (true) {
            for (var it = pending.iterator(); it.hasNext();) {
                String name = it.next();
                ServiceState state = read(name);
                String elapsed = elapsed(start);
                if (state.isReady()) {
                    progress.println(elapsed + " " + name + ": Ready at " + (state.url().isEmpty() ? "(no URL)"
                            : state.url()) + " (revision " + state.latestRevision() + ")");
                    ready.put(name, state);
                    it.remove();
                    continue;
                }
                if (!state.exists()) {
                    throw new DeployException(name + " disappeared from namespace " + namespace
                            + " while waiting for it to become Ready");
                }
                String summary = state.summary();
                if (!summary.equals(lastSummary.put(name, summary))) {
                    progress.println(elapsed + " " + name + ": " + summary);
                }
                if (state.isFailed()) {
                    long since = failedSince.computeIfAbsent(name, k -> ticker.nanoTime());
                    if (ticker.nanoTime() - since >= wait.failWindow().toNanos()) {
                        throw new DeployException(name + " failed to become Ready: " + state.conditionList()
                                + ". Inspect it with: kubectl describe ksvc " + name + " -n " + namespace);
                    }
                } else {
                    failedSince.remove(name);
                }
            }
            if (pending.isEmpty()) {
                return ready;
            }
            long now = ticker.nanoTime();
            if (now >= deadline) {
                StringBuilder sb = new StringBuilder("timed out after " + wait.timeout().toSeconds()
                        + "s waiting for Ready:");
                for (String name : pending) {
                    ServiceState s = read(name);
                    sb.append("\n  ").append(name).append(": ").append(s.summary()).append("\n    conditions: ")
                            .append(s.conditionList());
                }
                sb.append("\nInspect with: kubectl get ksvc,revisions,pods -n ").append(namespace);
                throw new DeployException(sb.toString());
            }
            if (now >= nextHeartbeat) {
                progress.println(elapsed(start) + " still waiting for " + pending);
                nextHeartbeat = now + Duration.ofSeconds(15).toNanos();
            }
            try {
                ticker.sleep(wait.pollInterval());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DeployException("interrupted while waiting for " + pending, e);
            }
        }
    }

    private String elapsed(long start) {
        return String.format(Locale.ROOT, "[%6.1fs]", (ticker.nanoTime() - start) / 1e9);
    }

    /** Turns a client failure into a message about the cause: unreachable, refused credentials, forbidden, ... */
    DeployException translate(KubernetesClientException e, String action) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof UnknownHostException
                    || t instanceof NoRouteToHostException || t instanceof HttpConnectTimeoutException
                    || t instanceof TimeoutException || t instanceof java.net.SocketTimeoutException) {
                return new DeployException("cannot reach the cluster at " + kube.getMasterUrl() + " ("
                        + t.getClass().getSimpleName() + ": " + t.getMessage() + "). Check the kubeconfig context "
                        + "(--context) and that the API server is up.", e);
            }
            if (t instanceof SSLException) {
                return new DeployException("TLS handshake with the cluster at " + kube.getMasterUrl() + " failed: "
                        + t.getMessage(), e);
            }
        }
        return switch (e.getCode()) {
            case 401 -> new DeployException("the cluster at " + kube.getMasterUrl() + " refused the credentials "
                    + "(HTTP 401) while trying to " + action + ". Log in again or choose another --context.", e);
            case 403 -> new DeployException("not allowed to " + action + " (HTTP 403): " + reason(e), e);
            default -> new DeployException("could not " + action + (e.getCode() > 0 ? " (HTTP " + e.getCode() + ")"
                    : "") + ": " + reason(e), e);
        };
    }

    private static String reason(KubernetesClientException e) {
        if (e.getStatus() != null && e.getStatus().getMessage() != null) {
            return e.getStatus().getMessage();
        }
        return e.getMessage();
    }
}
