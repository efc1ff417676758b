package dev.tollgate.simulator;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.GroupVersionKind;

/**
 * The API server's defaulting for pods, pod templates and the workloads that hold them, applied to the object before
 * the mutating webhooks and again after each patch, as the API server does (the webhooks see and patch defaulted
 * objects; mutating/dispatcher.go defaults the patched object). The defaults are upstream's at Kubernetes 1.30 and
 * later with the default feature gates:
 *
 * <ul>
 * <li>{@code pkg/apis/core/v1/defaults.go} and its generated {@code zz_generated.defaults.go}: pod spec
 * ({@code SetDefaults_PodSpec}: dnsPolicy, restartPolicy, securityContext, terminationGracePeriodSeconds,
 * schedulerName), pod only ({@code SetDefaults_Pod}: enableServiceLinks, requests from limits, host ports under
 * hostNetwork), containers of every list ({@code SetDefaults_Container}: imagePullPolicy from the image's tag,
 * terminationMessagePath, terminationMessagePolicy; port protocol; fieldRef apiVersion; probes and HTTP handlers),
 * volumes (emptyDir when no source, modes, hostPath type, service-account token expiry, the legacy drivers' fields),
 * ReplicationController (selector and labels from the template, replicas); and, beyond pods, Namespace (the
 * {@code kubernetes.io/metadata.name} label namespaceSelectors rely on, phase) and Service (type, session affinity,
 * port protocol and targetPort, traffic policies).</li>
 * <li>{@code pkg/apis/apps/v1/defaults.go}: Deployment, StatefulSet, DaemonSet, ReplicaSet.</li>
 * <li>{@code pkg/apis/batch/v1/defaults.go}: Job (with podReplacementPolicy, on by default since 1.29) and CronJob.
 * </li>
 * </ul>
 *
 * Only {@code v1}, {@code apps/v1} and {@code batch/v1} objects are defaulted; other kinds and versions reach the
 * webhooks as written. The canonical form of quantities is {@link Quantities}'. Not simulated: what the store sets
 * outside defaulting (uid, creationTimestamp, generation).
 */
public final class Defaulting {

    /** The kinds this class defaults, as {@code apiVersion/kind}. */
    public static final Set<String> KINDS = Set.of("v1/Pod", "v1/PodTemplate", "v1/ReplicationController",
            "v1/Namespace", "v1/Service",
            "apps/v1/Deployment", "apps/v1/StatefulSet", "apps/v1/DaemonSet", "apps/v1/ReplicaSet", "batch/v1/Job",
            "batch/v1/CronJob");

    private static final List<String> CONTAINER_LISTS = List.of("initContainers", "containers",
            "ephemeralContainers");
    private static final List<String> PROBES = List.of("livenessProbe", "readinessProbe", "startupProbe");

    private Defaulting() {
    }

    public static boolean defaults(GroupVersionKind gvk) {
        return KINDS.contains(gvk.apiVersion() + "/" + gvk.kind());
    }

    /**
     * Applies the defaults to {@code object} in place.
     *
     * @return the paths of the fields set (e.g. {@code spec.containers[0].imagePullPolicy}); empty when none or when
     *         the kind is not defaulted
     */
    public static List<String> apply(GroupVersionKind gvk, ObjectNode object) {
        Fields set = new Fields();
        if (object == null || !defaults(gvk)) {
            return set.paths;
        }
        ObjectNode spec = object.path("spec").isObject() ? (ObjectNode) object.get("spec") : null;
        switch (gvk.kind()) {
            case "Pod" -> {
                if (spec != null) {
                    podOnly(spec, "spec", set);
                    podSpec(spec, "spec", set);
                }
            }
            case "PodTemplate" -> template(object.path("template"), "template", set);
            case "Namespace" -> namespace(object, set);
            case "Service" -> {
                if (spec != null) {
                    service(spec, set);
                }
            }
            case "ReplicationController" -> {
                if (spec != null) {
                    replicationController(object, spec, set);
                    template(spec.path("template"), "spec.template", set);
                }
            }
            case "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet" -> {
                if (spec != null) {
                    apps(gvk.kind(), spec, set);
                    template(spec.path("template"), "spec.template", set);
                }
            }
            case "Job" -> {
                if (spec != null) {
                    job(object, spec, set);
                    template(spec.path("template"), "spec.template", set);
                }
            }
            case "CronJob" -> {
                if (spec != null) {
                    cronJob(spec, set);
                    JsonNode jobSpec = spec.path("jobTemplate").path("spec");
                    template(jobSpec.path("template"), "spec.jobTemplate.spec.template", set);
                }
            }
            default -> {
            }
        }
        return set.paths;
    }

