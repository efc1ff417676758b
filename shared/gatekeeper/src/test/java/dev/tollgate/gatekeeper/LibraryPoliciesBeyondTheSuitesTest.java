package dev.tollgate.gatekeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import dev.tollgate.cel.KubeCel;
import dev.tollgate.gatekeeper.gator.GatorRunner;
import dev.tollgate.gatekeeper.gator.GatorSuite;

/**
 * Behaviour of Tollgate's library policies (general/ and pod-security-policy/ templates) that the gatekeeper-library's
 * own suites leave out: UPDATEs, absent parameters, exemptImages globs, the Pod-level fallbacks of the users
 * template, quantities the ephemeral-storage Rego reads or refuses. Each case is a user's Rego-only template of that
 * kind (so the library serves it), a Constraint and one object or AdmissionReview, run as a gator suite. The expected
 * counts and messages are read from each template's Rego (the gatekeeper-library folder its library file names); for
 * K8sPSPAllowedUsers they are cases of gatekeeper-library src/pod-security-policy/users/src_test.rego.
 */
class LibraryPoliciesBeyondTheSuitesTest {

    /** One case: the constraint kind, its spec.parameters (flow YAML, or null for none), the object, the outcome. */
    record Case(String name, String kind, String parameters, String object, int violations, String message) {
    }

    static Case c(String name, String kind, String parameters, String object, int violations, String message) {
        return new Case(name, kind, parameters, object, violations, message);
    }

    static Case c(String name, String kind, String parameters, String object, int violations) {
        return new Case(name, kind, parameters, object, violations, null);
    }

    static String pod(String spec) {
        return "{apiVersion: v1, kind: Pod, metadata: {name: p, namespace: default}, spec: " + spec + "}";
    }

    static String update(String user, String groups, String oldObject, String object) {
        return "{apiVersion: admission.k8s.io/v1, kind: AdmissionReview, request: {operation: UPDATE,"
                + " userInfo: {username: " + user + ", groups: " + groups + "}, oldObject: " + oldObject
                + ", object: " + object + "}}";
    }

    static String deployment(String serviceAccount) {
        return "{apiVersion: apps/v1, kind: Deployment, metadata: {name: d, namespace: kube-system},"
                + " spec: {template: {spec: {" + serviceAccount + " containers: [{name: c, image: nginx}]}}}}";
    }

    static String users(String podContext, String... containerContexts) {
        StringBuilder containers = new StringBuilder();
        for (int i = 0; i < containerContexts.length; i++) {
            containers.append(i == 0 ? "" : ", ").append("{name: c").append(i + 1).append(", image: nginx")
                    .append(containerContexts[i] == null ? "" : ", securityContext: " + containerContexts[i])
                    .append('}');
        }
        return pod("{" + (podContext == null ? "" : "securityContext: " + podContext + ", ") + "containers: ["
                + containers + "]}");
    }

    static String limits(String image, String limits) {
        return pod("{containers: [{name: c, image: " + image + ", resources: {limits: " + limits + "}}]}");
    }

    static final String USERS = "K8sPSPAllowedUsers";
    static final String RANGE = "ranges: [{min: 100, max: 200}]";
    static final String STORAGE = "K8sContainerEphemeralStorageLimit";
    static final String NOUPDATE = "NoUpdateServiceAccount";

