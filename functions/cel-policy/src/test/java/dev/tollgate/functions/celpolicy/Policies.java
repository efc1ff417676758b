package dev.tollgate.functions.celpolicy;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.Namespaces;
import dev.tollgate.testing.AdmissionTester;
import dev.tollgate.testing.Manifests;

/** Test helpers: a CelPolicy from inline YAML, and the objects the tables use. */
final class Policies {

    private Policies() {
    }

    static CelPolicy of(String yaml) {
        return of(yaml, Namespaces.Unknown.ERROR, "none");
    }

    static CelPolicy of(String yaml, Namespaces.Unknown unknown, String authorizer) {
        return new CelPolicy(ValidatingPolicies.load(ConfigFiles.parse(yaml, "test.yaml"),
                CelPolicy.environment(authorizer), unknown));
    }

    static AdmissionTester tester(String yaml) {
        return AdmissionTester.of(of(yaml));
    }

    static final String NAMESPACES = """
            apiVersion: v1
            kind: Namespace
            metadata: {name: default}
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: prod-ns, labels: {environment: prod}}
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: staging-ns, labels: {environment: staging}}
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: exempt-ns, labels: {environment: prod, exempt: "true"}}
            """;

    static ObjectNode deployment(String namespace, int replicas, String... images) {
        ObjectNode d = Manifests.parse("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: %s, labels: {app: web}}
                spec:
                  replicas: %d
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: []}
                """.formatted(namespace, replicas));
        var containers = d.withObject("/spec/template/spec").withArray("containers");
        for (int i = 0; i < images.length; i++) {
            containers.addObject().put("name", "c" + i).put("image", images[i]);
        }
        return d;
    }

    /** A policy on deployments with the given spec fragment, and a binding with the given actions. */
    static String deploymentPolicy(String name, String specFragment, String actions) {
        return """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: %1$s}
                spec:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
                %2$s
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: %1$s-binding}
                spec:
                  policyName: %1$s
                  validationActions: %3$s
                """.formatted(name, specFragment.indent(2).stripTrailing(), actions);
    }
}
