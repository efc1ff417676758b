package dev.tollgate.gatekeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.GroupVersionKind;
import dev.tollgate.admission.GroupVersionResource;
import dev.tollgate.admission.KubeObject;
import dev.tollgate.admission.Operation;
import dev.tollgate.admission.UserInfo;
import dev.tollgate.admission.match.Rule;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.KubernetesModels;
import dev.tollgate.cel.admission.PolicyConfig;
import dev.tollgate.gatekeeper.gator.GatorRunner;
import dev.tollgate.gatekeeper.gator.GatorSuite;
import dev.tollgate.testing.Skip;

/** The webhook registration derived from Constraints and admission policies: what it sends, and never too little. */
class RegistrationRulesTest {

    static RegistrationRules.Result derive(String yaml) {
        return RegistrationRules.derive(ConfigFiles.parse(yaml, "test.yaml"), RegistrationRules.GATEKEEPER_OPERATIONS);
    }

    static String constraint(String name, String match) {
        return """
                apiVersion: constraints.gatekeeper.sh/v1beta1
                kind: K8sRequiredLabels
                metadata: {name: %s}
                spec:
                  match:
                %s
                ---
                """.formatted(name, match.indent(4));
    }

    @Test
    void kindsBecomeTheirResourcesWithGatekeepersOperationsAndTheConstraintsScope() {
        var r = derive(constraint("a", """
                kinds:
                - {apiGroups: [""], kinds: [Pod, Namespace]}
                - {apiGroups: [apps, extensions], kinds: [Deployment]}
                scope: Namespaced"""));
        assertEquals("""
                {"rules":[{"operations":["CREATE","UPDATE"],"apiGroups":[""],"apiVersions":["*"],\
                "resources":["namespaces","pods"],"scope":"Namespaced"},{"operations":["CREATE","UPDATE"],\
                "apiGroups":["apps","extensions"],"apiVersions":["*"],"resources":["deployments"],\
                "scope":"Namespaced"}],"policies":["K8sRequiredLabels/a"],"applied_by_function":[]}""",
                r.toJson().toString());
    }

    @Test
    void wildcardKindsGetGatekeepersOwnResourceListAndAnyGroupFindsTheKindInEveryGroup() {
        var all = derive(constraint("a", "kinds: [{apiGroups: ['*'], kinds: ['*']}]"));
        assertEquals(1, all.rules().size());
        assertEquals(List.of("*"), all.rules().get(0).apiGroups());
        assertTrue(all.rules().get(0).resources().containsAll(List.of("*", "pods/exec", "deployments/scale")));
        var none = derive(constraint("a", "scope: Cluster"));
        assertEquals(all.rules().get(0).resources(), none.rules().get(0).resources());
        assertEquals("Cluster", none.rules().get(0).scope());
        var ingress = derive(constraint("a", "kinds: [{apiGroups: ['*'], kinds: [Ingress]}]"));
        assertEquals(List.of("ingresses"), ingress.rules().get(0).resources());
        assertEquals(List.of("*"), ingress.rules().get(0).apiGroups());
    }

    @Test
    void mergedRulesStayValidForTheApiServer() {
        var r = derive(constraint("all", "kinds: [{apiGroups: [''], kinds: ['*']}]")
                + constraint("pods", "kinds: [{apiGroups: [''], kinds: [Pod]}]"));
        assertEquals(1, r.rules().size());
        assertEquals("*", r.rules().get(0).resources().get(0));
        assertFalse(r.rules().get(0).resources().contains("pods"), "\"*\" covers pods: " + r.rules());
        var rule = (ObjectNode) r.toJson().path("rules").get(0);
        var entry = (ObjectNode) ConfigFiles.parse("""
                name: cel-policy.tollgate.dev
                type: validating
                path: /cel-policy
                sideEffects: None
                admissionReviewVersions: [v1]
                """, "webhook.yaml").get(0).object();
        entry.putArray("rules").add(rule);
        assertEquals(List.of(), dev.tollgate.admission.registration.RegistrationValidator.validateDeclared(
                new dev.tollgate.admission.registration.WebhookRegistration("cel-policy", entry)));
        assertEquals(List.of(new Rule(List.of("CREATE"), List.of("*"), List.of("*"), List.of("*/*"), "*")),
                RegistrationRules.merge(List.of(new Rule(List.of("CREATE"), List.of("*"), List.of("*"),
                        List.of("pods", "*/*", "*"), "*"))));
    }

