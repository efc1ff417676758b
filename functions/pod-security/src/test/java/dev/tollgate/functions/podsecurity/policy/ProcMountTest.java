package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.CheckCase.allowed;
import static dev.tollgate.functions.podsecurity.policy.CheckCase.forbidden;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ProcMountTest {

    private static final String USERNS_UNMASKED = """
            {spec: {hostUsers: false, containers: [{name: a, securityContext: {procMount: Unmasked}}]}}""";

    static List<CheckCase> cases() {
        return List.of(
                allowed("Default", 0, "{spec: {containers: [{name: a, securityContext: {procMount: Default}}]}}"),
                forbidden("Unmasked", 0, "{spec: {containers: [{name: a, securityContext: {procMount: Unmasked}}]}}",
                        "procMount", "container \"a\" must not set securityContext.procMount to \"Unmasked\""),
                forbidden("user namespace does not relax before v1.35", 34, USERNS_UNMASKED,
                        "procMount", "container \"a\" must not set securityContext.procMount to \"Unmasked\""),
                allowed("user namespace relaxes from v1.35", 35, USERNS_UNMASKED),
                forbidden("hostUsers true at v1.35", 35, """
                        {spec: {hostUsers: true, initContainers: [{name: i, securityContext: {procMount: Unmasked}}],
                                containers: [{name: a, securityContext: {procMount: Weird}}]}}""",
                        "procMount", "containers \"i\", \"a\" must not set securityContext.procMount to \"Unmasked\", "
                                + "\"Weird\""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void table(CheckCase c) {
        c.assertOn(ProcMount.CHECK);
    }
}
