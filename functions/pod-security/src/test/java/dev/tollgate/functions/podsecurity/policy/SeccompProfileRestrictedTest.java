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

class SeccompProfileRestrictedTest {

    private static final String WINDOWS = "{spec: {os: {name: windows}, containers: [{name: a}]}}";

    static List<CheckCase> cases() {
        return List.of(
                allowed("pod level", 19, "{spec: {securityContext: {seccompProfile: {type: RuntimeDefault}}, containers: [{name: a}]}}"),
                allowed("every container", 19, """
                        {spec: {initContainers: [{name: i, securityContext: {seccompProfile: {type: Localhost, localhostProfile: p}}}],
                                containers: [{name: a, securityContext: {seccompProfile: {type: RuntimeDefault}}}]}}"""),
                forbidden("unset", 19, "{spec: {containers: [{name: a}]}}", "seccompProfile",
                        "pod or container \"a\" must set securityContext.seccompProfile.type to \"RuntimeDefault\" or "
                                + "\"Localhost\""),
                forbidden("a bad value wins over unset ones", 19, """
                        {spec: {initContainers: [{name: i, securityContext: {seccompProfile: {type: Unconfined}}}],
                                containers: [{name: a}]}}""",
                        "seccompProfile", "container \"i\" must not set securityContext.seccompProfile.type to "
                                + "\"Unconfined\""),
                forbidden("a bad pod value does not cover the containers", 37, """
                        {spec: {securityContext: {seccompProfile: {type: Unconfined}}, containers: [{name: a}]}}""",
                        "seccompProfile", "pod must not set securityContext.seccompProfile.type to \"Unconfined\""),
                forbidden("Windows pods before v1.25", 24, WINDOWS, "seccompProfile",
                        "pod or container \"a\" must set securityContext.seccompProfile.type to \"RuntimeDefault\" or "
                                + "\"Localhost\""),
                allowed("Windows pods from v1.25", 25, WINDOWS));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void table(CheckCase c) {
        c.assertOn(SeccompProfileRestricted.CHECK);
    }

    @Test
    void startsAtV119AndReplacesTheBaselineCheck() {
        assertNull(SeccompProfileRestricted.CHECK.revisionAt(18));
        assertEquals(Set.of("seccompProfile_baseline"), SeccompProfileRestricted.CHECK.revisionAt(19).overrides());
    }
}