    // ---- the fields set, with their paths ---------------------------------------------------------------------

    private static final class Fields {
        final List<String> paths = new ArrayList<>();

        /** Sets a string field that is missing, null or empty (Go's zero value counts as unset). */
        void text(ObjectNode node, String field, String value, String at) {
            JsonNode current = node.get(field);
            if (current == null || current.isNull() || (current.isTextual() && current.asText().isEmpty())) {
                node.put(field, value);
                paths.add(at + "." + field);
            }
        }

        /** Sets a pointer field that is missing or null (an explicit zero stays). */
        void number(ObjectNode node, String field, long value, String at) {
            if (absent(node, field)) {
                node.put(field, value);
                paths.add(at + "." + field);
            }
        }

        /** Sets an int32 field whose zero value means unset (probe timings). */
        void nonZero(ObjectNode node, String field, int value, String at) {
            JsonNode current = node.get(field);
            if (current == null || current.isNull() || (current.isNumber() && current.asLong() == 0)) {
                node.put(field, value);
                paths.add(at + "." + field);
            }
        }

        void bool(ObjectNode node, String field, boolean value, String at) {
            if (absent(node, field)) {
                node.put(field, value);
                paths.add(at + "." + field);
            }
        }

        /** The object at {@code field}, created (and recorded) when missing or null. */
        ObjectNode object(ObjectNode node, String field, String at) {
            JsonNode current = node.get(field);
            if (current != null && current.isObject()) {
                return (ObjectNode) current;
            }
            paths.add(at + "." + field);
            return node.putObject(field);
        }

        /** A pointer to an int-or-string field: set when missing or null. */
        void intOrString(ObjectNode node, String field, Object value, String at) {
            if (absent(node, field)) {
                if (value instanceof Integer i) {
                    node.put(field, i);
                } else {
                    node.put(field, (String) value);
                }
                paths.add(at + "." + field);
            }
        }

        private static boolean absent(ObjectNode node, String field) {
            JsonNode current = node.get(field);
            return current == null || current.isNull();
        }
    }

    private static ObjectNode obj(JsonNode node) {
        return node != null && node.isObject() ? (ObjectNode) node : null;
    }

    // ---- pods --------------------------------------------------------------------------------------------------

    private static void template(JsonNode template, String at, Fields set) {
        ObjectNode spec = obj(template.path("spec"));
        if (spec != null) {
            podSpec(spec, at + ".spec", set);
        }
    }

