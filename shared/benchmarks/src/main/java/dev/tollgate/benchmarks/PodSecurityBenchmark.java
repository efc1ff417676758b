package dev.tollgate.benchmarks;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionCodec;
import dev.tollgate.admission.AdmissionHandler;
import dev.tollgate.admission.AdmissionReview;
import dev.tollgate.admission.HandlerResult;
import dev.tollgate.admission.ReviewDecodeException;
import dev.tollgate.admission.ValidatingPolicy;
import dev.tollgate.functions.podsecurity.Exemptions;
import dev.tollgate.functions.podsecurity.LevelVersion;
import dev.tollgate.functions.podsecurity.PodSecurity;
import dev.tollgate.functions.podsecurity.Policy;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.ReviewBuilder;

/**
 * Pod Security at the restricted level, latest version, on a pod with 10 containers (2 init, 8 regular) in a review
 * of about 20 KB: one whole call per operation, decode to encode, single-threaded. {@code compliant} is allowed
 * (every check runs to the end); {@code violating} is denied by several checks and builds the full message;
 * {@code compliantPreDecoded} leaves out the parse and {@code decodeOnly} is the parse alone, to show how the time
 * splits.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PodSecurityBenchmark {

    private AdmissionHandler handler;
    private ValidatingPolicy restricted;
    private byte[] compliantReview;
    private byte[] violatingReview;
    private AdmissionReview compliantDecoded;

    @Setup
    public void setUp() {
        handler = new AdmissionHandler(new AdmissionCodec());
        PodSecurity podSecurity = new PodSecurity(Exemptions.NONE, new Policy(LevelVersion.PRIVILEGED_LATEST,
                LevelVersion.PRIVILEGED_LATEST, LevelVersion.PRIVILEGED_LATEST));
        restricted = podSecurity.forSubPath("enforce/restricted/latest").orElseThrow();
        compliantReview = ReviewBuilder.create(pod(true)).bytes();
        violatingReview = ReviewBuilder.create(pod(false)).bytes();
        check(compliantReview, true);
        check(violatingReview, false);
        try {
            compliantDecoded = handler.codec().decode(compliantReview);
        } catch (ReviewDecodeException e) {
            throw new IllegalStateException(e);
        }
    }

    private void check(byte[] review, boolean allowed) {
        HandlerResult<AdmissionReview> r = handler.handle(review, "pod-security", restricted);
        if (r.status() != 200 || r.verdict().allowed() != allowed) {
            throw new IllegalStateException("benchmark review gives the wrong answer: " + r.verdict());
        }
    }

    @Benchmark
    public HandlerResult<AdmissionReview> compliant() {
        return handler.handle(compliantReview, "pod-security", restricted);
    }

    @Benchmark
    public HandlerResult<AdmissionReview> violating() {
        return handler.handle(violatingReview, "pod-security", restricted);
    }

    /** The same call without decoding: what the checks and the encoding cost on top of the codec's parse. */
    @Benchmark
    public HandlerResult<AdmissionReview> compliantPreDecoded() {
        return handler.handle(compliantDecoded, "pod-security", restricted);
    }

    /** The codec's parse and validation of the same body alone, for comparison. */
    @Benchmark
    public AdmissionReview decodeOnly() throws ReviewDecodeException {
        return handler.codec().decode(compliantReview);
    }

    /** A realistic restricted pod: 10 containers with env, ports, probes, mounts, resources, security contexts. */
    static ObjectNode pod(boolean compliant) {
        ObjectNode pod = Manifests.parse("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: shop-api-7d9c6b5f4-x2k8q
                  namespace: shop
                  labels: {app.kubernetes.io/name: shop-api, app.kubernetes.io/part-of: shop, team: payments,
                           pod-template-hash: 7d9c6b5f4}
                  annotations: {prometheus.io/scrape: "true", prometheus.io/port: "9090",
                                kubectl.kubernetes.io/default-container: api}
                  ownerReferences:
                  - {apiVersion: apps/v1, kind: ReplicaSet, name: shop-api-7d9c6b5f4, uid: 0b1e4f4e-2f7a-4a7c-9d52-2b8c1c7e9f10,
                     controller: true, blockOwnerDeletion: true}
                spec:
                  serviceAccountName: shop-api
                  automountServiceAccountToken: false
                  securityContext:
                    runAsNonRoot: true
                    runAsUser: 10001
                    runAsGroup: 10001
                    fsGroup: 10001
                    seccompProfile: {type: RuntimeDefault}
                  volumes:
                  - {name: config, configMap: {name: shop-api}}
                  - {name: tls, secret: {secretName: shop-api-tls}}
                  - {name: cache, emptyDir: {sizeLimit: 256Mi}}
                  - name: token
                    projected:
                      sources:
                      - serviceAccountToken: {path: token, expirationSeconds: 3600, audience: shop}
                  - {name: data, persistentVolumeClaim: {claimName: shop-data}}
                  tolerations:
                  - {key: dedicated, operator: Equal, value: shop, effect: NoSchedule}
                """);
        ObjectNode spec = (ObjectNode) pod.path("spec");
        ArrayNode init = spec.putArray("initContainers");
        ArrayNode containers = spec.putArray("containers");
        for (int i = 0; i < 10; i++) {
            ObjectNode c = (i < 2 ? init : containers).addObject();
            c.put("name", (i < 2 ? "init-" : "app-") + i);
            c.put("image", "registry.example.com/shop/component-" + i + "@sha256:"
                    + "4f2a6c8e0b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a3c5e7b9d1f3a");
            c.put("imagePullPolicy", "IfNotPresent");
            ArrayNode args = c.putArray("args");
            args.add("--port=" + (8080 + i)).add("--log-level=info").add("--config=/etc/shop/config.yaml");
            ArrayNode env = c.putArray("env");
            for (int e = 0; e < 21; e++) {
                env.addObject().put("name", "SHOP_SETTING_" + e).put("value", "value-" + i + "-" + e);
            }
            env.addObject().put("name", "POD_NAME").putObject("valueFrom").putObject("fieldRef")
                    .put("fieldPath", "metadata.name");
            c.putArray("ports").addObject().put("name", "http").put("containerPort", 8080 + i).put("protocol", "TCP");
            ObjectNode resources = c.putObject("resources");
            resources.putObject("requests").put("cpu", "100m").put("memory", "128Mi");
            resources.putObject("limits").put("cpu", "500m").put("memory", "256Mi");
            if (i >= 2) {
                c.putObject("livenessProbe").put("periodSeconds", 10).putObject("httpGet").put("path", "/healthz")
                        .put("port", 8080 + i);
                c.putObject("readinessProbe").put("periodSeconds", 5).putObject("tcpSocket").put("port", 8080 + i);
            }
            ArrayNode mounts = c.putArray("volumeMounts");
            mounts.addObject().put("name", "config").put("mountPath", "/etc/shop").put("readOnly", true);
            mounts.addObject().put("name", "tls").put("mountPath", "/etc/tls").put("readOnly", true);
            mounts.addObject().put("name", "cache").put("mountPath", "/var/cache/shop");
            ObjectNode sc = c.putObject("securityContext");
            sc.put("allowPrivilegeEscalation", false).put("readOnlyRootFilesystem", true);
            sc.putObject("capabilities").putArray("drop").add("ALL");
            if (!compliant && i % 3 == 0) {
                sc.put("allowPrivilegeEscalation", true);
                sc.putObject("capabilities").putArray("add").add("NET_ADMIN");
                sc.put("runAsUser", 0);
            }
        }
        return pod;
    }

    /** The sizes of the reviews, printed so the README's figure can name them. */
    public static void main(String[] args) {
        PodSecurityBenchmark b = new PodSecurityBenchmark();
        b.setUp();
        System.out.println("compliant review: " + b.compliantReview.length + " bytes, violating review: "
                + b.violatingReview.length + " bytes");
    }
}
