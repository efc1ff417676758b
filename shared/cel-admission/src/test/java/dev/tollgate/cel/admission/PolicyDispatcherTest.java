package dev.tollgate.cel.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;

/**
 * Which bindings and params a request is evaluated with, and the API server's "failed to configure" errors
 * (Kubernetes staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/generic/policy_dispatcher.go).
 */
class PolicyDispatcherTest {

    private static List<String> dispatch(String yaml, Namespaces.Unknown unknown, AdmissionRequest request) {
        PolicyConfig<PolicySpec, BindingSpec> config = Configs.load(yaml, unknown);
        PolicyDispatcher<PolicySpec, BindingSpec> dispatcher = new PolicyDispatcher<>(config, p -> p, b -> b);
        List<String> calls = new ArrayList<>();
        dispatcher.dispatch(request, new PolicyDispatcher.Handler<>() {
            @Override
            public void configError(PolicySpec policy, BindingSpec binding, String message) {
                calls.add("error " + policy.name() + (binding == null ? "" : " " + binding.name()) + ": " + message);
            }

            @Override
            public void evaluate(PolicySpec policy, BindingSpec binding, ObjectNode param) {
                calls.add("evaluate " + binding.name() + " with "
                        + (param == null ? "no param" : param.path("maxReplicas").asText()));
            }
        });
        return calls;
    }

    @Test
    void eachNamespaceGetsTheBindingAndParamOfItsEnvironment() {
        assertEquals(List.of("evaluate replicalimit-binding-test.example.com with 3"),
                dispatch(Configs.REPLICA_LIMIT, Namespaces.Unknown.ERROR, Requests.createDeployment("staging", 5)));
        assertEquals(List.of("evaluate replicalimit-binding-prod.example.com with 100"),
                dispatch(Configs.REPLICA_LIMIT, Namespaces.Unknown.ERROR, Requests.createDeployment("shop", 5)));
        assertEquals(List.of(),
                dispatch(Configs.REPLICA_LIMIT, Namespaces.Unknown.ERROR, Requests.createDeployment("default", 5)));
    }

    @Test
    void requestsOutsideTheMatchConstraintsAreNotDispatched() {
        assertEquals(List.of(),
                dispatch(Configs.REPLICA_LIMIT, Namespaces.Unknown.ERROR, Requests.createPod("staging", "{}")));
    }

    @Test
    void anUnknownNamespaceIsABindingConfigurationErrorUnlessTreatedAsEmpty() {
        // As the API server's NotFound for a namespace that does not exist, with the way to fix it.
        String unknown = "error replicalimit-policy.example.com %s: failed to configure binding: namespaces "
                + "\"nowhere\" not found (this function knows only the namespaces in its policy configuration files: "
                + "add a Namespace object for it, or set unknown-namespace=empty)";
        assertEquals(List.of(unknown.formatted("replicalimit-binding-prod.example.com"),
                unknown.formatted("replicalimit-binding-test.example.com")),
                dispatch(Configs.REPLICA_LIMIT, Namespaces.Unknown.ERROR, Requests.createDeployment("nowhere", 5)));
        assertEquals(List.of(),
                dispatch(Configs.REPLICA_LIMIT, Namespaces.Unknown.EMPTY, Requests.createDeployment("nowhere", 5)));
    }

    @Test
    void aMissingParamUnderDenyIsAConfigurationErrorUnderAllowASkip() {
        String yaml = Configs.REPLICA_LIMIT.replace("name: replica-limit-test.example.com, namespace: default,"
                + " parameterNotFoundAction: Deny", "name: absent, namespace: default, parameterNotFoundAction: Deny");
        assertEquals(List.of("error replicalimit-policy.example.com replicalimit-binding-test.example.com: failed to"
                + " configure binding: no params found for policy binding with `Deny` parameterNotFoundAction"),
                dispatch(yaml, Namespaces.Unknown.ERROR, Requests.createDeployment("staging", 5)));
        String allow = yaml.replace("name: absent, namespace: default, parameterNotFoundAction: Deny",
                "name: absent, namespace: default, parameterNotFoundAction: Allow");
        assertEquals(List.of(), dispatch(allow, Namespaces.Unknown.ERROR, Requests.createDeployment("staging", 5)));
    }

    @Test
    void aParamSelectorEvaluatesEveryMatchingParam() {
        String yaml = Configs.REPLICA_LIMIT.replace("name: replica-limit-test.example.com, namespace: default,",
                "selector: {}, namespace: default,");
        assertEquals(List.of("evaluate replicalimit-binding-test.example.com with 100",
                "evaluate replicalimit-binding-test.example.com with 3"),
                dispatch(yaml, Namespaces.Unknown.ERROR, Requests.createDeployment("staging", 5)));
    }
}
