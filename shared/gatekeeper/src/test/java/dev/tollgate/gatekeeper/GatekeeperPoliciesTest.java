package dev.tollgate.gatekeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.EnforcedVerdict;
import dev.tollgate.admission.Verdict;
import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.NamespaceOptions;
import dev.tollgate.cel.admission.Namespaces;
import dev.tollgate.cel.admission.PolicyConfig;
import dev.tollgate.gatekeeper.gator.GatorRunner;

/** Templates and constraints end to end: match, actions, messages, defaults, refusals. */
class GatekeeperPoliciesTest {

    static final String TEMPLATE = """
            apiVersion: templates.gatekeeper.sh/v1
            kind: ConstraintTemplate
            metadata: {name: k8snolatest}
            spec:
              crd:
                spec:
                  names: {kind: K8sNoLatest}
                  validation:
                    openAPIV3Schema:
                      type: object
                      properties:
                        tag: {type: string, default: latest}
              targets:
              - target: admission.k8s.gatekeeper.sh
                code:
                - engine: K8sNativeValidation
                  source:
                    variables:
                    - name: images
                      expression: variables.anyObject.spec.containers.map(c, c.image)
                    validations:
                    - expression: '!variables.images.exists(i, i.endsWith(":" + variables.params.tag))'
                      messageExpression: '"image with tag " + variables.params.tag + " in " + params.metadata.name'
            """;

    static GatekeeperPolicies load(String constraints) {
        return GatekeeperPolicies.load(ConfigFiles.parse(TEMPLATE + "---\n" + constraints, "test.yaml"),
                KubeCel.standard(), NamespaceOptions.config(Namespaces.Unknown.EMPTY));
    }

    static AdmissionRequest pod(String namespace, String name, Map<String, String> labels, String image) {
        ObjectNode pod = ConfigFiles.parse("""
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: %s}
                spec: {containers: [{name: c, image: "%s"}]}
                """.formatted(name, namespace, image), "pod").get(0).object();
        labels.forEach((k, v) -> pod.with("metadata").with("labels").put(k, v));
        return GatorRunnerAccess.request(pod);
    }

    static String constraint(String name, String spec) {
        return """
                apiVersion: constraints.gatekeeper.sh/v1beta1
                kind: K8sNoLatest
                metadata: {name: %s}
                spec:
                %s
                ---
                """.formatted(name, spec.indent(2).stripTrailing());
    }

    @Test
    void denyWarnAndDryrunAnswerAsGatekeepersWebhook() {
        GatekeeperPolicies p = load(constraint("a-deny", "enforcementAction: deny")
                + constraint("b-warn", "enforcementAction: warn")
                + constraint("c-dry", "enforcementAction: dryrun"));
        Verdict v = p.validate(pod("shop", "web", Map.of(), "nginx:latest"));
        assertFalse(v.allowed());
        assertEquals(403, v.code());
        assertEquals("[a-deny] image with tag latest in a-deny", v.message());
        assertEquals(List.of("[b-warn] image with tag latest in b-warn"), v.warnings());
        assertEquals("[c-dry] image with tag latest in c-dry", v.auditAnnotations().get(EnforcedVerdict.WOULD_DENY));
        assertTrue(p.validate(pod("shop", "web", Map.of(), "nginx:1.27")).allowed());
    }

    @Test
    void violationsOfSeveralConstraintsAreJoinedByNewLines() {
        GatekeeperPolicies p = load(constraint("one", "parameters: {tag: latest}")
                + constraint("two", "parameters: {tag: latest}"));
        assertEquals("[one] image with tag latest in one\n[two] image with tag latest in two",
                p.validate(pod("shop", "web", Map.of(), "nginx:latest")).message());
    }

    @Test
    void parametersGetTheSchemasDefaults() {
        GatekeeperPolicies p = load(constraint("no-params", "match: {kinds: [{apiGroups: [''], kinds: [Pod]}]}"));
        assertEquals(1, p.review(pod("shop", "web", Map.of(), "x:latest")).size());
        GatekeeperPolicies given = load(constraint("edge", "parameters: {tag: edge}"));
        assertEquals(0, given.review(pod("shop", "web", Map.of(), "x:latest")).size());
        assertEquals(1, given.review(pod("shop", "web", Map.of(), "x:edge")).size());
    }

