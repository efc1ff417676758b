package dev.tollgate.cel.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.GroupVersionKind;
import dev.tollgate.admission.GroupVersionResource;
import dev.tollgate.admission.KubeObject;
import dev.tollgate.admission.Operation;
import dev.tollgate.admission.UserInfo;

/**
 * The dispatcher's index: the same dispatch as looking at every policy (the scan it replaces) on every request of a
 * grid, and only the policies that can select a request looked at.
 */
class PolicyIndexTest {

    /** Policies over every shape of rule and selector the index handles, with namespaces to select by. */
    private static final String VARIED = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: a-pods}
            spec:
              matchConstraints:
                resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [pods]}]
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: b-pods-production}
            spec:
              matchConstraints:
                namespaceSelector: {matchLabels: {environment: production}}
                resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods, pods/status]}]
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: c-workloads-production}
            spec:
              matchConstraints:
                namespaceSelector: {matchLabels: {environment: production}}
                resourceRules:
                - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
                - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments, deployments/scale]}
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: d-everything-not-sandbox}
            spec:
              matchConstraints:
                namespaceSelector: {matchExpressions: [{key: environment, operator: NotIn, values: [sandbox]}]}
                resourceRules: [{apiGroups: ["*"], apiVersions: ["*"], operations: ["*"], resources: ["*/*"]}]
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: e-any-group-deployments-delete}
            spec:
              matchConstraints:
                resourceRules: [{apiGroups: ["*"], apiVersions: ["*"], operations: [DELETE], resources: [deployments]}]
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: f-core-all-but-exec}
            spec:
              matchConstraints:
                objectSelector: {matchExpressions: [{key: app, operator: Exists}]}
                resourceRules: [{apiGroups: [""], apiVersions: ["*"], operations: ["*"], resources: ["*", "pods/*"]}]
                excludeResourceRules: [{apiGroups: [""], apiVersions: ["*"], operations: [CONNECT], resources: [pods/exec]}]
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: g-exact-v1-deployments}
            spec:
              matchConstraints:
                matchPolicy: Exact
                resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: h-cluster-scoped}
            spec:
              matchConstraints:
                namespaceSelector: {matchLabels: {environment: production}}
                resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE, DELETE], resources: [namespaces, nodes], scope: Cluster}]
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: i-widgets-test}
            spec:
              matchConstraints:
                namespaceSelector: {matchExpressions: [{key: environment, operator: In, values: [test, sandbox]}]}
                resourceRules: [{apiGroups: [example.com], apiVersions: ["*"], operations: [CREATE, UPDATE], resources: [widgets]}]
            """;

    private static final String NAMESPACES = """
            {apiVersion: v1, kind: Namespace, metadata: {name: shop, labels: {environment: production}}}
            ---
            {apiVersion: v1, kind: Namespace, metadata: {name: staging, labels: {environment: test}}}
            ---
            {apiVersion: v1, kind: Namespace, metadata: {name: sandbox, labels: {environment: sandbox}}}
            """;

    /** Every policy bound twice: without matchResources, and to the namespaces labelled environment=test. */
    private static String withBindings(String policies) {
        StringBuilder out = new StringBuilder(policies);
        for (String name : policies.lines().filter(l -> l.startsWith("metadata: {name: "))
                .map(l -> l.substring("metadata: {name: ".length(), l.length() - 1)).toList()) {
            out.append("---\n").append("""
                    apiVersion: admissionregistration.k8s.io/v1
                    kind: ValidatingAdmissionPolicyBinding
                    metadata: {name: %1$s-all}
                    spec: {policyName: %1$s, validationActions: [Deny]}
                    ---
                    apiVersion: admissionregistration.k8s.io/v1
                    kind: ValidatingAdmissionPolicyBinding
                    metadata: {name: %1$s-test}
                    spec:
                      policyName: %1$s
                      validationActions: [Deny]
                      matchResources: {namespaceSelector: {matchLabels: {environment: test}}}
                    """.formatted(name));
        }
        return out.append("---\n").append(NAMESPACES).toString();
    }

    private static List<String> dispatch(PolicyDispatcher<PolicySpec, BindingSpec> dispatcher, AdmissionRequest r) {
        List<String> calls = new ArrayList<>();
        dispatcher.dispatch(r, new PolicyDispatcher.Handler<>() {
            @Override
            public void configError(PolicySpec policy, BindingSpec binding, String message) {
                calls.add("error " + policy.name() + (binding == null ? "" : " " + binding.name()) + ": " + message);
            }

            @Override
            public void evaluate(PolicySpec policy, BindingSpec binding, ObjectNode param) {
                calls.add("evaluate " + binding.name());
            }
        });
        return calls;
    }

    private static AdmissionRequest request(Operation op, GroupVersionResource requested, String requestedSub,
            GroupVersionResource received, String sub, String namespace, String objectLabels) {
        String kind = Character.toUpperCase(received.resource().charAt(0)) + received.resource().substring(1);
        ObjectNode object = Requests.json("{'metadata': {'name': 'x', 'namespace': '" + namespace + "', 'labels': "
                + objectLabels + "}}");
        return new AdmissionRequest("uid-1", GroupVersionKind.of(received.group(), received.version(), kind),
                received, sub, GroupVersionKind.of(requested.group(), requested.version(), kind), requested,
                requestedSub, "x", namespace, op, new UserInfo("alice", "u-1", List.of(), Map.of()),
                op == Operation.DELETE ? null : KubeObject.of(object), op == Operation.CREATE ? null
                        : KubeObject.of(object), null, false);
    }

    /** Every combination of operation, resource (requested and received), subresource, namespace and labels. */
    private static List<AdmissionRequest> grid() {
        GroupVersionResource pods = GroupVersionResource.of("", "v1", "pods");
        GroupVersionResource deployments = GroupVersionResource.of("apps", "v1", "deployments");
        GroupVersionResource oldDeployments = GroupVersionResource.of("extensions", "v1beta1", "deployments");
        GroupVersionResource namespaces = GroupVersionResource.of("", "v1", "namespaces");
        GroupVersionResource nodes = GroupVersionResource.of("", "v1", "nodes");
        GroupVersionResource widgets = GroupVersionResource.of("example.com", "v2", "widgets");
        GroupVersionResource configmaps = GroupVersionResource.of("", "v1", "configmaps");
        // {requested, requested subresource, received, received subresource}
        List<Object[]> resources = List.of(new Object[] {pods, "", pods, ""}, new Object[] {pods, "status", pods,
                "status"}, new Object[] {pods, "exec", pods, "exec"}, new Object[] {deployments, "", deployments, ""},
                new Object[] {deployments, "scale", deployments, "scale"}, new Object[] {oldDeployments, "",
                        deployments, ""}, new Object[] {widgets, "", widgets, ""}, new Object[] {configmaps, "",
                        configmaps, ""}, new Object[] {namespaces, "", namespaces, ""}, new Object[] {nodes, "", nodes,
                        ""});
        List<AdmissionRequest> out = new ArrayList<>();
        for (Operation op : Operation.values()) {
            for (Object[] r : resources) {
                GroupVersionResource received = (GroupVersionResource) r[2];
                boolean clusterScoped = received.equals(namespaces) || received.equals(nodes);
                List<String> inNamespaces = clusterScoped ? List.of("") : List.of("shop", "staging", "sandbox",
                        "nowhere");
                if (received.equals(namespaces)) {
                    inNamespaces = List.of("shop", "sandbox");   // a Namespace's request carries its own name
                }
                for (String ns : inNamespaces) {
                    for (String labels : List.of("{}", "{'app': 'web'}")) {
                        out.add(request(op, (GroupVersionResource) r[0], (String) r[1], received, (String) r[3], ns,
                                labels));
                    }
                }
            }
        }
        return out;
    }

    @Test
    void dispatchesExactlyAsTheScanOnEveryRequestOfTheGrid() {
        for (Namespaces.Unknown unknown : Namespaces.Unknown.values()) {
            PolicyConfig<PolicySpec, BindingSpec> config = Configs.load(withBindings(VARIED), unknown);
            var indexed = new PolicyDispatcher<>(config, p -> p, b -> b);
            var scan = new PolicyDispatcher<>(config, p -> p, b -> b, false);
            int looked = 0;
            int matched = 0;
            List<AdmissionRequest> grid = grid();
            for (AdmissionRequest r : grid) {
                List<String> expected = dispatch(scan, r);
                assertEquals(expected, dispatch(indexed, r), () -> r.operation() + " " + r.requestResource() + "/"
                        + r.requestSubResource() + " in '" + r.namespace() + "' (" + unknown + ")");
                looked += indexed.candidates(r.cluster(), r).size();
                matched += expected.isEmpty() ? 0 : 1;
            }
            // The grid exercises both sides: requests that match and requests the index leaves most policies out of.
            assertTrue(matched > 0 && matched < grid.size(), "matched " + matched + " of " + grid.size());
            assertTrue(looked < grid.size() * config.policies().size() / 2, "looked at " + looked + " policies for "
                    + grid.size() + " requests of " + config.policies().size() + " policies");
        }
    }

    @Test
    void aRequestIsLookedAtOnlyByThePoliciesThatCanSelectIt() {
        var dispatcher = new PolicyDispatcher<>(Configs.load(withBindings(VARIED), Namespaces.Unknown.EMPTY),
                p -> p, b -> b);
        GroupVersionResource pods = GroupVersionResource.of("", "v1", "pods");
        GroupVersionResource deployments = GroupVersionResource.of("apps", "v1", "deployments");
        assertEquals(List.of("a-pods", "b-pods-production", "c-workloads-production", "d-everything-not-sandbox",
                "f-core-all-but-exec"), names(dispatcher, request(Operation.CREATE, pods, "", pods, "", "shop", "{}")));
        // environment=sandbox: the production selectors and d's NotIn leave b, c and d out.
        assertEquals(List.of("a-pods", "f-core-all-but-exec"),
                names(dispatcher, request(Operation.CREATE, pods, "", pods, "", "sandbox", "{}")));
        // Operation: UPDATE of a Pod is not in b's or c's rules.
        assertEquals(List.of("a-pods", "d-everything-not-sandbox", "f-core-all-but-exec"),
                names(dispatcher, request(Operation.UPDATE, pods, "", pods, "", "shop", "{}")));
        assertEquals(List.of("c-workloads-production", "d-everything-not-sandbox", "g-exact-v1-deployments"),
                names(dispatcher, request(Operation.CREATE, deployments, "", deployments, "", "shop", "{}")));
        assertEquals(List.of("d-everything-not-sandbox", "e-any-group-deployments-delete"),
                names(dispatcher, request(Operation.DELETE, deployments, "", deployments, "", "shop", "{}")));
        // A namespace whose labels cannot be read leaves the policies in: the full match reports it.
        var strict = new PolicyDispatcher<>(Configs.load(withBindings(VARIED), Namespaces.Unknown.ERROR),
                p -> p, b -> b);
        assertEquals(List.of("a-pods", "b-pods-production", "c-workloads-production", "d-everything-not-sandbox",
                "f-core-all-but-exec"), names(strict, request(Operation.CREATE, pods, "", pods, "", "nowhere", "{}")));
    }

    @Test
    void equalNamespaceSelectorsAreEvaluatedOncePerRequest() {
        PolicyConfig<PolicySpec, BindingSpec> config = Configs.load(withBindings(VARIED), Namespaces.Unknown.EMPTY);
        PolicyIndex index = new PolicyIndex(config.policies().stream().map(PolicySpec::matchConstraints).toList());
        // b, c and h share {environment: production}; d and i have one each.
        assertEquals(3, index.distinctNamespaceSelectors());
    }

    private static List<String> names(PolicyDispatcher<PolicySpec, BindingSpec> d, AdmissionRequest r) {
        return d.candidates(r.cluster(), r).stream().map(PolicySpec::name).toList();
    }
}
