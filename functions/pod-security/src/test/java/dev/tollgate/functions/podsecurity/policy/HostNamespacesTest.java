package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.CheckCase.allowed;
import static dev.tollgate.functions.podsecurity.policy.CheckCase.forbidden;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class HostNamespacesTest {

    static List<CheckCase> cases() {
        return List.of(
                allowed("unset", 0, "{spec: {containers: [{name: a}]}}"),
                allowed("explicit false", 0, "{spec: {hostNetwork: false, hostPID: false, hostIPC: false}}"),
                forbidden("hostNetwork", 0, "{spec: {hostNetwork: true}}", "host namespaces", "hostNetwork=true"),
                forbidden("all three, in upstream's order", 37, "{spec: {hostIPC: true, hostPID: true, hostNetwork: true}}",
                        "host namespaces", "hostNetwork=true, hostPID=true, hostIPC=true"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void table(CheckCase c) {
        c.assertOn(HostNamespaces.CHECK);
    }
}
