package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.CheckCase.allowed;
import static dev.tollgate.functions.podsecurity.policy.CheckCase.forbidden;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class RunAsNonRootTest {

    private static final String USERNS = "{spec: {hostUsers: false, containers: [{name: a}]}}";

    static List<CheckCase> cases() {
        return List.of(
                allowed("pod level", 0, "{spec: {securityContext: {runAsNonRoot: true}, containers: [{name: a}]}}"),
                allowed("every container", 0, """
                        {spec: {initContainers: [{name: i, securityContext: {runAsNonRoot: true}}],
                                containers: [{name: a, securityContext: {runAsNonRoot: true}}]}}"""),
                forbidden("unset", 0, "{spec: {containers: [{name: a}, {name: b}]}}", "runAsNonRoot != true",
                        "pod or containers \"a\", \"b\" must set securityContext.runAsNonRoot=true"),
                forbidden("explicit false wins over unset", 0, """
                        {spec: {securityContext: {runAsNonRoot: false},
                                containers: [{name: a, securityContext: {runAsNonRoot: false}}, {name: b}]}}""",
                        "runAsNonRoot != true",
                        "pod and container \"a\" must not set securityContext.runAsNonRoot=false"),
                forbidden("container false under a true pod", 37, """
                        {spec: {securityContext: {runAsNonRoot: true},
                                containers: [{name: a, securityContext: {runAsNonRoot: false}}]}}""",
                        "runAsNonRoot != true", "container \"a\" must not set securityContext.runAsNonRoot=false"),
                forbidden("user namespace does not relax before v1.35", 34, USERNS, "runAsNonRoot != true",
                        "pod or container \"a\" must set securityContext.runAsNonRoot=true"),
                allowed("user namespace relaxes from v1.35", 35, USERNS));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void table(CheckCase c) {
        c.assertOn(RunAsNonRoot.CHECK);
    }
}
