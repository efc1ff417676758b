package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.CheckCase.allowed;
import static dev.tollgate.functions.podsecurity.policy.CheckCase.forbidden;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class PrivilegedTest {

    static List<CheckCase> cases() {
        return List.of(
                allowed("no security context", 0, "{spec: {containers: [{name: a}]}}"),
                allowed("explicit false", 0, "{spec: {containers: [{name: a, securityContext: {privileged: false}}]}}"),
                forbidden("one container", 0, "{spec: {containers: [{name: a, securityContext: {privileged: true}}]}}",
                        "privileged", "container \"a\" must not set securityContext.privileged=true"),
                forbidden("init, regular and ephemeral, in visiting order", 37, """
                        {spec: {containers: [{name: b, securityContext: {privileged: true}}],
                                initContainers: [{name: a, securityContext: {privileged: true}}],
                                ephemeralContainers: [{name: c, securityContext: {privileged: true}}]}}""",
                        "privileged", "containers \"a\", \"b\", \"c\" must not set securityContext.privileged=true"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void table(CheckCase c) {
        c.assertOn(Privileged.CHECK);
    }
}
