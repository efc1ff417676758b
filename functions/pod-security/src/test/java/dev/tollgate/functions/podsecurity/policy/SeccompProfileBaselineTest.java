package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.CheckCase.allowed;
import static dev.tollgate.functions.podsecurity.policy.CheckCase.forbidden;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class SeccompProfileBaselineTest {

    private static final String POD = "seccomp.security.alpha.kubernetes.io/pod";
    private static final String CONTAINER = "container.seccomp.security.alpha.kubernetes.io/";
    private static final String UNCONFINED_FIELD = """
            {spec: {securityContext: {seccompProfile: {type: Unconfined}}, containers: [{name: a}]}}""";
    private static final String UNCONFINED_ANNOTATION = """
            {metadata: {annotations: {"%s": unconfined}}, spec: {containers: [{name: a}]}}""".formatted(POD);

    static List<CheckCase> cases() {
        return List.of(
                allowed("allowed annotations", 0, """
                        {metadata: {annotations: {"%s": runtime/default, "%sa": localhost/p, "%sb": docker/default}},
                         spec: {containers: [{name: a}, {name: b}]}}""".formatted(POD, CONTAINER, CONTAINER)),
                forbidden("unconfined annotations before v1.19, sorted", 18, """
                        {metadata: {annotations: {"%s": unconfined, "%sa": unconfined, "%sgone": unconfined}},
                         spec: {containers: [{name: a}]}}""".formatted(POD, CONTAINER, CONTAINER),
                        "seccompProfile", "forbidden annotations " + CONTAINER + "a=\"unconfined\", " + POD
                                + "=\"unconfined\""),
                allowed("fields are not read before v1.19", 18, UNCONFINED_FIELD),
                allowed("annotations are not read from v1.19", 19, UNCONFINED_ANNOTATION),
                forbidden("field from v1.19", 19, UNCONFINED_FIELD, "seccompProfile",
                        "pod must not set securityContext.seccompProfile.type to \"Unconfined\""),
                allowed("unset or allowed fields", 37, """
                        {spec: {securityContext: {seccompProfile: {type: Localhost, localhostProfile: p}},
                                containers: [{name: a}, {name: b, securityContext: {seccompProfile: {type: RuntimeDefault}}}]}}"""),
                forbidden("pod and containers", 37, """
                        {spec: {securityContext: {seccompProfile: {type: Unconfined}},
                                initContainers: [{name: i, securityContext: {seccompProfile: {type: Bogus}}}],
                                containers: [{name: a, securityContext: {seccompProfile: {type: Unconfined}}}]}}""",
                        "seccompProfile", "pod and containers \"i\", \"a\" must not set "
                                + "securityContext.seccompProfile.type to \"Bogus\", \"Unconfined\""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void table(CheckCase c) {
        c.assertOn(SeccompProfileBaseline.CHECK);
    }
}