    static List<Case> cases() {
        String allowed = "{allowedUsers: [alice], allowedGroups: [admins]}";
        return List.of(
                // noupdateserviceaccount: only UPDATEs, and only a change of the name by someone not allowed
                c("sa unchanged", NOUPDATE, allowed, update("bob", "[devs]",
                        deployment("serviceAccountName: a,"), deployment("serviceAccountName: a,")), 0),
                c("sa changed", NOUPDATE, allowed, update("bob", "[devs]",
                        deployment("serviceAccountName: a,"), deployment("serviceAccountName: b,")), 1,
                        "^user does not have permission to modify serviceAccountName$"),
                c("sa changed by an allowed user", NOUPDATE, allowed, update("alice", "[devs]",
                        deployment("serviceAccountName: a,"), deployment("serviceAccountName: b,")), 0),
                c("sa changed by an allowed group", NOUPDATE, allowed, update("bob", "[devs, admins]",
                        deployment("serviceAccountName: a,"), deployment("serviceAccountName: b,")), 0),
                c("sa removed", NOUPDATE, allowed, update("bob", "[devs]",
                        deployment("serviceAccountName: a,"), deployment("")), 1, "in object under review"),
                c("sa of a CronJob changed", NOUPDATE, null, update("bob", "[]",
                        "{apiVersion: batch/v1, kind: CronJob, metadata: {name: j}, spec: {jobTemplate: {spec:"
                                + " {template: {spec: {serviceAccountName: a}}}}}}",
                        "{apiVersion: batch/v1, kind: CronJob, metadata: {name: j}, spec: {jobTemplate: {spec:"
                                + " {template: {spec: {serviceAccountName: b}}}}}}"), 1),
                c("sa on create", NOUPDATE, allowed, deployment(""), 0),

                // users: the container's own value first, the Pod's in its place; rules and ranges as the Rego reads
                c("user out of range", USERS, "{runAsUser: {rule: MustRunAs, " + RANGE + "}}",
                        users(null, "{runAsUser: 10}"), 1, "disallowed user 10"),
                c("user at the range's edge", USERS, "{runAsUser: {rule: MustRunAs, " + RANGE + "}}",
                        users(null, "{runAsUser: 200}"), 0),
                c("user required", USERS, "{runAsUser: {rule: MustRunAs, " + RANGE + "}}",
                        users(null, "{}"), 1, "without a required securityContext/runAsUser$"),
                c("user from the pod", USERS, "{runAsUser: {rule: MustRunAs, " + RANGE + "}}",
                        users("{runAsUser: 150}", (String) null), 0),
                c("container's user over the pod's", USERS, "{runAsUser: {rule: MustRunAs, " + RANGE + "}}",
                        users("{runAsUser: 150}", "{runAsUser: 250}"), 1),
                c("non-root ignores ranges", USERS, "{runAsUser: {rule: MustRunAsNonRoot, " + RANGE + "}}",
                        users(null, "{runAsUser: 10}"), 0),
                c("non-root from the pod's runAsNonRoot", USERS, "{runAsUser: {rule: MustRunAsNonRoot}}",
                        users("{runAsNonRoot: true}", (String) null), 0),
                c("non-root with runAsNonRoot false", USERS, "{runAsUser: {rule: MustRunAsNonRoot}}",
                        users("{runAsNonRoot: false}", (String) null), 1, "runAsNonRoot or"),
                c("group RunAsAny without ranges", USERS, "{runAsGroup: {rule: RunAsAny}}",
                        users(null, "{runAsGroup: 0}"), 0),
                c("group MayRunAs absent", USERS, "{runAsGroup: {rule: MayRunAs, " + RANGE + "}}",
                        users(null, "{}"), 0),
                c("group MustRunAs absent", USERS, "{runAsGroup: {rule: MustRunAs, " + RANGE + "}}",
                        users(null, "{}"), 1, "securityContext/runAsGroup. Allowed runAsGroup"),
                c("supplementalGroups of the pod, per container", USERS,
                        "{supplementalGroups: {rule: MustRunAs, " + RANGE + "}}",
                        users("{supplementalGroups: [150, 250]}", null, null), 2, "disallowed supplementalGroups"),
                c("supplementalGroups all in range", USERS, "{supplementalGroups: {rule: MustRunAs, " + RANGE + "}}",
                        users("{supplementalGroups: [120, 180]}", (String) null), 0),
                c("every field out of range", USERS, "{runAsUser: {rule: MustRunAs, " + RANGE + "}, runAsGroup:"
                        + " {rule: MustRunAs, " + RANGE + "}, supplementalGroups: {rule: MustRunAs, " + RANGE + "},"
                        + " fsGroup: {rule: MustRunAs, " + RANGE + "}}",
                        users("{runAsUser: 250, runAsGroup: 250, supplementalGroups: [250], fsGroup: 250}",
                                (String) null), 4),
                c("users exempt image", USERS, "{exemptImages: ['ngi*'], runAsUser: {rule: MustRunAs, " + RANGE
                        + "}}", users(null, "{runAsUser: 10}"), 0),

                // ephemeral-storage: the Rego's reading of quantities (a decimal and one suffix; JSON numbers as is)
                c("storage with an exponent", STORAGE, "{ephemeral-storage: 500Mi}", limits("nginx",
                        "{ephemeral-storage: '1e3'}"), 1, "limit <1e3> could not be parsed"),
                c("storage as a number, equal", STORAGE, "{ephemeral-storage: 500Mi}", limits("nginx",
                        "{ephemeral-storage: 524288000}"), 0),
                c("storage one byte over", STORAGE, "{ephemeral-storage: 500Mi}", limits("nginx",
                        "{ephemeral-storage: '524288001'}"), 1, "is higher than the maximum allowed of <500Mi>"),
                c("storage decimal with suffix", STORAGE, "{ephemeral-storage: 500Mi}", limits("nginx",
                        "{ephemeral-storage: 0.4Gi}"), 0),
                c("storage without resources", STORAGE, "{ephemeral-storage: 500Mi}",
                        pod("{containers: [{name: c, image: nginx}]}"), 1, "^container <c> has no resource limits$"),
                c("storage without its limit", STORAGE, "{ephemeral-storage: 500Mi}", limits("nginx",
                        "{cpu: 100m}"), 1, "has no ephemeral-storage limit"),
                c("storage exempt image", STORAGE, "{ephemeral-storage: 500Mi, exemptImages: ['registry.example/*']}",
                        limits("registry.example/app", "{ephemeral-storage: 1Pi}"), 0),
                c("storage of ephemeral containers not checked", STORAGE, "{ephemeral-storage: 500Mi}",
                        pod("{containers: [{name: c, image: nginx, resources: {limits: {ephemeral-storage: 1Mi}}}],"
                                + " ephemeralContainers: [{name: e, image: nginx}]}"), 0),

                // disallowedtags / disallowinteractive / imagedigests / disallowedrepos
                c("tag of an exempt prefix", "K8sDisallowedTags",
                        "{tags: [latest], exemptImages: ['registry.example/*']}",
                        pod("{containers: [{name: c, image: 'registry.example/app:latest'}]}"), 0),
                c("digest only", "K8sDisallowedTags", "{tags: [latest]}",
                        pod("{containers: [{name: c, image: 'nginx@sha256:abcd'}]}"), 0),
                c("registry port, no tag", "K8sDisallowedTags", "{tags: [latest]}",
                        pod("{initContainers: [{name: i, image: 'localhost:5000/app'}]}"), 1,
                        "^container <i> didn't specify an image tag <localhost:5000/app>$"),
                c("interactive initContainer", "K8sDisallowInteractiveTTY", null,
                        pod("{initContainers: [{name: i, image: busybox, stdin: true}]}"), 1, "\\(i\\)"),
                c("interactive exempt", "K8sDisallowInteractiveTTY", "{exemptImages: ['busy*']}",
                        pod("{containers: [{name: c, image: busybox, tty: true}]}"), 0),
                c("digest exempt", "K8sImageDigests", "{exemptImages: [nginx]}",
                        pod("{containers: [{name: c, image: nginx}]}"), 0),
                c("repos absent", "K8sDisallowedRepos", null,
                        pod("{containers: [{name: c, image: 'k8s.gcr.io/x'}]}"), 0),

                // externalip / httpsonly / replicalimits / requiredannotations / requiredprobes / deprecated APIs
                c("external IPs with no parameter", "K8sExternalIPs", null,
                        "{apiVersion: v1, kind: Service, metadata: {name: s}, spec: {externalIPs: [10.0.0.2, 10.0.0.1,"
                                + " 10.0.0.2]}}", 1,
                        "^service has forbidden external IPs: \\{\"10.0.0.1\", \"10.0.0.2\"\\}$"),
                c("ingress named by generateName", "K8sHttpsOnly", null,
                        "{apiVersion: networking.k8s.io/v1, kind: Ingress, metadata: {generateName: i-}, spec: {}}", 0),
                c("replicas absent", "K8sReplicaLimits", "{ranges: [{min_replicas: 1, max_replicas: 3}]}",
                        "{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, spec: {}}", 1),
                c("replicas with no parameters", "K8sReplicaLimits", null,
                        "{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, spec: {replicas: 2}}", 1,
                        "Allowed ranges: \\{\\}$"),
                c("annotation not matching", "K8sRequiredAnnotations", "{annotations: [{key: owner, allowedRegex:"
                        + " '^[a-z]+$'}]}", "{apiVersion: v1, kind: Service, metadata: {name: s, annotations: {owner:"
                        + " Bob}}}", 1, "^Annotation <owner: Bob> does not satisfy allowed regex: \\^\\[a-z\\]\\+\\$$"),
                c("annotation matching", "K8sRequiredAnnotations", "{annotations: [{key: owner, allowedRegex:"
                        + " '^[a-z]+$'}]}", "{apiVersion: v1, kind: Service, metadata: {name: s, annotations: {owner:"
                        + " bob}}}", 0),
                c("probe of another type", "K8sRequiredProbes", "{probes: [readinessProbe], probeTypes: [httpGet]}",
                        pod("{containers: [{name: c, image: nginx, readinessProbe: {tcpSocket: {port: 80}}}]}"), 1,
                        "^Container <c> in your <Pod> <p> has no <readinessProbe>$"),
                c("probe of a listed type", "K8sRequiredProbes", "{probes: [readinessProbe], probeTypes: [httpGet]}",
                        pod("{containers: [{name: c, image: nginx, readinessProbe: {httpGet: {port: 80}}}]}"), 0),
                c("deprecated API without a target", "VerifyDeprecatedAPI", "{k8sVersion: 1.22, kvs: [{deprecatedAPI:"
                        + " extensions/v1beta1, kinds: [Ingress], targetAPI: None}]}",
                        "{apiVersion: extensions/v1beta1, kind: Ingress, metadata: {name: i}}", 1,
                        "version 1.22, please see Kubernetes API deprecation guide$"),

                // pod-security-policy: volumes, selinux, flexvolume-drivers
                c("volumes wildcard", "K8sPSPVolumeTypes", "{volumes: ['*']}",
                        pod("{volumes: [{name: v, hostPath: {path: /}}]}"), 0),
                c("each volume type once", "K8sPSPVolumeTypes", "{volumes: [configMap]}",
                        pod("{volumes: [{name: a, hostPath: {path: /a}}, {name: b, hostPath: {path: /b}},"
                                + " {name: c, emptyDir: {}}]}"), 2),
                c("pod seLinuxOptions with an unlisted level", "K8sPSPSELinuxV2",
                        "{allowedSELinuxOptions: [{type: container_t}]}",
                        pod("{securityContext: {seLinuxOptions: {type: container_t, level: s0}}, containers: []}"), 1,
                        "^SELinux options is not allowed, pod: p\\. Allowed options"),
                c("container seLinuxOptions listed", "K8sPSPSELinuxV2",
                        "{allowedSELinuxOptions: [{type: container_t}]}",
                        pod("{containers: [{name: c, image: nginx, securityContext: {seLinuxOptions: {type:"
                                + " container_t}}}]}"), 0),
                c("flexVolume without a driver", "K8sPSPFlexVolumes", "{allowedFlexVolumes: [{driver: example/lvm}]}",
                        pod("{volumes: [{name: v, flexVolume: {fsType: ext4}}]}"), 1));
    }

