package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.CheckCase.allowed;
import static dev.tollgate.functions.podsecurity.policy.CheckCase.forbidden;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class HostPathVolumesTest {

    static List<CheckCase> cases() {
        return List.of(
                allowed("other volumes", 0, "{spec: {volumes: [{name: a, emptyDir: {}}, {name: b, hostPath: null}]}}"),
                forbidden("one", 0, "{spec: {volumes: [{name: e, emptyDir: {}}, {name: h, hostPath: {path: /a}}]}}",
                        "hostPath volumes", "volume \"h\""),
                forbidden("two", 37, "{spec: {volumes: [{name: a, hostPath: {path: /a}}, {name: b, hostPath: {path: /b}}]}}",
                        "hostPath volumes", "volumes \"a\", \"b\""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void table(CheckCase c) {
        c.assertOn(HostPathVolumes.CHECK);
    }
}
