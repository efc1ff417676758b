package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import dev.tollgate.admission.GroupVersionKind;

/**
 * The API server's defaults (pkg/apis/core/v1/defaults.go and zz_generated.defaults.go, pkg/apis/apps/v1/defaults.go,
 * pkg/apis/batch/v1/defaults.go) as the simulator applies them.
 */
class DefaultingTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static ObjectNode yaml(String text) throws Exception {
        return (ObjectNode) YAML.readTree(text);
    }

    @ParameterizedTest
    @CsvSource({
        "nginx, Always", // no tag and no digest: latest
        "nginx:latest, Always",
        "registry.example.com/shop/web:latest, Always",
        "nginx:1.25, IfNotPresent",
        "registry.example.com:5000/app, Always", // the port is not a tag
        "registry.example.com:5000/app:2, IfNotPresent",
        "nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef, IfNotPresent",
        "nginx:latest@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef, Always",
        "Nginx, IfNotPresent", // not a valid reference: no tag
        "'', IfNotPresent",
    })
    void imagePullPolicyFollowsTheTag(String image, String policy) {
        assertEquals(policy, Defaulting.pullPolicyFor(image));
    }

    @Test
    void aPodGetsThePodSpecContainerVolumeAndPodOnlyDefaults() throws Exception {
        ObjectNode pod = yaml("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web}
                spec:
                  hostNetwork: true
                  containers:
                  - name: app
                    image: nginx
                    ports: [{containerPort: 8080}]
                    resources: {limits: {cpu: 500m}}
                    env: [{name: NODE, valueFrom: {fieldRef: {fieldPath: spec.nodeName}}}]
                    livenessProbe: {httpGet: {port: 8080}}
                    readinessProbe: {grpc: {port: 9000}, periodSeconds: 5}
                  initContainers:
                  - {name: init, image: "busybox:1.36", imagePullPolicy: Never}
                  volumes:
                  - name: scratch
                  - {name: config, configMap: {name: cfg}}
                  - {name: root, hostPath: {path: /}}
                  - name: token
                    projected: {sources: [{serviceAccountToken: {path: token}}]}
                """);
        List<String> set = Defaulting.apply(GroupVersionKind.of("", "v1", "Pod"), pod);
        JsonNode spec = pod.get("spec");
        assertEquals("ClusterFirst", spec.path("dnsPolicy").asText());
        assertEquals("Always", spec.path("restartPolicy").asText());
        assertTrue(spec.path("securityContext").isObject() && spec.path("securityContext").isEmpty());
        assertEquals(30, spec.path("terminationGracePeriodSeconds").asInt());
        assertEquals("default-scheduler", spec.path("schedulerName").asText());
        assertTrue(spec.path("enableServiceLinks").asBoolean(), "a Pod only default");
        JsonNode app = spec.path("containers").get(0);
        assertEquals("Always", app.path("imagePullPolicy").asText());
        assertEquals("/dev/termination-log", app.path("terminationMessagePath").asText());
        assertEquals("File", app.path("terminationMessagePolicy").asText());
        assertEquals("TCP", app.path("ports").get(0).path("protocol").asText());
        assertEquals(8080, app.path("ports").get(0).path("hostPort").asInt(), "host network: hostPort = containerPort");
        assertEquals("500m", app.path("resources").path("requests").path("cpu").asText(), "requests from limits");
        assertEquals("v1", app.path("env").get(0).path("valueFrom").path("fieldRef").path("apiVersion").asText());
        JsonNode liveness = app.path("livenessProbe");
        assertEquals(List.of(1, 10, 1, 3), List.of(liveness.path("timeoutSeconds").asInt(),
                liveness.path("periodSeconds").asInt(), liveness.path("successThreshold").asInt(),
                liveness.path("failureThreshold").asInt()));
        assertEquals("/", liveness.path("httpGet").path("path").asText());
        assertEquals("HTTP", liveness.path("httpGet").path("scheme").asText());
        assertEquals(5, app.path("readinessProbe").path("periodSeconds").asInt(), "a value given stays");
        assertEquals("", app.path("readinessProbe").path("grpc").path("service").asText("missing"));
        assertEquals("Never", spec.path("initContainers").get(0).path("imagePullPolicy").asText());
        JsonNode volumes = spec.path("volumes");
        assertTrue(volumes.get(0).path("emptyDir").isObject(), "no source: emptyDir");
        assertEquals(420, volumes.get(1).path("configMap").path("defaultMode").asInt());
        assertEquals("", volumes.get(2).path("hostPath").path("type").asText("missing"));
        assertEquals(420, volumes.get(3).path("projected").path("defaultMode").asInt());
        assertEquals(3600, volumes.get(3).path("projected").path("sources").get(0).path("serviceAccountToken")
                .path("expirationSeconds").asInt());
        assertTrue(set.contains("spec.containers[0].imagePullPolicy"), set.toString());
        assertTrue(set.contains("spec.volumes[0].emptyDir"), set.toString());
        assertFalse(set.contains("spec.initContainers[0].imagePullPolicy"), "given, not defaulted");
    }

    @Test
    void defaultingTwiceChangesNothing() throws Exception {
        ObjectNode pod = yaml("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web}
                spec: {containers: [{name: app, image: nginx, ports: [{containerPort: 80}]}]}
                """);
        Defaulting.apply(GroupVersionKind.of("", "v1", "Pod"), pod);
        ObjectNode once = pod.deepCopy();
        assertEquals(List.of(), Defaulting.apply(GroupVersionKind.of("", "v1", "Pod"), pod));
        assertEquals(once, pod);
    }

    @Test
    void podTemplatesGetThePodSpecDefaultsButNotThePodOnlyOnes() throws Exception {
        ObjectNode deployment = yaml("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web}
                spec:
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: [{name: app, image: "nginx:1.25", resources: {limits: {cpu: 1}}}]}
                """);
        Defaulting.apply(GroupVersionKind.of("apps", "v1", "Deployment"), deployment);
        JsonNode spec = deployment.get("spec");
        assertEquals(1, spec.path("replicas").asInt());
        assertEquals("RollingUpdate", spec.path("strategy").path("type").asText());
        assertEquals("25%", spec.path("strategy").path("rollingUpdate").path("maxUnavailable").asText());
        assertEquals("25%", spec.path("strategy").path("rollingUpdate").path("maxSurge").asText());
        assertEquals(10, spec.path("revisionHistoryLimit").asInt());
        assertEquals(600, spec.path("progressDeadlineSeconds").asInt());
        JsonNode podSpec = spec.path("template").path("spec");
        assertEquals("ClusterFirst", podSpec.path("dnsPolicy").asText());
        assertEquals("IfNotPresent", podSpec.path("containers").get(0).path("imagePullPolicy").asText());
        assertTrue(podSpec.path("enableServiceLinks").isMissingNode(), "SetDefaults_Pod is for pods only");
        assertTrue(podSpec.path("containers").get(0).path("resources").path("requests").isMissingNode());
    }

    @Test
    void statefulSetsDaemonSetsJobsAndCronJobs() throws Exception {
        ObjectNode sts = yaml("""
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: db}
                spec:
                  serviceName: db
                  selector: {matchLabels: {app: db}}
                  template: {metadata: {labels: {app: db}}, spec: {containers: [{name: db, image: "pg:16"}]}}
                  volumeClaimTemplates: [{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce]}}]
                """);
        Defaulting.apply(GroupVersionKind.of("apps", "v1", "StatefulSet"), sts);
        JsonNode spec = sts.get("spec");
        assertEquals("OrderedReady", spec.path("podManagementPolicy").asText());
        assertEquals(0, spec.path("updateStrategy").path("rollingUpdate").path("partition").asInt(-1));
        assertEquals("Retain", spec.path("persistentVolumeClaimRetentionPolicy").path("whenDeleted").asText());
        assertEquals("Pending", spec.path("volumeClaimTemplates").get(0).path("status").path("phase").asText());
        assertEquals("Filesystem", spec.path("volumeClaimTemplates").get(0).path("spec").path("volumeMode").asText());

        ObjectNode ds = yaml("""
                apiVersion: apps/v1
                kind: DaemonSet
                metadata: {name: agent}
                spec: {selector: {matchLabels: {app: a}}, template: {spec: {containers: [{name: a, image: a}]}}}
                """);
        Defaulting.apply(GroupVersionKind.of("apps", "v1", "DaemonSet"), ds);
        assertEquals(1, ds.path("spec").path("updateStrategy").path("rollingUpdate").path("maxUnavailable").asInt());
        assertEquals(0, ds.path("spec").path("updateStrategy").path("rollingUpdate").path("maxSurge").asInt(-1));

        ObjectNode job = yaml("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: once}
                spec:
                  template:
                    metadata: {labels: {app: once}}
                    spec: {restartPolicy: Never, containers: [{name: a, image: "a:1"}]}
                """);
        Defaulting.apply(GroupVersionKind.of("batch", "v1", "Job"), job);
        JsonNode js = job.get("spec");
        assertEquals(List.of(1, 1, 6), List.of(js.path("completions").asInt(), js.path("parallelism").asInt(),
                js.path("backoffLimit").asInt()));
        assertEquals("NonIndexed", js.path("completionMode").asText());
        assertFalse(js.path("suspend").asBoolean(true));
        assertEquals("TerminatingOrFailed", js.path("podReplacementPolicy").asText());
        assertEquals("once", job.path("metadata").path("labels").path("app").asText(), "labels from the template");
        assertEquals("Never", js.path("template").path("spec").path("restartPolicy").asText(), "given, kept");

        ObjectNode cron = yaml("""
                apiVersion: batch/v1
                kind: CronJob
                metadata: {name: nightly}
                spec:
                  schedule: "0 1 * * *"
                  jobTemplate: {spec: {template: {spec: {restartPolicy: OnFailure, containers: [{name: a, image: a}]}}}}
                """);
        Defaulting.apply(GroupVersionKind.of("batch", "v1", "CronJob"), cron);
        JsonNode cs = cron.get("spec");
        assertEquals("Allow", cs.path("concurrencyPolicy").asText());
        assertEquals(3, cs.path("successfulJobsHistoryLimit").asInt());
        assertEquals(1, cs.path("failedJobsHistoryLimit").asInt());
        assertEquals("Always", cs.path("jobTemplate").path("spec").path("template").path("spec").path("containers")
                .get(0).path("imagePullPolicy").asText());
        assertTrue(cs.path("jobTemplate").path("spec").path("backoffLimit").isMissingNode(),
                "a CronJob's job template is not a Job: no Job defaults");
    }

    @Test
    void namespacesGetTheirNameLabelAndServicesTheirTypeAndPorts() throws Exception {
        ObjectNode ns = yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: shop, labels: {mesh: enabled}}\n");
        Defaulting.apply(GroupVersionKind.of("", "v1", "Namespace"), ns);
        assertEquals("shop", ns.path("metadata").path("labels").path("kubernetes.io/metadata.name").asText());
        assertEquals("enabled", ns.path("metadata").path("labels").path("mesh").asText());
        assertEquals("Active", ns.path("status").path("phase").asText());

        ObjectNode service = yaml("apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [{port: 80}]}\n");
        Defaulting.apply(GroupVersionKind.of("", "v1", "Service"), service);
        JsonNode spec = service.get("spec");
        assertEquals("ClusterIP", spec.path("type").asText());
        assertEquals("None", spec.path("sessionAffinity").asText());
        assertEquals("Cluster", spec.path("internalTrafficPolicy").asText());
        assertTrue(spec.path("externalTrafficPolicy").isMissingNode(), "not externally accessible");
        assertEquals("TCP", spec.path("ports").get(0).path("protocol").asText());
        assertEquals(80, spec.path("ports").get(0).path("targetPort").asInt());
        ObjectNode lb = yaml("apiVersion: v1\nkind: Service\nmetadata: {name: s}\n"
                + "spec: {type: LoadBalancer, sessionAffinity: ClientIP, ports: [{port: 443, targetPort: https}]}\n");
        Defaulting.apply(GroupVersionKind.of("", "v1", "Service"), lb);
        assertEquals("Cluster", lb.path("spec").path("externalTrafficPolicy").asText());
        assertTrue(lb.path("spec").path("allocateLoadBalancerNodePorts").asBoolean());
        assertEquals(10800, lb.path("spec").path("sessionAffinityConfig").path("clientIP").path("timeoutSeconds")
                .asInt());
        assertEquals("https", lb.path("spec").path("ports").get(0).path("targetPort").asText());
    }

    @Test
    void otherKindsAndVersionsAreLeftAsWritten() throws Exception {
        ObjectNode secret = yaml("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: s}\n");
        assertEquals(List.of(), Defaulting.apply(GroupVersionKind.of("", "v1", "ConfigMap"), secret));
        ObjectNode old = yaml("apiVersion: apps/v1beta1\nkind: Deployment\nmetadata: {name: d}\nspec: {}\n");
        assertEquals(List.of(), Defaulting.apply(GroupVersionKind.of("apps", "v1beta1", "Deployment"), old));
    }
}
