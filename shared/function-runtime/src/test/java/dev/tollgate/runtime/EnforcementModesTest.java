package dev.tollgate.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.tollgate.admission.EnforcementMode;
import io.quarkus.runtime.configuration.ConfigurationException;

/** The mode of a call: the caller's cluster's, else the function's; bad values stop the function in one line. */
class EnforcementModesTest {

    @Test
    void aClusterOverridesTheFunctionsMode() {
        EnforcementModes modes = new EnforcementModes("audit", " east=warn , west=Enforce");
        assertEquals(EnforcementMode.WARN, modes.forCluster("east"));
        assertEquals(EnforcementMode.ENFORCE, modes.forCluster("west"));
        assertEquals(EnforcementMode.AUDIT, modes.forCluster("north"));
        assertEquals(EnforcementMode.AUDIT, modes.forCluster("default"));
    }

    @Test
    void aBundleGivesEachFunctionItsOwnModePerCluster() {
        // Issue 45, in the Terraform module's order: the function's own for the cluster, the cluster's, the
        // function's own, the process's.
        EnforcementModes modes = new EnforcementModes("enforce", "east=audit", "cel-policy=warn,pod-security=audit",
                "cel-policy.west=audit,require-labels.west=warn");
        assertEquals(EnforcementMode.WARN, modes.forCall("require-labels", "west"));
        assertEquals(EnforcementMode.AUDIT, modes.forCall("pod-security", "default"));
        assertEquals(EnforcementMode.AUDIT, modes.forCall("pod-security", "west"));
        assertEquals(EnforcementMode.ENFORCE, modes.forCall("always-pull-images", "west"));
        assertEquals(EnforcementMode.AUDIT, modes.forCall("cel-policy", "west"));
        assertEquals(EnforcementMode.WARN, modes.forCall("cel-policy", "north"));
        assertEquals(EnforcementMode.AUDIT, modes.forCall("cel-policy", "east"));
        assertEquals(EnforcementMode.AUDIT, modes.forCall("require-labels", "east"));
        var e = assertThrows(ConfigurationException.class, () -> new EnforcementModes("enforce", "",
                "", "cel-policy=warn"));
        assertEquals("tollgate.enforcement.function-cluster-modes=cel-policy=warn: 'cel-policy=warn' is not "
                + "<function>.<cluster>=<mode> with a function and a cluster name (DNS labels)", e.getMessage());
    }

    @Test
    void byDefaultEveryClusterIsEnforced() {
        EnforcementModes modes = new EnforcementModes("enforce", "");
        assertEquals(EnforcementMode.ENFORCE, modes.forCluster("default"));
        assertEquals(EnforcementMode.ENFORCE, modes.forCluster("east"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "dryrun|''|tollgate.enforcement.mode=dryrun: not an enforcement mode (enforce, warn or audit)",
            "enforce|east=deny|tollgate.enforcement.cluster-modes east=deny: not an enforcement mode (enforce, warn or audit)",
            "enforce|east|tollgate.enforcement.cluster-modes=east: 'east' is not <cluster>=<mode> with a cluster name (a DNS label)",
            "enforce|East=warn|tollgate.enforcement.cluster-modes=East=warn: 'East=warn' is not <cluster>=<mode> with a cluster name (a DNS label)",
            "enforce|east=warn,,west=audit|tollgate.enforcement.cluster-modes=east=warn,,west=audit: '' is not <cluster>=<mode> with a cluster name (a DNS label)",
            "enforce|east=warn,east=audit|tollgate.enforcement.cluster-modes=east=warn,east=audit: cluster 'east' is given twice" })
    void badValuesRefuseStartupNamingThePropertyAndTheValue(String mode, String clusters, String message) {
        var e = assertThrows(ConfigurationException.class, () -> new EnforcementModes(mode, clusters));
        assertEquals(message, e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }
}
