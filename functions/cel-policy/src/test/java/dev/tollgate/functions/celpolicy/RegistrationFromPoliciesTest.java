package dev.tollgate.functions.celpolicy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
import dev.tollgate.admission.match.Rule;
import dev.tollgate.admission.registration.Registrations;
import dev.tollgate.cel.admission.BindingSpec;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.KubernetesSchemas;
import dev.tollgate.cel.admission.Namespaces;
import dev.tollgate.cel.admission.PolicySpec;
import dev.tollgate.gatekeeper.RegistrationRules;

/**
 * The registration derived from examples/ (what {@code tollgate registration examples/} writes for Terraform) never
 * keeps a request from the function that one of its policies selects, over every built-in resource, operation and
 * namespace of the examples; and webhook.yaml, which registers the function for them by default, covers it.
 */
class RegistrationFromPoliciesTest {

    @Test
    void everyRequestAnExamplePolicySelectsIsSentAndWebhookYamlCoversTheDerivedRules() {
        List<ConfigFiles.Document> docs = ConfigFiles.read(List.of(Path.of("examples")));
        RegistrationRules.Result derived = RegistrationRules.derive(docs, RegistrationRules.GATEKEEPER_OPERATIONS);
        List<Rule> declared = Registrations.load(Path.of("webhook.yaml")).get(0).rules();
        Map<String, PolicySpec> policies = new LinkedHashMap<>();
        List<BindingSpec> bindings = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (ConfigFiles.Document d : docs) {
            if (d.kind().equals("ValidatingAdmissionPolicy")) {
                policies.put(d.name(), PolicySpec.parse(d, errors));
            } else if (d.kind().equals("ValidatingAdmissionPolicyBinding")) {
                bindings.add(BindingSpec.parse(d, errors));
            }
        }
        assertEquals(List.of(), errors);
        Namespaces namespaces = Namespaces.from(docs, Namespaces.Unknown.EMPTY);
        List<String> problems = new ArrayList<>();
        int selected = 0;
        int keptAway = 0;
        for (KubernetesSchemas.BuiltInResource r : KubernetesSchemas.builtInResources()) {
            for (Operation op : Operation.values()) {
                for (String ns : r.namespaced() ? List.of("default", "shop", "sandbox", "elsewhere") : List.of("")) {
                    AdmissionRequest request = request(op, r, ns);
                    boolean selects = bindings.stream().anyMatch(b -> policies.containsKey(b.policyName())
                            && policies.get(b.policyName()).matchConstraints().matches(request, namespaces)
                            && b.matchResources().matches(request, namespaces));
                    boolean sent = derived.sends(request, namespaces.labelsFor(request));
                    if (selects && !sent) {
                        problems.add("not sent: " + op + " " + r.gvk() + " in '" + ns + "'");
                    }
                    if (sent && declared.stream().noneMatch(rule -> rule.matches(request))) {
                        problems.add("not in webhook.yaml: " + op + " " + r.gvk() + " in '" + ns + "'");
                    }
                    selected += selects ? 1 : 0;
                    keptAway += !sent ? 1 : 0;
                }
            }
        }
        assertEquals(List.of(), problems);
        assertTrue(selected >= 12, "the examples select requests: " + selected);
        assertTrue(keptAway > 1000, "the registration keeps the rest away: " + keptAway);
    }

    private static AdmissionRequest request(Operation op, KubernetesSchemas.BuiltInResource r, String namespace) {
        GroupVersionKind kind = r.gvk();
        GroupVersionResource gvr = GroupVersionResource.of(kind.group(), kind.version(), r.resource());
        ObjectNode json = (ObjectNode) ConfigFiles.parse("{metadata: {name: x}}", "object").get(0).object();
        json.put("apiVersion", kind.group().isEmpty() ? kind.version() : kind.group() + "/" + kind.version())
                .put("kind", kind.kind());
        if (!namespace.isEmpty()) {
            json.with("metadata").put("namespace", namespace);
        }
        KubeObject object = KubeObject.of(json);
        boolean isNamespace = r.resource().equals("namespaces") && kind.group().isEmpty();
        return new AdmissionRequest("t", kind, gvr, "", kind, gvr, "", "x", isNamespace ? "x" : namespace, op,
                UserInfo.ANONYMOUS, op == Operation.DELETE ? null : object, op == Operation.CREATE ? null : object,
                null, false);
    }
}
