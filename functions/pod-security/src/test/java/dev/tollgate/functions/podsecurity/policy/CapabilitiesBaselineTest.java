package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.CheckCase.allowed;
import static dev.tollgate.functions.podsecurity.policy.CheckCase.forbidden;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CapabilitiesBaselineTest {

    static List<CheckCase> cases() {
        return List.of(
                allowed("the default set", 0, """
                        {spec: {containers: [{name: a, securityContext: {capabilities: {add: [AUDIT_WRITE, CHOWN,
                          DAC_OVERRIDE, FOWNER, FSETID, KILL, MKNOD, NET_BIND_SERVICE, SETFCAP, SETGID, SETPCAP, SETUID,
                          SYS_CHROOT], drop: [ALL]}}}]}}"""),
                allowed("capabilities null", 0, "{spec: {containers: [{name: a, securityContext: {capabilities: null}}]}}"),
                forbidden("NET_RAW", 0, "{spec: {containers: [{name: a, securityContext: {capabilities: {add: [NET_RAW]}}}]}}",
                        "non-default capabilities",
                        "container \"a\" must not include \"NET_RAW\" in securityContext.capabilities.add"),
                forbidden("names are exact: chown, CAP_CHOWN; sorted, once each", 37, """
                        {spec: {containers: [{name: a, securityContext: {capabilities: {add: [chown, SYS_ADMIN]}}},
                                             {name: b, securityContext: {capabilities: {add: [CAP_CHOWN, SYS_ADMIN]}}}]}}""",
                        "non-default capabilities", "containers \"a\", \"b\" must not include \"CAP_CHOWN\", "
                                + "\"SYS_ADMIN\", \"chown\" in securityContext.capabilities.add"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void table(CheckCase c) {
        c.assertOn(CapabilitiesBaseline.CHECK);
    }
}
