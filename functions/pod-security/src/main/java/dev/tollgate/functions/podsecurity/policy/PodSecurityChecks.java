package dev.tollgate.functions.podsecurity.policy;

import java.util.List;

/** Every check of the Pod Security Standards; each lives in its own class with its versioned revisions. */
final class PodSecurityChecks {

    static final List<Check> ALL = List.of(
            // baseline
            AppArmorProfile.CHECK,
            CapabilitiesBaseline.CHECK,
            HostNamespaces.CHECK,
            HostPathVolumes.CHECK,
            HostPorts.CHECK,
            HostProbesAndHostLifecycle.CHECK,
            Privileged.CHECK,
            ProcMount.CHECK,
            SeLinuxOptions.CHECK,
            SeccompProfileBaseline.CHECK,
            Sysctls.CHECK,
            WindowsHostProcess.CHECK,
            // restricted
            AllowPrivilegeEscalation.CHECK,
            CapabilitiesRestricted.CHECK,
            ProcMountRestricted.CHECK,
            RestrictedVolumes.CHECK,
            RunAsNonRoot.CHECK,
            RunAsUser.CHECK,
            SeccompProfileRestricted.CHECK);

    private PodSecurityChecks() {
    }
}
