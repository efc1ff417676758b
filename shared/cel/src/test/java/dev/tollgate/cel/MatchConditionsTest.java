package dev.tollgate.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.GroupVersionKind;
import dev.tollgate.admission.GroupVersionResource;
import dev.tollgate.admission.Operation;
import dev.tollgate.admission.UserInfo;
import dev.tollgate.cel.MatchConditions.Decision;
import dev.tollgate.cel.MatchConditions.Outcome;

/**
 * Tables transcribed from the Kubernetes documentation, "Dynamic Admission Control: Matching requests:
 * matchConditions": the example conditions, and the evaluation rules (any false skips; all true calls; an error
 * with none false follows failurePolicy).
 */
class MatchConditionsTest {

    /** The documentation's first example webhook. */
    static final List<NamedExpression> DOC_EXAMPLE = List.of(
            new NamedExpression("exclude-leases",
                    "!(request.resource.group == 'coordination.k8s.io' && request.resource.resource == 'leases')"),
            new NamedExpression("exclude-kubelet-requests", "!('system:nodes' in request.userInfo.groups)"),
            new NamedExpression("rbac", "request.resource.group != 'rbac.authorization.k8s.io'"));

    /** The documentation's second example: skip users authorized to 'breakglass'. */
    static final List<NamedExpression> BREAKGLASS = List.of(new NamedExpression("breakglass",
            "!authorizer.group('admissionregistration.k8s.io').resource('validatingwebhookconfigurations')"
                    + ".name('my-webhook.example.com').check('breakglass').allowed()"));

    static AdmissionRequest request(String group, String resource, List<String> userGroups) {
        return new AdmissionRequest("u", GroupVersionKind.of(group, "v1", "X"),
                GroupVersionResource.of(group, "v1", resource), "", null, null, "", "x", "default",
                Operation.CREATE, new UserInfo("bob", "", userGroups, Map.of()),
                dev.tollgate.admission.KubeObject.of((com.fasterxml.jackson.databind.node.ObjectNode)
                        Requests.json("{'metadata':{'name':'x','labels':{'env':'prod'}}}")), null, null, false);
    }

