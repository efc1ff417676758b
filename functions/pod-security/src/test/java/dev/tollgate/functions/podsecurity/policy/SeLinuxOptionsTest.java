package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.CheckCase.allowed;
import static dev.tollgate.functions.podsecurity.policy.CheckCase.forbidden;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class SeLinuxOptionsTest {

    private static final String ENGINE = """
            {spec: {containers: [{name: a, securityContext: {seLinuxOptions: {type: container_engine_t}}}]}}""";

    static List<CheckCase> cases() {
        return List.of(
                allowed("allowed types and any level", 0, """
                        {spec: {securityContext: {seLinuxOptions: {type: container_t}},
                                initContainers: [{name: i, securityContext: {seLinuxOptions: {type: container_kvm_t}}}],
                                containers: [{name: a, securityContext: {seLinuxOptions: {type: container_init_t,
                                  level: somevalue}}}]}}"""),
                forbidden("container_engine_t before v1.31", 30, ENGINE, "seLinuxOptions",
                        "container \"a\" set forbidden securityContext.seLinuxOptions: type \"container_engine_t\""),
                allowed("container_engine_t from v1.31", 31, ENGINE),
                forbidden("user and role", 0, "{spec: {securityContext: {seLinuxOptions: {user: u, role: r}}}}",
                        "seLinuxOptions", "pod set forbidden securityContext.seLinuxOptions: user may not be set; "
                                + "role may not be set"),
                forbidden("types from pod and containers", 37, """
                        {spec: {securityContext: {seLinuxOptions: {type: spc_t}},
                                containers: [{name: a, securityContext: {seLinuxOptions: {type: foo_t, user: u}}}]}}""",
                        "seLinuxOptions", "pod and container \"a\" set forbidden securityContext.seLinuxOptions: "
                                + "types \"foo_t\", \"spc_t\"; user may not be set"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void table(CheckCase c) {
        c.assertOn(SeLinuxOptions.CHECK);
    }
}
