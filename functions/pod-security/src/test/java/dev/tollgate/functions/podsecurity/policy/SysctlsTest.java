package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.CheckCase.allowed;
import static dev.tollgate.functions.podsecurity.policy.CheckCase.forbidden;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class SysctlsTest {

    private static String pod(String... names) {
        StringBuilder b = new StringBuilder("{spec: {securityContext: {sysctls: [");
        for (int i = 0; i < names.length; i++) {
            b.append(i == 0 ? "" : ", ").append("{name: ").append(names[i]).append(", value: '1'}");
        }
        return b.append("]}}}").toString();
    }

    /** Each version's additions: forbidden one version before, allowed from it. */
    static List<CheckCase> cases() {
        List<CheckCase> cases = new ArrayList<>();
        cases.add(allowed("v1.0 set", 0, pod("kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range",
                "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range", "net.ipv4.ip_unprivileged_port_start")));
        cases.add(forbidden("unsafe ones keep their order", 37, pod("net.core.somaxconn", "kernel.shm_rmid_forced",
                "kernel.msgmax"), "forbidden sysctls", "net.core.somaxconn, kernel.msgmax"));
        String[][] added = {
                { "27", "net.ipv4.ip_local_reserved_ports" },
                { "29", "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_keepalive_intvl",
                        "net.ipv4.tcp_keepalive_probes" },
                { "32", "net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem" },
                { "37", "net.ipv4.tcp_slow_start_after_idle", "net.ipv4.tcp_notsent_lowat" } };
        for (String[] row : added) {
            int minor = Integer.parseInt(row[0]);
            String[] names = java.util.Arrays.copyOfRange(row, 1, row.length);
            cases.add(forbidden("added in v1." + minor + ", before", minor - 1, pod(names), "forbidden sysctls",
                    String.join(", ", names)));
            cases.add(allowed("added in v1." + minor, minor, pod(names)));
        }
        return cases;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void table(CheckCase c) {
        c.assertOn(Sysctls.CHECK);
    }
}
