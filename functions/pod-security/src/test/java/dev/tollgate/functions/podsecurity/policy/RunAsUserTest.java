package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.CheckCase.allowed;
import static dev.tollgate.functions.podsecurity.policy.CheckCase.forbidden;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class RunAsUserTest {

    private static final String USERNS_ROOT = """
            {spec: {hostUsers: false, securityContext: {runAsUser: 0}, containers: [{name: a}]}}""";

    static List<CheckCase> cases() {
        return List.of(
                allowed("non-zero or unset", 23, """
                        {spec: {securityContext: {runAsUser: 1000},
                                containers: [{name: a, securityContext: {runAsUser: 1000}}, {name: b}]}}"""),
                forbidden("pod and containers", 23, """
                        {spec: {securityContext: {runAsUser: 0}, initContainers: [{name: i, securityContext: {runAsUser: 0}}],
                                containers: [{name: a, securityContext: {runAsUser: 0}}]}}""",
                        "runAsUser=0", "pod and containers \"i\", \"a\" must not set runAsUser=0"),
                forbidden("user namespace does not relax before v1.35", 34, USERNS_ROOT, "runAsUser=0",
                        "pod must not set runAsUser=0"),
                allowed("user namespace relaxes from v1.35", 35, USERNS_ROOT));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void table(CheckCase c) {
        c.assertOn(RunAsUser.CHECK);
    }

    @Test
    void doesNotExistBeforeV123() {
        assertNull(RunAsUser.CHECK.revisionAt(22));
    }
}
