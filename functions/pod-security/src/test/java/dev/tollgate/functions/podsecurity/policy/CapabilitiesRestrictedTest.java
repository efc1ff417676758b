package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.CheckCase.allowed;
import static dev.tollgate.functions.podsecurity.policy.CheckCase.forbidden;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Set;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CapabilitiesRestrictedTest {

    private static final String WINDOWS = "{spec: {os: {name: windows}, containers: [{name: a}]}}";

    static List<CheckCase> cases() {
        return List.of(
                allowed("drop ALL, add NET_BIND_SERVICE", 22, """
                        {spec: {containers: [{name: a, securityContext: {capabilities: {drop: [ALL],
                          add: [NET_BIND_SERVICE]}}}]}}"""),
                forbidden("no capabilities, or dropping everything by name", 22, """
                        {spec: {initContainers: [{name: i}],
                                containers: [{name: a, securityContext: {capabilities: {drop: [SYS_ADMIN, NET_RAW]}}}]}}""",
                        "unrestricted capabilities",
                        "containers \"i\", \"a\" must set securityContext.capabilities.drop=[\"ALL\"]"),
                forbidden("both problems, joined by ;", 37, """
                        {spec: {containers: [{name: a, securityContext: {capabilities: {add: [CHOWN]}}},
                                             {name: b, securityContext: {capabilities: {drop: [ALL],
                                               add: [SYS_TIME, NET_BIND_SERVICE, CHOWN]}}}]}}""",
                        "unrestricted capabilities",
                        "container \"a\" must set securityContext.capabilities.drop=[\"ALL\"]; containers \"a\", \"b\" "
                                + "must not include \"CHOWN\", \"SYS_TIME\" in securityContext.capabilities.add"),
                forbidden("Windows pods before v1.25", 24, WINDOWS, "unrestricted capabilities",
                        "container \"a\" must set securityContext.capabilities.drop=[\"ALL\"]"),
                allowed("Windows pods from v1.25", 25, WINDOWS));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void table(CheckCase c) {
        c.assertOn(CapabilitiesRestricted.CHECK);
    }

    @Test
    void startsAtV122AndReplacesTheBaselineCheck() {
        assertNull(CapabilitiesRestricted.CHECK.revisionAt(21));
        assertEquals(Set.of("capabilities_baseline"), CapabilitiesRestricted.CHECK.revisionAt(22).overrides());
        assertEquals(Set.of("capabilities_baseline"), CapabilitiesRestricted.CHECK.revisionAt(37).overrides());
    }
}