    @Test
    void anUnknownKindIsOneLineNamingTheConstraintAndTheKindUnlessItsCrdIsGiven() {
        String c = constraint("crontabs-only", "kinds: [{apiGroups: [stable.example.com], kinds: [CronTab]}]");
        var e = assertThrows(PolicyConfig.InvalidConfigException.class, () -> derive(c));
        assertEquals("invalid policy configuration:\n  - K8sRequiredLabels/crontabs-only (test.yaml#1): "
                + "spec.match.kinds[0]: kind CronTab of group 'stable.example.com' is not a built-in kind and no "
                + "CustomResourceDefinition given defines it: give its CustomResourceDefinition with the policies",
                e.getMessage());
        var r = derive(c + """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: crontabs.stable.example.com}
                spec:
                  group: stable.example.com
                  names: {kind: CronTab, plural: crontabs}
                  scope: Namespaced
                """);
        assertEquals(List.of("crontabs"), r.rules().get(0).resources());
    }

    @Test
    void namespacesByExactNameAndLabelSelectorsBecomeSelectorsGlobsAndNamesAreLeftToTheFunction() {
        var r = derive(constraint("a", """
                kinds: [{apiGroups: [""], kinds: [Pod]}]
                namespaces: [shop, web]
                excludedNamespaces: [shop-old, "kube-*"]
                name: "web-*"
                labelSelector: {matchLabels: {tier: frontend}}
                namespaceSelector: {matchExpressions: [{key: team, operator: Exists}]}"""));
        assertEquals("""
                {"matchExpressions":[{"key":"kubernetes.io/metadata.name","operator":"In","values":["shop","web"]},\
                {"key":"team","operator":"Exists"}]}""", r.toJson().get("namespaceSelector").toString(),
                "the exact excluded name is implied by the names it is in");
        var excluded = derive(constraint("a", "excludedNamespaces: [shop-old, 'kube-*']"));
        assertEquals("""
                {"matchExpressions":[{"key":"kubernetes.io/metadata.name","operator":"NotIn","values":["shop-old"]}]}\
                """, excluded.toJson().get("namespaceSelector").toString());
        assertEquals("""
                {"matchExpressions":[{"key":"tier","operator":"In","values":["frontend"]}]}""",
                r.toJson().get("objectSelector").toString());
        assertEquals(List.of("K8sRequiredLabels/a: excludedNamespaces [kube-*] (globs)",
                "K8sRequiredLabels/a: name web-*"),
                r.appliedByFunction());
        var glob = derive(constraint("a", "namespaces: [shop, 'web-*']"));
        assertFalse(glob.toJson().has("namespaceSelector"));
        assertEquals(List.of("K8sRequiredLabels/a: namespaces [shop, web-*] (globs)"), glob.appliedByFunction());
    }

    @Test
    void severalPoliciesKeepOnlyWhatEveryOneImplies() {
        var r = derive(constraint("a", """
                excludedNamespaces: [x, y]
                labelSelector: {matchLabels: {tier: frontend, team: a}}""")
                + constraint("b", """
                        excludedNamespaces: [y, z]
                        labelSelector: {matchExpressions: [{key: tier, operator: In, values: [backend]}]}"""));
        assertEquals("""
                {"matchExpressions":[{"key":"kubernetes.io/metadata.name","operator":"NotIn","values":["y"]}]}""",
                r.toJson().get("namespaceSelector").toString());
        var names = derive(constraint("a", "namespaces: [shop]") + constraint("b", "namespaces: [web]"));
        assertEquals("""
                {"matchExpressions":[{"key":"kubernetes.io/metadata.name","operator":"In","values":["shop","web"]}]}\
                """, names.toJson().get("namespaceSelector").toString());
        assertEquals("""
                {"matchExpressions":[{"key":"tier","operator":"In","values":["backend","frontend"]}]}""",
                r.toJson().get("objectSelector").toString());
        // One policy without any selector: the webhook cannot select at all.
        var open = derive(constraint("a", "namespaces: [shop]") + constraint("b", "kinds: []"));
        assertFalse(open.toJson().has("namespaceSelector"));
    }

