package dev.tollgate.functions.podsecurity.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.tollgate.functions.podsecurity.Level;
import dev.tollgate.functions.podsecurity.LevelVersion;
import dev.tollgate.functions.podsecurity.PolicyVersion;
import dev.tollgate.testing.Manifests;

class CheckRegistryTest {

    private final CheckRegistry registry = CheckRegistry.standard();

    private static LevelVersion lv(Level level, String version) {
        return new LevelVersion(level, PolicyVersion.parse(version));
    }

    @Test
    void newestRevisionIsV137() {
        assertEquals(37, registry.newestMinor());
    }

    @Test
    void baselineRunsItsChecksSortedById() {
        assertEquals(List.of("appArmorProfile", "capabilities_baseline", "hostNamespaces", "hostPathVolumes",
                "hostPorts", "hostProbesAndHostLifecycle", "privileged", "procMount", "seLinuxOptions",
                "seccompProfile_baseline", "sysctls", "windowsHostProcess"),
                registry.checkIds(lv(Level.BASELINE, "latest")));
    }

    @Test
    void restrictedRunsBaselineMinusOverriddenThenItsOwn() {
        assertEquals(List.of("appArmorProfile", "hostNamespaces", "hostPorts", "hostProbesAndHostLifecycle",
                "privileged", "seLinuxOptions", "sysctls", "windowsHostProcess", "allowPrivilegeEscalation",
                "capabilities_restricted", "procMount_restricted", "restrictedVolumes", "runAsNonRoot", "runAsUser",
                "seccompProfile_restricted"), registry.checkIds(lv(Level.RESTRICTED, "v1.37")));
    }

    @Test
    void olderVersionsRunOnlyTheChecksThatExistedThen() {
        assertEquals(List.of("appArmorProfile", "capabilities_baseline", "hostNamespaces", "hostPorts", "privileged",
                "procMount", "seLinuxOptions", "seccompProfile_baseline", "sysctls", "windowsHostProcess",
                "restrictedVolumes", "runAsNonRoot"), registry.checkIds(lv(Level.RESTRICTED, "v1.0")));
        List<String> v134 = registry.checkIds(lv(Level.RESTRICTED, "v1.34"));
        assertTrue(v134.contains("procMount") && !v134.contains("procMount_restricted"), v134::toString);
        assertTrue(registry.checkIds(lv(Level.RESTRICTED, "v1.18")).contains("seccompProfile_baseline"));
    }

    @Test
    void privilegedRunsNothing() {
        assertEquals(List.of(), registry.checkIds(lv(Level.PRIVILEGED, "latest")));
        var anything = Pod.of(Manifests.parse("{spec: {hostNetwork: true, containers: [{name: a, "
                + "securityContext: {privileged: true}}]}}"));
        assertTrue(registry.evaluate(lv(Level.PRIVILEGED, "v1.0"), anything).allowed());
    }

    @Test
    void versionsNewerThanAnyRevisionEvaluateAsTheNewest() {
        assertEquals(registry.checkIds(lv(Level.RESTRICTED, "latest")), registry.checkIds(lv(Level.RESTRICTED, "v1.99")));
        var pod = Pod.of(Manifests.parse("{spec: {securityContext: {sysctls: [{name: net.ipv4.tcp_notsent_lowat}]}}}"));
        assertTrue(registry.evaluate(lv(Level.BASELINE, "v1.99"), pod).allowed());
        assertTrue(!registry.evaluate(lv(Level.BASELINE, "v1.36"), pod).allowed());
    }

    @Test
    void messageListsEveryFailingCheckInOrder() {
        var pod = Pod.of(Manifests.parse("""
                {spec: {hostNetwork: true, volumes: [{name: h, hostPath: {path: /}}],
                  containers: [{name: a, securityContext: {privileged: true}}]}}"""));
        Evaluation e = registry.evaluate(lv(Level.RESTRICTED, "v1.30"), pod);
        assertEquals("host namespaces (hostNetwork=true), "
                + "privileged (container \"a\" must not set securityContext.privileged=true), "
                + "allowPrivilegeEscalation != false (container \"a\" must set "
                + "securityContext.allowPrivilegeEscalation=false), "
                + "unrestricted capabilities (container \"a\" must set securityContext.capabilities.drop=[\"ALL\"]), "
                + "restricted volume types (volume \"h\" uses restricted volume type \"hostPath\"), "
                + "runAsNonRoot != true (pod or container \"a\" must set securityContext.runAsNonRoot=true), "
                + "seccompProfile (pod or container \"a\" must set securityContext.seccompProfile.type to "
                + "\"RuntimeDefault\" or \"Localhost\")", e.forbiddenDetail());
        assertEquals("host namespaces, privileged, allowPrivilegeEscalation != false, unrestricted capabilities, "
                + "restricted volume types, runAsNonRoot != true, seccompProfile", e.forbiddenReason());
    }

    @Test
    void rejectsInconsistentCheckData() {
        var allowAll = Check.since(0, pod -> CheckResult.ALLOWED);
        assertThrows(IllegalArgumentException.class, () -> new CheckRegistry(List.of(
                new Check("a", Level.BASELINE, List.of(allowAll)), new Check("a", Level.RESTRICTED, List.of(allowAll)))));
        assertThrows(IllegalArgumentException.class, () -> new CheckRegistry(List.of(
                new Check("r", Level.RESTRICTED, List.of(Check.since(0, pod -> CheckResult.ALLOWED, "missing"))))));
        assertThrows(IllegalArgumentException.class, () -> new Check("b", Level.BASELINE,
                List.of(Check.since(3, pod -> CheckResult.ALLOWED), Check.since(3, pod -> CheckResult.ALLOWED))));
        assertThrows(IllegalArgumentException.class, () -> new Check("b", Level.BASELINE,
                List.of(Check.since(0, pod -> CheckResult.ALLOWED, "other"))));
    }
}
