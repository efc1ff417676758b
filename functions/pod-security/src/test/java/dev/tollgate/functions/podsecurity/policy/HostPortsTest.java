package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.CheckCase.allowed;
import static dev.tollgate.functions.podsecurity.policy.CheckCase.forbidden;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class HostPortsTest {

    static List<CheckCase> cases() {
        return List.of(
                allowed("container ports only, hostPort 0", 0,
                        "{spec: {containers: [{name: a, ports: [{containerPort: 80}, {containerPort: 81, hostPort: 0}]}]}}"),
                forbidden("one", 0, "{spec: {containers: [{name: a, ports: [{containerPort: 80, hostPort: 80}]}]}}",
                        "hostPort", "container \"a\" uses hostPort 80"),
                forbidden("ports sorted as text, as upstream", 37, """
                        {spec: {initContainers: [{name: i, ports: [{containerPort: 1, hostPort: 8080}]}],
                                containers: [{name: a, ports: [{containerPort: 2, hostPort: 12345}, {containerPort: 3}]}]}}""",
                        "hostPort", "containers \"i\", \"a\" use hostPorts 12345, 8080"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void table(CheckCase c) {
        c.assertOn(HostPorts.CHECK);
    }
}