    /** SetDefaults_Pod: what only a Pod gets, not a pod template. */
    private static void podOnly(ObjectNode spec, String at, Fields set) {
        for (String list : List.of("containers", "initContainers")) {
            int i = 0;
            for (JsonNode c : spec.path(list)) {
                String cat = at + "." + list + "[" + i++ + "]";
                ObjectNode resources = obj(c.path("resources"));
                ObjectNode limits = resources == null ? null : obj(resources.path("limits"));
                if (limits == null) {
                    continue;
                }
                ObjectNode requests = set.object(resources, "requests", cat + ".resources");
                for (Iterator<Map.Entry<String, JsonNode>> it = limits.fields(); it.hasNext();) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (!requests.has(e.getKey())) {
                        requests.set(e.getKey(), e.getValue().deepCopy());
                        set.paths.add(cat + ".resources.requests." + e.getKey());
                    }
                }
            }
        }
        set.bool(spec, "enableServiceLinks", true, at);
        if (spec.path("hostNetwork").asBoolean(false)) {
            for (String list : List.of("containers", "initContainers")) {
                int i = 0;
                for (JsonNode c : spec.path(list)) {
                    int j = 0;
                    for (JsonNode p : c.path("ports")) {
                        if (p.isObject() && p.path("hostPort").asInt(0) == 0 && p.has("containerPort")) {
                            ((ObjectNode) p).put("hostPort", p.path("containerPort").asInt());
                            set.paths.add(at + "." + list + "[" + i + "].ports[" + j + "].hostPort");
                        }
                        j++;
                    }
                    i++;
                }
            }
        }
    }

    /** SetDefaults_PodSpec and the nested defaults of volumes and containers (Pod and every pod template). */
    private static void podSpec(ObjectNode spec, String at, Fields set) {
        set.text(spec, "dnsPolicy", "ClusterFirst", at);
        set.text(spec, "restartPolicy", "Always", at);
        set.object(spec, "securityContext", at);
        set.number(spec, "terminationGracePeriodSeconds", 30, at);
        set.text(spec, "schedulerName", "default-scheduler", at);
        int v = 0;
        for (JsonNode volume : spec.path("volumes")) {
            if (volume.isObject()) {
                volume((ObjectNode) volume, at + ".volumes[" + v + "]", set);
            }
            v++;
        }
        for (String list : CONTAINER_LISTS) {
            int i = 0;
            for (JsonNode c : spec.path(list)) {
                if (c.isObject()) {
                    container((ObjectNode) c, at + "." + list + "[" + i + "]", set);
                }
                i++;
            }
        }
    }

    private static void volume(ObjectNode volume, String at, Fields set) {
        boolean hasSource = false;
        for (Iterator<String> it = volume.fieldNames(); it.hasNext();) {
            String f = it.next();
            if (!f.equals("name") && !volume.get(f).isNull()) {
                hasSource = true;
            }
        }
        if (!hasSource) {
            volume.putObject("emptyDir");
            set.paths.add(at + ".emptyDir");
            return;
        }
        ObjectNode hostPath = obj(volume.get("hostPath"));
        if (hostPath != null && (!hostPath.has("type") || hostPath.get("type").isNull())) {
            hostPath.put("type", ""); // HostPathUnset
            set.paths.add(at + ".hostPath.type");
        }
        for (String source : List.of("secret", "configMap", "downwardAPI", "projected")) {
            ObjectNode s = obj(volume.get(source));
            if (s != null) {
                set.number(s, "defaultMode", 420, at + "." + source); // 0644
            }
        }
        ObjectNode downward = obj(volume.get("downwardAPI"));
        if (downward != null) {
            fieldRefs(downward.path("items"), at + ".downwardAPI.items", set);
        }
        ObjectNode projected = obj(volume.get("projected"));
        if (projected != null) {
            int j = 0;
            for (JsonNode source : projected.path("sources")) {
                String sat = at + ".projected.sources[" + j++ + "]";
                fieldRefs(source.path("downwardAPI").path("items"), sat + ".downwardAPI.items", set);
                ObjectNode token = obj(source.get("serviceAccountToken"));
                if (token != null) {
                    set.number(token, "expirationSeconds", 3600, sat + ".serviceAccountToken");
                }
            }
        }
        ObjectNode iscsi = obj(volume.get("iscsi"));
        if (iscsi != null) {
            set.text(iscsi, "iscsiInterface", "default", at + ".iscsi");
        }
        ObjectNode rbd = obj(volume.get("rbd"));
        if (rbd != null) {
            set.text(rbd, "pool", "rbd", at + ".rbd");
            set.text(rbd, "user", "admin", at + ".rbd");
            set.text(rbd, "keyring", "/etc/ceph/keyring", at + ".rbd");
        }
        ObjectNode azureDisk = obj(volume.get("azureDisk"));
        if (azureDisk != null) {
            set.text(azureDisk, "cachingMode", "ReadWrite", at + ".azureDisk");
            set.text(azureDisk, "fsType", "ext4", at + ".azureDisk");
            set.bool(azureDisk, "readOnly", false, at + ".azureDisk");
            set.text(azureDisk, "kind", "Shared", at + ".azureDisk");
        }
        ObjectNode scaleIO = obj(volume.get("scaleIO"));
        if (scaleIO != null) {
            set.text(scaleIO, "storageMode", "ThinProvisioned", at + ".scaleIO");
            set.text(scaleIO, "fsType", "xfs", at + ".scaleIO");
        }
        ObjectNode claim = obj(volume.path("ephemeral").path("volumeClaimTemplate").path("spec"));
        if (claim != null) {
            set.text(claim, "volumeMode", "Filesystem", at + ".ephemeral.volumeClaimTemplate.spec");
        }
    }

    private static void fieldRefs(JsonNode items, String at, Fields set) {
        int i = 0;
        for (JsonNode item : items) {
            ObjectNode ref = obj(item.get("fieldRef"));
            if (ref != null) {
                set.text(ref, "apiVersion", "v1", at + "[" + i + "].fieldRef");
            }
            i++;
        }
    }

    /** SetDefaults_Container and what the generated defaulter adds for ports, env, probes and lifecycle. */
    private static void container(ObjectNode c, String at, Fields set) {
        set.text(c, "imagePullPolicy", pullPolicyFor(c.path("image").asText("")), at);
        set.text(c, "terminationMessagePath", "/dev/termination-log", at);
        set.text(c, "terminationMessagePolicy", "File", at);
        int j = 0;
        for (JsonNode port : c.path("ports")) {
            if (port.isObject()) {
                set.text((ObjectNode) port, "protocol", "TCP", at + ".ports[" + j + "]");
            }
            j++;
        }
        j = 0;
        for (JsonNode env : c.path("env")) {
            ObjectNode ref = obj(env.path("valueFrom").get("fieldRef"));
            if (ref != null) {
                set.text(ref, "apiVersion", "v1", at + ".env[" + j + "].valueFrom.fieldRef");
            }
            j++;
        }
        for (String name : PROBES) {
            ObjectNode probe = obj(c.get(name));
            if (probe == null) {
                continue;
            }
            String pat = at + "." + name;
            set.nonZero(probe, "timeoutSeconds", 1, pat);
            set.nonZero(probe, "periodSeconds", 10, pat);
            set.nonZero(probe, "successThreshold", 1, pat);
            set.nonZero(probe, "failureThreshold", 3, pat);
            httpGet(obj(probe.get("httpGet")), pat + ".httpGet", set);
            ObjectNode grpc = obj(probe.get("grpc"));
            if (grpc != null && (!grpc.has("service") || grpc.get("service").isNull())) {
                grpc.put("service", ""); // declarative default of GRPCAction.service
                set.paths.add(pat + ".grpc.service");
            }
        }
        ObjectNode lifecycle = obj(c.get("lifecycle"));
        if (lifecycle != null) {
            for (String hook : List.of("postStart", "preStop")) {
                httpGet(obj(lifecycle.path(hook).get("httpGet")), at + ".lifecycle." + hook + ".httpGet", set);
            }
        }
    }

    private static void httpGet(ObjectNode action, String at, Fields set) {
        if (action != null) {
            set.text(action, "path", "/", at);
            set.text(action, "scheme", "HTTP", at);
        }
    }

    /**
     * {@code Always} when the image names the tag {@code latest} or neither a tag nor a digest, else
     * {@code IfNotPresent} (SetDefaults_Container with pkg/util/parsers ParseImageName, which takes the tag from the
     * last path component and assumes {@code latest} when there is no tag and no digest; an image it cannot parse
     * gets {@code IfNotPresent}).
     */
    static String pullPolicyFor(String image) {
        String tag = ImageReference.tag(image);
        return "latest".equals(tag) ? "Always" : "IfNotPresent";
    }

    /** The tag part of an image reference, as the distribution reference grammar reads it. */
    static final class ImageReference {
        private static final java.util.regex.Pattern TAG = java.util.regex.Pattern.compile("[\\w][\\w.-]{0,127}");
        private static final java.util.regex.Pattern DIGEST = java.util.regex.Pattern.compile(
                "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9A-Fa-f]{32,}");
        private static final java.util.regex.Pattern PATH_COMPONENT = java.util.regex.Pattern.compile(
                "[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*");

        private ImageReference() {
        }

        /** The tag; {@code latest} when the reference has neither tag nor digest; empty when digest-only or invalid. */
        static String tag(String image) {
            String rest = image;
            String digest = null;
            int at = rest.indexOf('@');
            if (at >= 0) {
                digest = rest.substring(at + 1);
                rest = rest.substring(0, at);
                if (!DIGEST.matcher(digest).matches()) {
                    return "";
                }
            }
            String tag = null;
            int slash = rest.lastIndexOf('/');
            int colon = rest.lastIndexOf(':');
            if (colon > slash) {
                tag = rest.substring(colon + 1);
                rest = rest.substring(0, colon);
                if (!TAG.matcher(tag).matches()) {
                    return "";
                }
            }
            if (!validName(rest)) {
                return "";
            }
            if (tag == null) {
                return digest == null ? "latest" : "";
            }
            return tag;
        }

        /** Name: an optional domain (with a dot, a colon or localhost) then lower-case path components. */
        private static boolean validName(String name) {
            if (name.isEmpty()) {
                return false;
            }
            String[] parts = name.split("/", -1);
            int first = 0;
            if (parts.length > 1 && (parts[0].contains(".") || parts[0].contains(":")
                    || parts[0].equals("localhost") || !parts[0].equals(parts[0].toLowerCase(java.util.Locale.ROOT)))) {
                first = 1; // a registry host (possibly with a port): not checked further here
            }
            for (int i = first; i < parts.length; i++) {
                if (!PATH_COMPONENT.matcher(parts[i]).matches()) {
                    return false;
                }
            }
            return true;
        }
    }

    // ---- namespaces and services -------------------------------------------------------------------------------

    /** SetDefaults_Namespace and SetDefaults_NamespaceStatus. */
    private static void namespace(ObjectNode ns, Fields set) {
        String name = ns.path("metadata").path("name").asText("");
        if (!name.isEmpty() && ns.path("metadata").isObject()) {
            ObjectNode labels = set.object((ObjectNode) ns.get("metadata"), "labels", "metadata");
            if (!name.equals(labels.path("kubernetes.io/metadata.name").asText(null))) {
                labels.put("kubernetes.io/metadata.name", name); // always the name, whatever was written
                set.paths.add("metadata.labels.kubernetes.io/metadata.name");
            }
        }
        ObjectNode status = set.object(ns, "status", "");
        set.text(status, "phase", "Active", "status");
    }

    /** SetDefaults_Service (the fields a webhook could read; status is the load balancer's). */
    private static void service(ObjectNode spec, Fields set) {
        set.text(spec, "sessionAffinity", "None", "spec");
        String affinity = spec.path("sessionAffinity").asText();
        if (affinity.equals("None") && spec.has("sessionAffinityConfig")) {
            spec.remove("sessionAffinityConfig");
            set.paths.add("spec.sessionAffinityConfig");
        } else if (affinity.equals("ClientIP")
                && !spec.path("sessionAffinityConfig").path("clientIP").path("timeoutSeconds").isNumber()) {
            spec.putObject("sessionAffinityConfig").putObject("clientIP").put("timeoutSeconds", 10800);
            set.paths.add("spec.sessionAffinityConfig.clientIP.timeoutSeconds");
        }
        set.text(spec, "type", "ClusterIP", "spec");
        int i = 0;
        for (JsonNode port : spec.path("ports")) {
            if (port.isObject()) {
                String at = "spec.ports[" + i + "]";
                set.text((ObjectNode) port, "protocol", "TCP", at);
                JsonNode target = port.get("targetPort");
                if (target == null || target.isNull() || (target.isNumber() && target.asInt() == 0)
                        || (target.isTextual() && target.asText().isEmpty())) {
                    ((ObjectNode) port).set("targetPort", port.path("port").deepCopy());
                    set.paths.add(at + ".targetPort");
                }
            }
            i++;
        }
        String type = spec.path("type").asText();
        boolean external = type.equals("LoadBalancer") || type.equals("NodePort")
                || (type.equals("ClusterIP") && spec.path("externalIPs").size() > 0);
        if (external) {
            set.text(spec, "externalTrafficPolicy", "Cluster", "spec");
        }
        if (type.equals("NodePort") || type.equals("LoadBalancer") || type.equals("ClusterIP")) {
            set.text(spec, "internalTrafficPolicy", "Cluster", "spec");
        }
        if (type.equals("LoadBalancer")) {
            set.bool(spec, "allocateLoadBalancerNodePorts", true, "spec");
        }
    }

    // ---- workloads ---------------------------------------------------------------------------------------------

    private static void replicationController(ObjectNode rc, ObjectNode spec, Fields set) {
        JsonNode templateLabels = spec.path("template").path("metadata").path("labels");
        if (templateLabels.isObject()) {
            if (!spec.path("selector").isObject() || spec.path("selector").isEmpty()) {
                spec.set("selector", templateLabels.deepCopy());
                set.paths.add("spec.selector");
            }
            ObjectNode metadata = obj(rc.get("metadata"));
            if (metadata != null && (!metadata.path("labels").isObject() || metadata.path("labels").isEmpty())) {
                metadata.set("labels", templateLabels.deepCopy());
                set.paths.add("metadata.labels");
            }
        }
        set.number(spec, "replicas", 1, "spec");
    }

    private static void apps(String kind, ObjectNode spec, Fields set) {
        switch (kind) {
            case "Deployment" -> {
                set.number(spec, "replicas", 1, "spec");
                ObjectNode strategy = set.object(spec, "strategy", "spec");
                set.text(strategy, "type", "RollingUpdate", "spec.strategy");
                if (strategy.path("type").asText().equals("RollingUpdate")) {
                    ObjectNode rolling = set.object(strategy, "rollingUpdate", "spec.strategy");
                    set.intOrString(rolling, "maxUnavailable", "25%", "spec.strategy.rollingUpdate");
                    set.intOrString(rolling, "maxSurge", "25%", "spec.strategy.rollingUpdate");
                }
                set.number(spec, "revisionHistoryLimit", 10, "spec");
                set.number(spec, "progressDeadlineSeconds", 600, "spec");
            }
            case "DaemonSet" -> {
                ObjectNode strategy = set.object(spec, "updateStrategy", "spec");
                set.text(strategy, "type", "RollingUpdate", "spec.updateStrategy");
                if (strategy.path("type").asText().equals("RollingUpdate")) {
                    ObjectNode rolling = set.object(strategy, "rollingUpdate", "spec.updateStrategy");
                    set.intOrString(rolling, "maxUnavailable", 1, "spec.updateStrategy.rollingUpdate");
                    set.intOrString(rolling, "maxSurge", 0, "spec.updateStrategy.rollingUpdate");
                }
                set.number(spec, "revisionHistoryLimit", 10, "spec");
            }
            case "StatefulSet" -> {
                set.text(spec, "podManagementPolicy", "OrderedReady", "spec");
                ObjectNode strategy = set.object(spec, "updateStrategy", "spec");
                if (strategy.path("type").asText("").isEmpty()) {
                    strategy.put("type", "RollingUpdate");
                    set.paths.add("spec.updateStrategy.type");
                    set.object(strategy, "rollingUpdate", "spec.updateStrategy");
                }
                ObjectNode rolling = obj(strategy.get("rollingUpdate"));
                if (strategy.path("type").asText().equals("RollingUpdate") && rolling != null) {
                    set.number(rolling, "partition", 0, "spec.updateStrategy.rollingUpdate");
                }
                // StatefulSetAutoDeletePVC: on by default since 1.27 (GA in 1.32).
                ObjectNode retention = set.object(spec, "persistentVolumeClaimRetentionPolicy", "spec");
                set.text(retention, "whenDeleted", "Retain", "spec.persistentVolumeClaimRetentionPolicy");
                set.text(retention, "whenScaled", "Retain", "spec.persistentVolumeClaimRetentionPolicy");
                set.number(spec, "replicas", 1, "spec");
                set.number(spec, "revisionHistoryLimit", 10, "spec");
                int i = 0;
                for (JsonNode claim : spec.path("volumeClaimTemplates")) {
                    String cat = "spec.volumeClaimTemplates[" + i++ + "]";
                    if (claim.isObject()) {
                        // SetDefaults_PersistentVolumeClaim and its spec, as for a stored claim.
                        ObjectNode status = set.object((ObjectNode) claim, "status", cat);
                        set.text(status, "phase", "Pending", cat + ".status");
                        ObjectNode claimSpec = obj(claim.get("spec"));
                        if (claimSpec != null) {
                            set.text(claimSpec, "volumeMode", "Filesystem", cat + ".spec");
                        }
                    }
                }
            }
            case "ReplicaSet" -> set.number(spec, "replicas", 1, "spec");
            default -> {
            }
        }
    }

    private static void job(ObjectNode job, ObjectNode spec, Fields set) {
        if (isNull(spec, "completions") && isNull(spec, "parallelism")) {
            set.number(spec, "completions", 1, "spec");
        }
        set.number(spec, "parallelism", 1, "spec");
        // backoffLimit: 6, or unlimited when a per-index limit is set (JobBackoffLimitPerIndex, on since 1.29).
        set.number(spec, "backoffLimit", isNull(spec, "backoffLimitPerIndex") ? 6 : Integer.MAX_VALUE, "spec");
        JsonNode templateLabels = spec.path("template").path("metadata").path("labels");
        ObjectNode metadata = obj(job.get("metadata"));
        if (templateLabels.isObject() && metadata != null
                && (!metadata.path("labels").isObject() || metadata.path("labels").isEmpty())) {
            metadata.set("labels", templateLabels.deepCopy());
            set.paths.add("metadata.labels");
        }
        set.text(spec, "completionMode", "NonIndexed", "spec");
        set.bool(spec, "suspend", false, "spec");
        // JobPodReplacementPolicy (on since 1.29): Failed when a podFailurePolicy is given.
        set.text(spec, "podReplacementPolicy", isNull(spec, "podFailurePolicy") ? "TerminatingOrFailed" : "Failed",
                "spec");
    }

    private static void cronJob(ObjectNode spec, Fields set) {
        set.text(spec, "concurrencyPolicy", "Allow", "spec");
        set.bool(spec, "suspend", false, "spec");
        set.number(spec, "successfulJobsHistoryLimit", 3, "spec");
        set.number(spec, "failedJobsHistoryLimit", 1, "spec");
    }

    private static boolean isNull(ObjectNode node, String field) {
        return !node.has(field) || node.get(field).isNull();
    }
}
