package dev.tollgate.simulator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.tollgate.admission.GroupVersionKind;
import dev.tollgate.admission.GroupVersionResource;

/**
 * What the API server's discovery would tell: the resource and scope of a kind, and which group/versions serve the
 * same resource (for matchPolicy Equivalent). Built-in kinds are listed; other kinds get the usual lowercase plural
 * and a scope guessed from metadata.namespace, and the report says so.
 */
public final class KnownResources {

    /** A kind's resource name and whether it is namespaced. */
    public record Info(String resource, boolean namespaced, boolean known) {
    }

    private static final Map<String, Info> BY_GROUP_KIND = new HashMap<>();
    // Resources served under several group/versions: each list is one resource, preferred version first.
    private static final List<List<GroupVersionResource>> EQUIVALENTS = new ArrayList<>();

    static {
        namespaced("", "Pod", "pods");
        namespaced("", "Service", "services");
        namespaced("", "ConfigMap", "configmaps");
        namespaced("", "Secret", "secrets");
        namespaced("", "ServiceAccount", "serviceaccounts");
        namespaced("", "PersistentVolumeClaim", "persistentvolumeclaims");
        namespaced("", "ReplicationController", "replicationcontrollers");
        namespaced("", "Endpoints", "endpoints");
        namespaced("", "Event", "events");
        namespaced("", "LimitRange", "limitranges");
        namespaced("", "ResourceQuota", "resourcequotas");
        namespaced("", "PodTemplate", "podtemplates");
        cluster("", "Namespace", "namespaces");
        cluster("", "Node", "nodes");
        cluster("", "PersistentVolume", "persistentvolumes");
        namespaced("apps", "Deployment", "deployments");
        namespaced("apps", "StatefulSet", "statefulsets");
        namespaced("apps", "DaemonSet", "daemonsets");
        namespaced("apps", "ReplicaSet", "replicasets");
        namespaced("apps", "ControllerRevision", "controllerrevisions");
        namespaced("extensions", "Deployment", "deployments");
        namespaced("extensions", "DaemonSet", "daemonsets");
        namespaced("extensions", "ReplicaSet", "replicasets");
        namespaced("extensions", "Ingress", "ingresses");
        namespaced("extensions", "NetworkPolicy", "networkpolicies");
        namespaced("batch", "Job", "jobs");
        namespaced("batch", "CronJob", "cronjobs");
        namespaced("networking.k8s.io", "Ingress", "ingresses");
        namespaced("networking.k8s.io", "NetworkPolicy", "networkpolicies");
        cluster("networking.k8s.io", "IngressClass", "ingressclasses");
        namespaced("policy", "PodDisruptionBudget", "poddisruptionbudgets");
        namespaced("autoscaling", "HorizontalPodAutoscaler", "horizontalpodautoscalers");
        namespaced("rbac.authorization.k8s.io", "Role", "roles");
        namespaced("rbac.authorization.k8s.io", "RoleBinding", "rolebindings");
        cluster("rbac.authorization.k8s.io", "ClusterRole", "clusterroles");
        cluster("rbac.authorization.k8s.io", "ClusterRoleBinding", "clusterrolebindings");
        cluster("storage.k8s.io", "StorageClass", "storageclasses");
        cluster("scheduling.k8s.io", "PriorityClass", "priorityclasses");
        cluster("node.k8s.io", "RuntimeClass", "runtimeclasses");
        cluster("apiextensions.k8s.io", "CustomResourceDefinition", "customresourcedefinitions");
        cluster("admissionregistration.k8s.io", "MutatingWebhookConfiguration", "mutatingwebhookconfigurations");
        cluster("admissionregistration.k8s.io", "ValidatingWebhookConfiguration", "validatingwebhookconfigurations");
        cluster("admissionregistration.k8s.io", "ValidatingAdmissionPolicy", "validatingadmissionpolicies");
        cluster("admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding",
                "validatingadmissionpolicybindings");
        cluster("admissionregistration.k8s.io", "MutatingAdmissionPolicy", "mutatingadmissionpolicies");
        cluster("admissionregistration.k8s.io", "MutatingAdmissionPolicyBinding", "mutatingadmissionpolicybindings");

        equivalent("deployments", "apps/v1", "apps/v1beta2", "apps/v1beta1", "extensions/v1beta1");
        equivalent("daemonsets", "apps/v1", "apps/v1beta2", "extensions/v1beta1");
        equivalent("replicasets", "apps/v1", "apps/v1beta2", "extensions/v1beta1");
        equivalent("statefulsets", "apps/v1", "apps/v1beta2", "apps/v1beta1");
        equivalent("ingresses", "networking.k8s.io/v1", "networking.k8s.io/v1beta1", "extensions/v1beta1");
        equivalent("networkpolicies", "networking.k8s.io/v1", "extensions/v1beta1");
        equivalent("cronjobs", "batch/v1", "batch/v1beta1");
        equivalent("poddisruptionbudgets", "policy/v1", "policy/v1beta1");
        equivalent("horizontalpodautoscalers", "autoscaling/v2", "autoscaling/v1", "autoscaling/v2beta2");
    }

    private KnownResources() {
    }

    private static void namespaced(String group, String kind, String resource) {
        BY_GROUP_KIND.put(group + "/" + kind, new Info(resource, true, true));
    }

    private static void cluster(String group, String kind, String resource) {
        BY_GROUP_KIND.put(group + "/" + kind, new Info(resource, false, true));
    }

    private static void equivalent(String resource, String... groupVersions) {
        List<GroupVersionResource> list = new ArrayList<>();
        for (String gv : groupVersions) {
            int slash = gv.indexOf('/');
            list.add(GroupVersionResource.of(gv.substring(0, slash), gv.substring(slash + 1), resource));
        }
        EQUIVALENTS.add(List.copyOf(list));
    }

    /**
     * The resource of a kind; for a kind not listed, the lowercase plural and the scope the object suggests
     * (namespaced when it names a namespace).
     */
    public static Info lookup(GroupVersionKind gvk, boolean hasNamespace) {
        Info known = BY_GROUP_KIND.get(gvk.group() + "/" + gvk.kind());
        if (known != null) {
            return known;
        }
        return BuiltInSchemas.lookup(gvk).map(b -> new Info(b.resource(), b.namespaced(), true))
                .orElseGet(() -> new Info(plural(gvk.kind()), hasNamespace, false));
    }

    /** The other group/versions serving the same resource, in preference order (empty when none are known). */
    public static List<GroupVersionResource> equivalents(GroupVersionResource gvr) {
        for (List<GroupVersionResource> set : EQUIVALENTS) {
            if (set.contains(gvr)) {
                return set.stream().filter(e -> !e.equals(gvr)).toList();
            }
        }
        return List.of();
    }

    /** The kind an equivalent resource is served as (the same kind name in the other group/version). */
    public static Optional<GroupVersionKind> kindFor(GroupVersionResource gvr, String kind) {
        Info info = BY_GROUP_KIND.get(gvr.group() + "/" + kind);
        return info != null && info.resource().equals(gvr.resource())
                ? Optional.of(GroupVersionKind.of(gvr.group(), gvr.version(), kind)) : Optional.empty();
    }

    /**
     * The API server never sends its own admission configuration objects to webhooks, so that a bad webhook cannot
     * lock out the means to fix it.
     */
    public static boolean exemptFromWebhooks(GroupVersionResource gvr) {
        return gvr.group().equals("admissionregistration.k8s.io");
    }

    static String plural(String kind) {
        return dev.tollgate.cel.admission.KubernetesModels.plural(kind);
    }
}
