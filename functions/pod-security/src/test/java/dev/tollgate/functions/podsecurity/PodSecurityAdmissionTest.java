package dev.tollgate.functions.podsecurity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.admission.ValidatingPolicy;
import dev.tollgate.testing.AdmissionTester;
import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.ReviewBuilder;

/** The admission behaviour around the checks: modes, messages, updates, subresources, workloads, exemptions. */
class PodSecurityAdmissionTest {

    private static final PodSecurity FUNCTION = new PodSecurity(
            new Exemptions(Set.of("system:serviceaccount:ops:deployer"), Set.of("kata"), Set.of("ops")),
            new Policy(LevelVersion.parse("baseline", "v1.30"), LevelVersion.parse("restricted", "latest"),
                    LevelVersion.parse("restricted", "v1.30")));

    private static AdmissionTester at(String subPath) {
        ValidatingPolicy policy = FUNCTION.forSubPath(subPath).orElseThrow();
        return AdmissionTester.of(policy);
    }

    /** Passes baseline, fails restricted (no security context at all). */
    private static ObjectNode plainPod() {
        return Manifests.parse("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web, namespace: shop}
                spec:
                  containers: [{name: app, image: nginx:1.27}]
                """);
    }

    /** Fails baseline: host network and a privileged container. */
    private static ObjectNode privilegedPod() {
        ObjectNode pod = plainPod();
        ((ObjectNode) pod.path("spec")).put("hostNetwork", true);
        ((ObjectNode) pod.path("spec").path("containers").get(0)).putObject("securityContext").put("privileged", true);
        return pod;
    }

    private static ObjectNode restrictedPod() {
        return Manifests.parse("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web, namespace: shop}
                spec:
                  securityContext: {runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}
                  containers:
                  - name: app
                    image: nginx:1.27
                    securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}
                """);
    }

    @ParameterizedTest
    @EnumSource(ReviewVersion.class)
    void enforceDeniesWithUpstreamsForbiddenMessage(ReviewVersion version) {
        at("enforce/baseline/v1.30").version(version).create(privilegedPod())
                .assertDenied().withCode(403).withReason("Forbidden")
                .withMessageContaining("pods \"web\" is forbidden: violates PodSecurity \"baseline:v1.30\": "
                        + "host namespaces (hostNetwork=true), privileged (container \"app\" must not set "
                        + "securityContext.privileged=true)")
                .assertAuditAnnotation(PodSecurityAdmission.ENFORCE_POLICY, "baseline:v1.30")
                .assertNoWarnings();
    }

    @Test
    void enforceAllowsACompliantPodAndRecordsThePolicy() {
        at("enforce/restricted/latest").create(restrictedPod()).assertAllowed().assertNoWarnings()
                .assertAuditAnnotation(PodSecurityAdmission.ENFORCE_POLICY, "restricted:latest");
    }

    @Test
    void podWithoutNameYetIsNamedByResourceOnly() {
        ObjectNode pod = privilegedPod();
        ((ObjectNode) pod.path("metadata")).remove("name");
        ((ObjectNode) pod.path("metadata")).put("generateName", "web-");
        var result = at("enforce/baseline/latest").create(pod).assertDenied();
        assertTrue(result.message().startsWith("pods is forbidden: violates PodSecurity \"baseline:latest\": "),
                result.message());
    }

    @Test
    void warnAllowsWithTheViolationAsWarning() {
        at("warn/restricted/v1.30").create(plainPod()).assertAllowed()
                .assertWarningContaining("would violate PodSecurity \"restricted:v1.30\": allowPrivilegeEscalation "
                        + "!= false (container \"app\" must set securityContext.allowPrivilegeEscalation=false)")
                .assertAuditAnnotation(PodSecurityAdmission.ENFORCE_POLICY, null);
        at("warn/baseline/v1.30").create(plainPod()).assertAllowed().assertNoWarnings();
    }

    @Test
    void auditAllowsWithTheViolationAsAuditAnnotation() {
        var result = at("audit/restricted/latest").create(plainPod()).assertAllowed().assertNoWarnings();
        String annotation = result.review().path("response").path("auditAnnotations")
                .path(PodSecurityAdmission.AUDIT_VIOLATIONS).asText();
        assertTrue(annotation.startsWith("would violate PodSecurity \"restricted:latest\": allowPrivilegeEscalation"
                + " != false"), annotation);
        at("audit/restricted/latest").create(restrictedPod()).assertAllowed()
                .assertAuditAnnotation(PodSecurityAdmission.AUDIT_VIOLATIONS, null);
    }

    @Test
    void privilegedLevelAllowsEverything() {
        at("enforce/privileged/latest").create(privilegedPod()).assertAllowed().assertNoWarnings();
    }

