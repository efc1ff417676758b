package dev.tollgate.cel.admission;

import java.util.List;
import java.util.Set;

/** The ValidatingAdmissionPolicy kinds read into the shared specs only, and the documentation's replica limit. */
final class Configs {

    static final PolicyConfig.Kinds<PolicySpec, BindingSpec> VAP = new PolicyConfig.Kinds<>(
            Set.of("admissionregistration.k8s.io/v1"), "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding",
            PolicySpec::parse, BindingSpec::parse, p -> p, b -> b);

    /** The Kubernetes documentation's replica limit: one policy, a param and a binding per environment. */
    static final String REPLICA_LIMIT = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: replicalimit-policy.example.com}
            spec:
              paramKind: {apiVersion: rules.example.com/v1, kind: ReplicaLimit}
              matchConstraints:
                resourceRules:
                - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
              validations:
              - expression: object.spec.replicas <= params.maxReplicas
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicyBinding
            metadata: {name: replicalimit-binding-test.example.com}
            spec:
              policyName: replicalimit-policy.example.com
              validationActions: [Deny]
              paramRef: {name: replica-limit-test.example.com, namespace: default, parameterNotFoundAction: Deny}
              matchResources: {namespaceSelector: {matchLabels: {environment: test}}}
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicyBinding
            metadata: {name: replicalimit-binding-prod.example.com}
            spec:
              policyName: replicalimit-policy.example.com
              validationActions: [Deny]
              paramRef: {name: replica-limit-prod.example.com, namespace: default, parameterNotFoundAction: Deny}
              matchResources: {namespaceSelector: {matchLabels: {environment: production}}}
            ---
            {apiVersion: rules.example.com/v1, kind: ReplicaLimit, metadata: {name: replica-limit-test.example.com, namespace: default}, maxReplicas: 3}
            ---
            {apiVersion: rules.example.com/v1, kind: ReplicaLimit, metadata: {name: replica-limit-prod.example.com, namespace: default}, maxReplicas: 100}
            ---
            {apiVersion: v1, kind: Namespace, metadata: {name: staging, labels: {environment: test}}}
            ---
            {apiVersion: v1, kind: Namespace, metadata: {name: shop, labels: {environment: production}}}
            ---
            {apiVersion: v1, kind: Namespace, metadata: {name: default}}
            """;

    private Configs() {
    }

    static PolicyConfig<PolicySpec, BindingSpec> load(String yaml, Namespaces.Unknown unknown) {
        return PolicyConfig.load(ConfigFiles.parse(yaml, "test.yaml"), VAP, unknown);
    }

    static List<String> names(List<BindingSpec> bindings) {
        return bindings.stream().map(BindingSpec::name).toList();
    }
}