    static Stream<Arguments> docExample() {
        return Stream.of(
                Arguments.of("a pod by a user", "", "pods", List.of("dev"), Outcome.MATCH, null),
                Arguments.of("a lease", "coordination.k8s.io", "leases", List.of("dev"), Outcome.NO_MATCH,
                        "exclude-leases"),
                Arguments.of("a request by a kubelet", "", "pods", List.of("system:nodes"), Outcome.NO_MATCH,
                        "exclude-kubelet-requests"),
                Arguments.of("an RBAC role", "rbac.authorization.k8s.io", "roles", List.of("dev"), Outcome.NO_MATCH,
                        "rbac"),
                Arguments.of("a lease by a kubelet (first false decides)", "coordination.k8s.io", "leases",
                        List.of("system:nodes"), Outcome.NO_MATCH, "exclude-leases"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("docExample")
    void documentationExample(String what, String group, String resource, List<String> groups, Outcome outcome,
            String condition) throws Exception {
        MatchConditions.Result r = MatchConditions.compile(DOC_EXAMPLE).evaluate(request(group, resource, groups));
        assertEquals(outcome, r.outcome());
        assertEquals(condition, r.condition());
    }

    static Stream<Arguments> rules() {
        // condition results: T true, F false, E error; then the outcome and the decision under Fail and Ignore
        return Stream.of(
                Arguments.of("", Outcome.MATCH, Decision.CALL_WEBHOOK, Decision.CALL_WEBHOOK),
                Arguments.of("T", Outcome.MATCH, Decision.CALL_WEBHOOK, Decision.CALL_WEBHOOK),
                Arguments.of("TTT", Outcome.MATCH, Decision.CALL_WEBHOOK, Decision.CALL_WEBHOOK),
                Arguments.of("F", Outcome.NO_MATCH, Decision.SKIP_WEBHOOK, Decision.SKIP_WEBHOOK),
                Arguments.of("TF", Outcome.NO_MATCH, Decision.SKIP_WEBHOOK, Decision.SKIP_WEBHOOK),
                Arguments.of("EF", Outcome.NO_MATCH, Decision.SKIP_WEBHOOK, Decision.SKIP_WEBHOOK),
                Arguments.of("FE", Outcome.NO_MATCH, Decision.SKIP_WEBHOOK, Decision.SKIP_WEBHOOK),
                Arguments.of("E", Outcome.ERROR, Decision.REJECT_REQUEST, Decision.SKIP_WEBHOOK),
                Arguments.of("TET", Outcome.ERROR, Decision.REJECT_REQUEST, Decision.SKIP_WEBHOOK),
                Arguments.of("EE", Outcome.ERROR, Decision.REJECT_REQUEST, Decision.SKIP_WEBHOOK));
    }

    @ParameterizedTest(name = "conditions {0}")
    @MethodSource("rules")
    void evaluationRules(String pattern, Outcome outcome, Decision underFail, Decision underIgnore)
            throws Exception {
        List<NamedExpression> conditions = new ArrayList<>();
        for (int i = 0; i < pattern.length(); i++) {
            String expr = switch (pattern.charAt(i)) {
                case 'T' -> "object.metadata.labels.env == 'prod'";
                case 'F' -> "object.metadata.labels.env == 'dev'";
                default -> "object.metadata.labels.missing == 'x'"; // no such key: an evaluation error
            };
            conditions.add(new NamedExpression("c" + i, expr));
        }
        MatchConditions.Result r = MatchConditions.compile(conditions).evaluate(request("", "pods", List.of()));
        assertEquals(outcome, r.outcome());
        assertEquals(underFail, r.decide("Fail"));
        assertEquals(underIgnore, r.decide("Ignore"));
        if (outcome == Outcome.ERROR) {
            assertTrue(r.message().contains("matchCondition 'c" + pattern.indexOf('E') + "'"), r.message());
        }
    }

    @Test
    void authorizerInConditionsUsesTheConfiguredDecision() throws Exception {
        AdmissionRequest req = request("", "pods", List.of());
        KubeCel allowing = KubeCel.builder().authorizer(Authorizer.allowAll()).build();
        assertEquals(Outcome.NO_MATCH, MatchConditions.compile(allowing, BREAKGLASS).evaluate(req).outcome());
        KubeCel denying = KubeCel.builder().authorizer(Authorizer.denyAll("no")).build();
        assertEquals(Outcome.MATCH, MatchConditions.compile(denying, BREAKGLASS).evaluate(req).outcome());
        MatchConditions.Result none = MatchConditions.compile(BREAKGLASS).evaluate(req);
        assertEquals(Outcome.ERROR, none.outcome());
        assertTrue(none.message().contains("no authorizer is configured"), none.message());
    }

    @Test
    void limitsAndCompileErrors() {
        List<NamedExpression> many = new ArrayList<>();
        for (int i = 0; i < 65; i++) {
            many.add(new NamedExpression("c" + i, "true"));
        }
        assertThrows(IllegalArgumentException.class, () -> MatchConditions.compile(many));
        assertThrows(IllegalArgumentException.class, () -> MatchConditions.compile(List.of(
                new NamedExpression("a", "true"), new NamedExpression("a", "false"))));
        CelCompileException e = assertThrows(CelCompileException.class, () -> MatchConditions.compile(List.of(
                new NamedExpression("size", "'not a bool'"))));
        assertTrue(e.getMessage().contains("matchCondition 'size'") && e.getMessage().contains("bool"),
                e.getMessage());
        // matchConditions have no params, namespaceObject or variables
        e = assertThrows(CelCompileException.class, () -> MatchConditions.compile(List.of(
                new NamedExpression("p", "params == null"))));
        assertTrue(e.getMessage().contains("undeclared reference to 'params'"), e.getMessage());
    }

    @Test
    void readsTheConditionsOfAWebhookEntry() throws Exception {
        var webhook = Requests.json("{'name':'x.example.com','failurePolicy':'Ignore','matchConditions':["
                + "{'name':'not-kube-system','expression':'request.namespace != \\u0027kube-system\\u0027'}]}");
        MatchConditions mc = MatchConditions.fromWebhook(KubeCel.standard(), webhook);
        assertEquals(Outcome.MATCH, mc.evaluate(request("", "pods", List.of())).outcome());
        assertEquals(Outcome.MATCH, MatchConditions.fromWebhook(KubeCel.standard(), Requests.json("{}"))
                .evaluate(request("", "pods", List.of())).outcome());
    }
}
