package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.CheckCase.allowed;
import static dev.tollgate.functions.podsecurity.policy.CheckCase.forbidden;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class AllowPrivilegeEscalationTest {

    private static final String WINDOWS = "{spec: {os: {name: windows}, containers: [{name: a}]}}";

    static List<CheckCase> cases() {
        return List.of(
                allowed("false everywhere", 8, """
                        {spec: {initContainers: [{name: i, securityContext: {allowPrivilegeEscalation: false}}],
                                containers: [{name: a, securityContext: {allowPrivilegeEscalation: false}}]}}"""),
                forbidden("unset, null or true", 8, """
                        {spec: {initContainers: [{name: i}],
                                containers: [{name: a, securityContext: {allowPrivilegeEscalation: null}},
                                             {name: b, securityContext: {allowPrivilegeEscalation: true}},
                                             {name: c, securityContext: {allowPrivilegeEscalation: false}}]}}""",
                        "allowPrivilegeEscalation != false",
                        "containers \"i\", \"a\", \"b\" must set securityContext.allowPrivilegeEscalation=false"),
                forbidden("Windows pods before v1.25", 24, WINDOWS, "allowPrivilegeEscalation != false",
                        "container \"a\" must set securityContext.allowPrivilegeEscalation=false"),
                allowed("Windows pods from v1.25", 25, WINDOWS),
                forbidden("Linux pods from v1.25", 25, "{spec: {os: {name: linux}, containers: [{name: a}]}}",
                        "allowPrivilegeEscalation != false",
                        "container \"a\" must set securityContext.allowPrivilegeEscalation=false"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void table(CheckCase c) {
        c.assertOn(AllowPrivilegeEscalation.CHECK);
    }

    @Test
    void doesNotExistBeforeV18() {
        assertNull(AllowPrivilegeEscalation.CHECK.revisionAt(7));
    }
}