    @Test
    void matchSelectsAsGatekeeper() {
        AdmissionRequest kubeSystem = pod("kube-system", "web-1", Map.of("app", "web"), "x:latest");
        AdmissionRequest shop = pod("shop-prod", "api", Map.of("app", "api"), "x:latest");
        record Case(String match, boolean kubeSystem, boolean shop) {
        }
        for (Case c : List.of(
                new Case("kinds: [{apiGroups: [''], kinds: [Pod]}]", true, true),
                new Case("kinds: [{apiGroups: [apps], kinds: [Pod]}]", false, false),
                new Case("kinds: [{apiGroups: ['*'], kinds: ['*']}]", true, true),
                new Case("scope: Cluster", false, false),
                new Case("scope: Namespaced", true, true),
                new Case("namespaces: [shop-*]", false, true),
                new Case("namespaces: ['*-prod']", false, true),
                new Case("namespaces: ['*op*']", false, true),
                new Case("excludedNamespaces: [kube-*]", false, true),
                new Case("excludedNamespaces: [kube-system, shop-prod]", false, false),
                new Case("labelSelector: {matchLabels: {app: web}}", true, false),
                new Case("labelSelector: {matchExpressions: [{key: app, operator: NotIn, values: [web]}]}", false,
                        true),
                new Case("namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: shop-prod}}", false, true),
                new Case("name: web-*", true, false),
                new Case("name: api", false, true),
                new Case("source: Generated", false, false))) {
            GatekeeperPolicies p = load(constraint("m", "match: {" + c.match() + "}"));
            assertEquals(c.kubeSystem(), !p.review(kubeSystem).isEmpty(), c.match() + " on kube-system/web-1");
            assertEquals(c.shop(), !p.review(shop).isEmpty(), c.match() + " on shop-prod/api");
        }
    }

    @Test
    void aNameGlobEndingInAStarMatchesTheGenerateName() {
        ObjectNode pod = ConfigFiles.parse("""
                apiVersion: v1
                kind: Pod
                metadata: {generateName: web-, namespace: shop}
                spec: {containers: [{name: c, image: "x:latest"}]}
                """, "pod").get(0).object();
        assertEquals(1, load(constraint("g", "match: {name: web-*}")).review(GatorRunnerAccess.request(pod)).size());
        assertEquals(0, load(constraint("g", "match: {name: '*-'}")).review(GatorRunnerAccess.request(pod)).size());
    }

    @Test
    void scopedActionsForTheWebhook() {
        GatekeeperPolicies p = load(constraint("s", """
                enforcementAction: scoped
                scopedEnforcementActions:
                - {action: warn, enforcementPoints: [{name: validation.gatekeeper.sh}]}
                - {action: deny, enforcementPoints: [{name: audit.gatekeeper.sh}]}"""));
        Verdict v = p.validate(pod("shop", "web", Map.of(), "x:latest"));
        assertTrue(v.allowed());
        assertEquals(List.of("[s] image with tag latest in s"), v.warnings());
    }

    @Test
    void refusalsNameTheDocument() {
        String regoOnly = """
                apiVersion: templates.gatekeeper.sh/v1
                kind: ConstraintTemplate
                metadata: {name: k8snotinthelibrary}
                spec:
                  crd: {spec: {names: {kind: K8sNotInTheLibrary}}}
                  targets:
                  - target: admission.k8s.gatekeeper.sh
                    code: [{engine: Rego, source: {rego: "package x"}}]
                """;
        var e = assertThrows(PolicyConfig.InvalidConfigException.class, () -> GatekeeperPolicies.load(
                ConfigFiles.parse(regoOnly, "t.yaml"), KubeCel.standard(),
                NamespaceOptions.config(Namespaces.Unknown.EMPTY)));
        assertTrue(e.getMessage().contains("ConstraintTemplate 'k8snotinthelibrary' (t.yaml#1): kind"
                + " K8sNotInTheLibrary has no K8sNativeValidation (CEL) source and Tollgate's library has no policy"
                + " for it"), e.getMessage());
        var orphan = assertThrows(PolicyConfig.InvalidConfigException.class, () -> GatekeeperPolicies.load(
                ConfigFiles.parse(constraint("x", "enforcementAction: deny").replace("K8sNoLatest", "K8sOther"),
                        "c.yaml"), KubeCel.standard(), NamespaceOptions.config(Namespaces.Unknown.EMPTY)));
        assertTrue(orphan.getMessage().contains("K8sOther 'x' (c.yaml#1): no ConstraintTemplate defines kind K8sOther"),
                orphan.getMessage());
        var action = assertThrows(PolicyConfig.InvalidConfigException.class, () -> load(constraint("x",
                "enforcementAction: block")));
        assertTrue(action.getMessage().contains("spec.enforcementAction: must be deny, warn, dryrun or scoped, got"
                + " 'block'"), action.getMessage());
    }

    @Test
    void aDeleteIsJudgedOnTheOldObject() {
        ObjectNode review = ConfigFiles.parse("""
                apiVersion: admission.k8s.io/v1
                kind: AdmissionReview
                request:
                  operation: DELETE
                  oldObject: {apiVersion: v1, kind: Pod, metadata: {name: a, namespace: s},
                              spec: {containers: [{name: c, image: "x:latest"}]}}
                """, "r").get(0).object();
        assertEquals(1, load(constraint("d", "enforcementAction: deny")).review(GatorRunnerAccess.request(review))
                .size());
    }

    /** The gator runner's request building, shared with these tests. */
    static final class GatorRunnerAccess {
        static AdmissionRequest request(ObjectNode object) {
            return GatorRunner.requestFor(object);
        }
    }
}
