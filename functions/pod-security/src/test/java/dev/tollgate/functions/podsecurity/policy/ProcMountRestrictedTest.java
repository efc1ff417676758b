package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.CheckCase.allowed;
import static dev.tollgate.functions.podsecurity.policy.CheckCase.forbidden;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ProcMountRestrictedTest {

    static List<CheckCase> cases() {
        return List.of(
                allowed("Default in a user namespace", 35, """
                        {spec: {hostUsers: false, containers: [{name: a, securityContext: {procMount: Default}}]}}"""),
                forbidden("Unmasked even in a user namespace", 35, """
                        {spec: {hostUsers: false, initContainers: [{name: i, securityContext: {procMount: Unmasked}}]}}""",
                        "procMount", "container \"i\" must not set securityContext.procMount to \"Unmasked\""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void table(CheckCase c) {
        c.assertOn(ProcMountRestricted.CHECK);
    }

    @Test
    void startsAtV135AndReplacesTheBaselineCheck() {
        assertNull(ProcMountRestricted.CHECK.revisionAt(34));
        assertEquals(Set.of("procMount"), ProcMountRestricted.CHECK.revisionAt(35).overrides());
    }
}