    @Test
    void updatesAreEvaluatedOnlyWhenTheyCanChangeWhatIsChecked() {
        ObjectNode old = privilegedPod();
        ObjectNode relabelled = old.deepCopy();
        ((ObjectNode) relabelled.path("metadata")).putObject("labels").put("team", "shop");
        at("enforce/baseline/latest").update(relabelled, old).assertAllowed()
                .assertAuditAnnotation(PodSecurityAdmission.ENFORCE_POLICY, null);

        ObjectNode newImage = old.deepCopy();
        ((ObjectNode) newImage.path("spec").path("containers").get(0)).put("image", "nginx:1.28");
        at("enforce/baseline/latest").update(newImage, old).assertDenied().withMessageContaining("privileged");

        ObjectNode seccompAnnotated = old.deepCopy();
        ((ObjectNode) seccompAnnotated.path("metadata")).putObject("annotations")
                .put("container.seccomp.security.alpha.kubernetes.io/app", "unconfined");
        at("enforce/baseline/latest").update(seccompAnnotated, old).assertDenied();
    }

    @Test
    void ephemeralContainersSubresourceIsEnforced() {
        ObjectNode old = plainPod();
        ObjectNode debug = old.deepCopy();
        ObjectNode ephemeral = ((ObjectNode) debug.path("spec")).putArray("ephemeralContainers").addObject();
        ephemeral.put("name", "debugger").put("image", "busybox").putObject("securityContext").put("privileged", true);
        at("enforce/baseline/latest").review(ReviewBuilder.update(debug, old).subResource("ephemeralcontainers"))
                .assertDenied().withMessageContaining("container \"debugger\" must not set securityContext.privileged");
        // The same ephemeral container already present: nothing new, allowed.
        at("enforce/baseline/latest").review(ReviewBuilder.update(debug, debug).subResource("ephemeralcontainers"))
                .assertAllowed();
    }

    @ParameterizedTest
    @ValueSource(strings = { "status", "binding", "eviction", "exec" })
    void subresourcesThatCannotChangeThePodAreSkipped(String subResource) {
        ObjectNode pod = privilegedPod();
        at("enforce/baseline/latest").review(ReviewBuilder.update(pod, plainPod()).subResource(subResource))
                .assertAllowed();
    }

    @Test
    void otherOperationsAndResourcesAreNotEvaluated() {
        at("enforce/baseline/latest").delete(privilegedPod()).assertAllowed();
        at("enforce/baseline/latest").create(Manifests.parse("""
                {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: shop}, data: {a: b}}"""))
                .assertAllowed().assertNoWarnings();
    }

    private static ObjectNode deployment(ObjectNode pod) {
        ObjectNode d = Manifests.parse("""
                {apiVersion: apps/v1, kind: Deployment, metadata: {name: web, namespace: shop},
                 spec: {selector: {matchLabels: {app: web}}}}""");
        ObjectNode template = ((ObjectNode) d.path("spec")).putObject("template");
        template.putObject("metadata").putObject("labels").put("app", "web");
        template.set("spec", pod.path("spec").deepCopy());
        return d;
    }

    @Test
    void workloadsAreWarnedAndAuditedButNeverDenied() {
        ObjectNode d = deployment(privilegedPod());
        at("enforce/baseline/latest").create(d).assertAllowed().assertNoWarnings()
                .assertAuditAnnotation(PodSecurityAdmission.ENFORCE_POLICY, null);
        at("warn/baseline/latest").create(d).assertAllowed()
                .assertWarningContaining("would violate PodSecurity \"baseline:latest\": host namespaces");
        at("audit/baseline/latest").update(d, d).assertAllowed();
        var audited = at("audit/baseline/latest").create(d);
        assertTrue(audited.review().path("response").path("auditAnnotations").path("audit-violations").asText()
                .contains("privileged (container \"app\""));
    }

