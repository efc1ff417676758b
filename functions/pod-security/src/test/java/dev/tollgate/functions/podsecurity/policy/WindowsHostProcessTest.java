package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.CheckCase.allowed;
import static dev.tollgate.functions.podsecurity.policy.CheckCase.forbidden;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class WindowsHostProcessTest {

    static List<CheckCase> cases() {
        return List.of(
                allowed("false", 0, "{spec: {securityContext: {windowsOptions: {hostProcess: false}}}}"),
                forbidden("pod", 0, "{spec: {hostNetwork: true, securityContext: {windowsOptions: {hostProcess: true}}}}",
                        "hostProcess", "pod must not set securityContext.windowsOptions.hostProcess=true"),
                forbidden("pod and containers", 37, """
                        {spec: {securityContext: {windowsOptions: {hostProcess: true}},
                                containers: [{name: a, securityContext: {windowsOptions: {hostProcess: true}}},
                                             {name: b, securityContext: {windowsOptions: {hostProcess: true}}}]}}""",
                        "hostProcess", "pod and containers \"a\", \"b\" must not set "
                                + "securityContext.windowsOptions.hostProcess=true"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void table(CheckCase c) {
        c.assertOn(WindowsHostProcess.CHECK);
    }
}