    @Test
    void admissionPoliciesGiveTheirRulesWhenBoundAndTheirBindingsSelectors() {
        String policy = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: p}
                spec:
                  matchConstraints:
                    namespaceSelector: {matchExpressions: [{key: env, operator: Exists}]}
                    resourceRules:
                    - apiGroups: [apps]
                      apiVersions: [v1]
                      operations: [CREATE]
                      resources: [deployments]
                      scope: Namespaced
                  validations: [{expression: "true"}]
                ---
                """;
        assertEquals(List.of(), derive(policy).rules(), "a policy without binding selects nothing");
        var r = derive(policy + """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: b}
                spec:
                  policyName: p
                  validationActions: [Deny]
                  matchResources:
                    namespaceSelector: {matchLabels: {env: prod}}
                    objectSelector: {matchLabels: {app: web}}
                """);
        assertEquals("""
                {"rules":[{"operations":["CREATE"],"apiGroups":["apps"],"apiVersions":["*"],\
                "resources":["deployments"],"scope":"Namespaced"}],"namespaceSelector":{"matchExpressions":\
                [{"key":"env","operator":"In","values":["prod"]}]},"objectSelector":{"matchExpressions":\
                [{"key":"app","operator":"In","values":["web"]}]},"policies":["ValidatingAdmissionPolicy/p \
                (binding b)"],"applied_by_function":[]}""", r.toJson().toString());
    }

    @Test
    void theWebhookEntryGetsTheDerivedFieldsInPlaceOfItsOwn() {
        ObjectNode entry = (ObjectNode) ConfigFiles.parse("""
                name: cel-policy.tollgate.dev
                rules: [{operations: [CREATE], apiGroups: [""], apiVersions: ["*"], resources: [pods]}]
                objectSelector: {matchLabels: {old: one}}
                timeoutSeconds: 10
                """, "webhook.yaml").get(0).object();
        ObjectNode applied = derive(constraint("a", "kinds: [{apiGroups: [apps], kinds: [Deployment]}]"))
                .applyTo(entry);
        assertEquals("[\"deployments\"]", applied.path("rules").get(0).path("resources").toString());
        assertFalse(applied.has("objectSelector"));
        assertEquals(10, applied.path("timeoutSeconds").asInt());
        assertEquals("[\"pods\"]", entry.path("rules").get(0).path("resources").toString(), "the entry is unchanged");
    }

    /**
     * Every case object of every gatekeeper-library suite, for each operation Gatekeeper registers, against the
     * registration derived from each of the library's sample constraints alone: a request the constraint selects is
     * sent (never narrower), and some that it does not select are kept away (kinds it does not name).
     */
    @Test
    void everyLibrarySampleObjectAConstraintSelectsReachesTheFunction() throws IOException {
        Path root = GatekeeperLibrarySuitesTest.library();
        Skip.unless(root != null && Files.isDirectory(root), "RegistrationRulesTest",
                () -> "fixture " + (root == null ? "(tollgate.fixtures.dir is not set)"
                        : root.toAbsolutePath().normalize()) + " is absent");
        List<String> problems = new ArrayList<>();
        Map<Path, Constraint> constraints = new TreeMap<>();
        Map<Path, RegistrationRules.Result> derived = new HashMap<>();
        Map<Path, AdmissionRequest> objects = new TreeMap<>();
        for (Path suiteFile : GatekeeperLibrarySuitesTest.suites()) {
            Path dir = suiteFile.getParent();
            for (GatorSuite.Test t : GatorSuite.read(suiteFile).tests()) {
                if (t.invalid() || t.constraint().isEmpty()) {
                    continue;
                }
                Path file = dir.resolve(t.constraint()).normalize();
                List<ConfigFiles.Document> docs = ConfigFiles.read(List.of(file));
                try {
                    derived.put(file, RegistrationRules.derive(docs, RegistrationRules.GATEKEEPER_OPERATIONS));
                    constraints.put(file, Constraint.parse(docs.get(0), new ArrayList<>()));
                } catch (RuntimeException e) {
                    problems.add(file + ": " + e.getMessage());
                }
                for (GatorSuite.Case k : t.cases()) {
                    if (!k.object().isEmpty()) {
                        Path o = dir.resolve(k.object()).normalize();
                        objects.put(o, GatorRunner.requestFor(ConfigFiles.read(List.of(o)).get(0).object()));
                    }
                }
            }
        }
        int selected = 0;
        int keptAway = 0;
        for (var o : objects.entrySet()) {
            AdmissionRequest gator = o.getValue();
            KubeObject subject = gator.object() != null ? gator.object() : gator.oldObject();
            var model = KubernetesModels.lookup(gator.kind());
            if (model.isEmpty()) {
                continue; // not a built-in kind: no resource to request
            }
            for (String op : RegistrationRules.GATEKEEPER_OPERATIONS) {
                AdmissionRequest request = request(Operation.valueOf(op), gator.kind(), model.get().resource(),
                        model.get().namespaced() ? subject.namespace() : "", subject);
                for (var c : constraints.entrySet()) {
                    boolean matches = c.getValue().match().matches(subject, request.namespace(),
                            RegistrationRulesTest::namespace);
                    boolean sent = sends(derived.get(c.getKey()), request, subject);
                    if (matches && !sent) {
                        problems.add(o.getKey() + " (" + op + "): selected by " + c.getKey() + " but not sent by "
                                + derived.get(c.getKey()).toJson());
                    }
                    selected += matches ? 1 : 0;
                    keptAway += !matches && !sent ? 1 : 0;
                }
            }
        }
        System.out.println("RegistrationRulesTest: " + constraints.size() + " constraints, " + objects.size()
                + " objects: " + selected + " selected requests all sent, " + keptAway
                + " unselected ones kept away by the registration");
        assertEquals(List.of(), problems);
        assertTrue(selected > 300, "the library's samples were read: " + selected);
        assertTrue(keptAway > 1000, "the registrations keep other kinds away: " + keptAway);
    }

    static ObjectNode namespace(String name) {
        ObjectNode ns = ConfigFiles.parse("{apiVersion: v1, kind: Namespace, metadata: {name: x}}", "ns").get(0)
                .object();
        ns.with("metadata").put("name", name).with("labels").put(RegistrationRules.NAMESPACE_NAME_LABEL, name);
        return ns;
    }

    static AdmissionRequest request(Operation op, GroupVersionKind kind, String resource, String namespace,
            KubeObject object) {
        GroupVersionResource gvr = GroupVersionResource.of(kind.group(), kind.version(), resource);
        boolean isNamespace = kind.kind().equals("Namespace") && kind.group().isEmpty();
        return new AdmissionRequest("t", kind, gvr, "", kind, gvr, "", object.name(),
                isNamespace ? object.name() : namespace, op, UserInfo.ANONYMOUS, object, null, null, false);
    }

    /** The labels of the request's namespace as the API server has them: its name label, a Namespace's own labels. */
    static boolean sends(RegistrationRules.Result r, AdmissionRequest request, KubeObject object) {
        boolean isNamespace = request.resource().resource().equals("namespaces")
                && request.resource().group().isEmpty();
        Map<String, String> nsLabels = new HashMap<>();
        if (isNamespace) {
            nsLabels.putAll(object.labels());
        }
        nsLabels.put(RegistrationRules.NAMESPACE_NAME_LABEL, request.namespace());
        return r.sends(request, nsLabels);
    }
}
