package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.CheckCase.allowed;
import static dev.tollgate.functions.podsecurity.policy.CheckCase.forbidden;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class HostProbesAndHostLifecycleTest {

    static List<CheckCase> cases() {
        return List.of(
                allowed("no host", 34, """
                        {spec: {containers: [{name: a, livenessProbe: {httpGet: {port: 8080}},
                          readinessProbe: {tcpSocket: {port: 8080, host: ""}}}]}}"""),
                forbidden("probe host, even localhost", 34, """
                        {spec: {containers: [{name: a, livenessProbe: {httpGet: {host: 127.0.0.1, port: 8080}}}]}}""",
                        "probe or lifecycle host", "container \"a\" uses probe or lifecycle host \"127.0.0.1\""),
                forbidden("containers and hosts sorted, each once", 37, """
                        {spec: {initContainers: [{name: z, restartPolicy: Always,
                                  readinessProbe: {tcpSocket: {host: 8.8.8.8, port: 1}}}],
                                containers: [{name: b, startupProbe: {httpGet: {host: bad.host, port: 1}},
                                  lifecycle: {postStart: {httpGet: {host: bad.host, port: 1}},
                                              preStop: {tcpSocket: {host: "::1", port: 1}}}}]}}""",
                        "probe or lifecycle host", "containers \"b\", \"z\" use probe or lifecycle hosts \"8.8.8.8\", "
                                + "\"::1\", \"bad.host\""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void table(CheckCase c) {
        c.assertOn(HostProbesAndHostLifecycle.CHECK);
    }

    @Test
    void doesNotExistBeforeV134() {
        assertNull(HostProbesAndHostLifecycle.CHECK.revisionAt(33));
    }
}