    @TestFactory
    Stream<DynamicTest> eachCaseGivesWhatTheRegoGives(@TempDir Path dir) {
        GatorRunner runner = new GatorRunner(KubeCel.standard());
        return cases().stream().map(k -> DynamicTest.dynamicTest(k.kind() + ": " + k.name(), () -> {
            Path here = Files.createDirectories(dir.resolve(k.name().replaceAll("[^A-Za-z0-9]+", "-")));
            String lower = k.kind().toLowerCase(Locale.ROOT);
            // The user's template as the gatekeeper-library ships it: Rego only, so the library serves its kind.
            write(here, "template.yaml", "{apiVersion: templates.gatekeeper.sh/v1, kind: ConstraintTemplate,"
                    + " metadata: {name: " + lower + "}, spec: {crd: {spec: {names: {kind: " + k.kind() + "}}},"
                    + " targets: [{target: admission.k8s.gatekeeper.sh, rego: 'package " + lower + "'}]}}");
            write(here, "constraint.yaml", "{apiVersion: constraints.gatekeeper.sh/v1beta1, kind: " + k.kind()
                    + ", metadata: {name: c}, spec: {" + (k.parameters() == null ? "" : "parameters: "
                            + k.parameters()) + "}}");
            write(here, "object.yaml", k.object());
            write(here, "suite.yaml", "{apiVersion: test.gatekeeper.sh/v1alpha1, kind: Suite, tests: [{name: t,"
                    + " template: template.yaml, constraint: constraint.yaml, cases: [{name: c, object: object.yaml,"
                    + " assertions: [{violations: " + k.violations() + "}"
                    + (k.message() == null ? "" : ", {violations: " + k.violations() + ", message: '"
                            + k.message().replace("'", "''") + "'}")
                    + "]}]}]}");
            List<GatorRunner.CaseResult> results = runner.run(GatorSuite.read(here.resolve("suite.yaml")));
            assertEquals(1, results.size());
            assertEquals(null, results.get(0).error(), k.name());
        }));
    }

    private static void write(Path dir, String name, String text) throws IOException {
        Files.writeString(dir.resolve(name), text);
    }
}
