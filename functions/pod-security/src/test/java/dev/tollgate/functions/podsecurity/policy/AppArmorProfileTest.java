package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.CheckCase.allowed;
import static dev.tollgate.functions.podsecurity.policy.CheckCase.forbidden;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class AppArmorProfileTest {

    private static final String PREFIX = "container.apparmor.security.beta.kubernetes.io/";

    static List<CheckCase> cases() {
        return List.of(
                allowed("allowed annotations and unrelated ones", 0, """
                        {metadata: {annotations: {"%sa": runtime/default, "%sb": localhost/foo, "%sc": "", env: prod}},
                         spec: {containers: [{name: a}]}}""".formatted(PREFIX, PREFIX, PREFIX)),
                allowed("allowed field types", 0, """
                        {spec: {securityContext: {appArmorProfile: {type: RuntimeDefault}},
                                containers: [{name: a, securityContext: {appArmorProfile: {type: Localhost,
                                  localhostProfile: foo}}}]}}"""),
                forbidden("unconfined annotation", 0,
                        "{metadata: {annotations: {\"%sa\": unconfined}}, spec: {containers: [{name: a}]}}".formatted(PREFIX),
                        "forbidden AppArmor profile",
                        "annotation must not set AppArmor profile type to \"" + PREFIX + "a=\"unconfined\"\""),
                forbidden("unconfined pod field, checked at every version", 0,
                        "{spec: {securityContext: {appArmorProfile: {type: Unconfined}}}}",
                        "forbidden AppArmor profile", "pod must not set AppArmor profile type to \"Unconfined\""),
                forbidden("fields and annotations together; values sorted, types first", 37, """
                        {metadata: {annotations: {"%sz": bogus, "%sy": unconfined}},
                         spec: {securityContext: {appArmorProfile: {type: Unconfined}},
                                initContainers: [{name: i, securityContext: {appArmorProfile: {type: Unconfined}}}],
                                containers: [{name: a, securityContext: {appArmorProfile: {type: RuntimeDefault}}}]}}"""
                        .formatted(PREFIX, PREFIX),
                        "forbidden AppArmor profiles",
                        "pod and container \"i\" and annotations must not set AppArmor profile type to \"Unconfined\", \""
                                + PREFIX + "y=\"unconfined\"\", \"" + PREFIX + "z=\"bogus\"\""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void table(CheckCase c) {
        c.assertOn(AppArmorProfile.CHECK);
    }
}