    @Test
    void everyWorkloadKindIsReadAtItsTemplate() {
        ObjectNode spec = (ObjectNode) privilegedPod().path("spec");
        List<String> workloads = List.of(
                "{apiVersion: batch/v1, kind: CronJob, metadata: {name: w, namespace: shop}, spec: {schedule: '* * * * *',"
                        + " jobTemplate: {spec: {template: {spec: %s}}}}}",
                "{apiVersion: batch/v1, kind: Job, metadata: {name: w, namespace: shop}, spec: {template: {spec: %s}}}",
                "{apiVersion: apps/v1, kind: DaemonSet, metadata: {name: w, namespace: shop}, spec: {template: {spec: %s}}}",
                "{apiVersion: apps/v1, kind: StatefulSet, metadata: {name: w, namespace: shop}, spec: {template: {spec: %s}}}",
                "{apiVersion: apps/v1, kind: ReplicaSet, metadata: {name: w, namespace: shop}, spec: {template: {spec: %s}}}",
                "{apiVersion: v1, kind: ReplicationController, metadata: {name: w, namespace: shop}, spec: {template: {spec: %s}}}",
                "{apiVersion: v1, kind: PodTemplate, metadata: {name: w, namespace: shop}, template: {spec: %s}}");
        for (String w : workloads) {
            at("warn/baseline/latest").create(Manifests.parse(w.formatted(Manifests.toJson(spec))))
                    .assertWarningContaining("privileged (container \"app\"");
        }
        at("warn/baseline/latest").create(Manifests.parse("""
                {apiVersion: v1, kind: ReplicationController, metadata: {name: w, namespace: shop}, spec: {replicas: 0}}"""))
                .assertAllowed().assertNoWarnings();
    }

    @Test
    void exemptNamespacesUsersAndRuntimeClassesAreNotEvaluated() {
        at("enforce/baseline/latest").review(ReviewBuilder.create(privilegedPod()).namespace("ops"))
                .assertAllowed().assertAuditAnnotation(PodSecurityAdmission.EXEMPT, "namespace");
        at("enforce/baseline/latest").review(ReviewBuilder.create(privilegedPod())
                .user("system:serviceaccount:ops:deployer", "system:serviceaccounts"))
                .assertAllowed().assertAuditAnnotation(PodSecurityAdmission.EXEMPT, "user");
        ObjectNode kata = privilegedPod();
        ((ObjectNode) kata.path("spec")).put("runtimeClassName", "kata");
        at("enforce/baseline/latest").create(kata)
                .assertAllowed().assertAuditAnnotation(PodSecurityAdmission.EXEMPT, "runtimeClass");
        at("warn/baseline/latest").create(deployment(kata)).assertAllowed().assertNoWarnings()
                .assertAuditAnnotation(PodSecurityAdmission.EXEMPT, "runtimeClass");
        // Not exempt: another namespace, user and runtime class.
        ObjectNode gvisor = privilegedPod();
        ((ObjectNode) gvisor.path("spec")).put("runtimeClassName", "gvisor");
        at("enforce/baseline/latest").review(ReviewBuilder.create(gvisor).namespace("shop").user("alice"))
                .assertDenied();
    }

    @Test
    void barePathAppliesAllThreeConfiguredModesTogether() {
        var tester = AdmissionTester.of(FUNCTION);
        // enforce baseline:v1.30 passes; audit restricted:latest and warn restricted:v1.30 report.
        var allowed = tester.create(plainPod()).assertAllowed()
                .assertAuditAnnotation(PodSecurityAdmission.ENFORCE_POLICY, "baseline:v1.30")
                .assertWarningContaining("would violate PodSecurity \"restricted:v1.30\"");
        assertTrue(allowed.review().path("response").path("auditAnnotations").path("audit-violations").asText()
                .startsWith("would violate PodSecurity \"restricted:latest\""));
        // Denied by enforce: no warning (upstream adds none to a rejected request), audit still recorded.
        var denied = tester.create(privilegedPod()).assertDenied().assertNoWarnings();
        assertFalse(denied.review().path("response").path("auditAnnotations").path("audit-violations").isMissingNode());
    }

    @Test
    void subPathsNameModeLevelAndVersion() {
        assertEquals(new Policy(LevelVersion.parse("restricted", "v1.30"), null, null),
                PodSecurity.parse("enforce/restricted/v1.30").orElseThrow());
        assertEquals(new Policy(null, null, LevelVersion.parse("baseline", "latest")),
                PodSecurity.parse("warn/baseline/latest").orElseThrow());
        assertTrue(PodSecurity.parse("audit/privileged/v1.99").isPresent(), "future versions are valid");
        for (String bad : List.of("", "enforce", "enforce/restricted", "enforce/restricted/v1.30/x",
                "deny/restricted/latest", "enforce/strict/latest", "enforce/restricted/1.30", "enforce/restricted/v1.030",
                "enforce/restricted/v2.0", "enforce/restricted/Latest", "Enforce/restricted/latest")) {
            assertTrue(PodSecurity.parse(bad).isEmpty(), bad);
        }
    }

    @Test
    void invalidExemptionsStopTheFunction() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> Exemptions.of(List.of(" "), List.of("Not_A_Name"), List.of("ops", "two.labels")));
        assertTrue(e.getMessage().contains("empty username") && e.getMessage().contains("Not_A_Name")
                && e.getMessage().contains("two.labels"), e.getMessage());
    }
}
