package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.Check.since;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.functions.podsecurity.Level;

/**
 * Baseline: only the "safe" sysctls (namespaced, isolated between pods) may be set. The safe list grows with the
 * policy version; each revision below names what it adds.
 */
final class Sysctls {

    static final Set<String> SAFE_1_0 = Set.of("kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range",
            "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range", "net.ipv4.ip_unprivileged_port_start");
    static final Set<String> SAFE_1_27 = plus(SAFE_1_0, "net.ipv4.ip_local_reserved_ports");
    static final Set<String> SAFE_1_29 = plus(SAFE_1_27, "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout",
            "net.ipv4.tcp_keepalive_intvl", "net.ipv4.tcp_keepalive_probes");
    static final Set<String> SAFE_1_32 = plus(SAFE_1_29, "net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem");
    static final Set<String> SAFE_1_37 = plus(SAFE_1_32, "net.ipv4.tcp_slow_start_after_idle",
            "net.ipv4.tcp_notsent_lowat");

    static final Check CHECK = new Check("sysctls", Level.BASELINE, List.of(
            since(0, pod -> check(pod, SAFE_1_0)),
            since(27, pod -> check(pod, SAFE_1_27)),
            since(29, pod -> check(pod, SAFE_1_29)),
            since(32, pod -> check(pod, SAFE_1_32)),
            since(37, pod -> check(pod, SAFE_1_37))));

    private Sysctls() {
    }

    static CheckResult check(Pod pod, Set<String> safe) {
        List<String> forbidden = new ArrayList<>();
        for (JsonNode sysctl : pod.securityContext().path("sysctls")) {
            String name = Pod.text(sysctl.path("name"));
            if (!safe.contains(name)) {
                forbidden.add(name);
            }
        }
        return forbidden.isEmpty() ? CheckResult.ALLOWED
                : CheckResult.forbidden("forbidden sysctls", String.join(", ", forbidden));
    }

    private static Set<String> plus(Set<String> base, String... more) {
        Set<String> all = new HashSet<>(base);
        all.addAll(List.of(more));
        return Set.copyOf(all);
    }
}
