#!/usr/bin/env python3
"""Writes a realistic set of N ValidatingAdmissionPolicies with their bindings, for measuring how a CEL function's
cost grows with its policy count (policy-scaling.sh, README.md beside it).

    knative/cold-start/policy-set.py N DIR      (writes DIR/policies.yaml and DIR/namespaces.yaml)

The policies are the kind a platform team brings: label and annotation rules over several kinds, and Pod rules
(trusted registry, no privilege, limits, non-root, no :latest, no host namespaces or hostPath). They vary in
resources (pods alone, or pods with workloads, services and config, or batch), operations (CREATE, or CREATE and
UPDATE), namespaces (five namespaceSelector forms), matchConditions (every third) and validationActions. Each
expression carries its policy's number, so no two policies share an expression.

Two namespaces are written: `shop` (environment=production, team=shop, tier=backend), which every policy selects,
and `sandbox` (environment=sandbox), which only policy 0 selects. So knative/cold-start/pod-review.v1.json (a Pod
CREATE in `shop`, which passes every validation) matches all N policies, and the same review in `sandbox` matches
exactly one, whatever N.
"""
import os
import sys

# Validations: (expression, kinds), kinds "meta" (any kind with metadata) or "pod". {i} is the policy's number.
TEMPLATES = [
    ("has(object.metadata.labels) && 'team' in object.metadata.labels"
     " && object.metadata.labels['team'] != 'blocked-{i}'", "meta"),
    ("variables.images.all(img, img.startsWith('registry.example.com/') && !img.endsWith(':blocked-{i}'))", "pod"),
    ("object.spec.containers.all(c, !has(c.securityContext) || !has(c.securityContext.privileged)"
     " || !c.securityContext.privileged) && size(object.spec.containers) <= {n}", "pod"),
    ("object.spec.containers.all(c, has(c.resources) && has(c.resources.limits)"
     " && 'memory' in c.resources.limits) && size(object.spec.containers) <= {n}", "pod"),
    ("(!has(object.spec.hostNetwork) || !object.spec.hostNetwork) && (!has(object.spec.hostPID)"
     " || !object.spec.hostPID) && size(object.spec.containers) <= {n}", "pod"),
    ("has(object.spec.securityContext) && has(object.spec.securityContext.runAsNonRoot)"
     " && object.spec.securityContext.runAsNonRoot && size(object.spec.containers) <= {n}", "pod"),
    ("object.spec.containers.all(c, !c.image.endsWith(':latest') && !c.image.endsWith(':blocked-{i}'))", "pod"),
    ("!has(object.metadata.annotations) || object.metadata.annotations.all(k,"
     " size(object.metadata.annotations[k]) < {n}0)", "meta"),
    ("object.spec.containers.all(c, has(c.securityContext) && has(c.securityContext.allowPrivilegeEscalation)"
     " && !c.securityContext.allowPrivilegeEscalation) && size(object.spec.containers) <= {n}", "pod"),
    ("!has(object.spec.volumes) || object.spec.volumes.all(v, !has(v.hostPath))"
     " && size(object.spec.volumes) <= {n}", "pod"),
]

# Resources of a "meta" policy, rotating: (apiGroup, resources) rules, always including pods.
META_RESOURCES = [
    [("", ["pods"])],
    [("", ["pods"]), ("apps", ["deployments", "statefulsets", "daemonsets", "replicasets"])],
    [("", ["pods", "services", "configmaps"])],
    [("", ["pods"]), ("batch", ["jobs", "cronjobs"])],
    [("", ["pods", "serviceaccounts"]), ("networking.k8s.io", ["ingresses", "networkpolicies"])],
]

# namespaceSelectors of policies 1..N-1, rotating: each selects `shop`, none selects `sandbox`.
NAMESPACE_SELECTORS = [
    "matchLabels: {environment: production}",
    "matchExpressions: [{key: environment, operator: In, values: [production, staging]}]",
    "matchExpressions: [{key: environment, operator: NotIn, values: [sandbox, dev]}]",
    "matchExpressions: [{key: team, operator: Exists}]",
    "matchExpressions: [{key: tier, operator: In, values: [backend, frontend]}]",
]

ACTIONS = ["[Deny]", "[Deny]", "[Warn]", "[Deny, Audit]"]


def policy(i):
    name = f"p{i:03d}.bench.tollgate.dev"
    expression, kinds = TEMPLATES[i % len(TEMPLATES)]
    expression = expression.replace("{i}", str(i)).replace("{n}", str(50 + i))
    if kinds == "pod":
        resources = [("", ["pods"])]
    else:
        resources = META_RESOURCES[i % len(META_RESOURCES)]
    operations = '["CREATE"]' if i % 2 else '["CREATE", "UPDATE"]'
    rules = "".join(
        f"    - apiGroups: [\"{g}\"]\n      apiVersions: [\"v1\"]\n      operations: {operations}\n"
        f"      resources: [{', '.join(rs)}]\n" for g, rs in resources)
    out = [
        "apiVersion: admissionregistration.k8s.io/v1",
        "kind: ValidatingAdmissionPolicy",
        f"metadata:\n  name: {name}",
        "spec:",
        f"  failurePolicy: {'Ignore' if i % 4 == 3 else 'Fail'}",
        "  matchConstraints:",
    ]
    if i > 0:
        out.append(f"    namespaceSelector: {{{NAMESPACE_SELECTORS[i % len(NAMESPACE_SELECTORS)]}}}")
    out.append("    resourceRules:\n" + rules.rstrip("\n"))
    if i % 3 == 0:
        out.append("  matchConditions:\n  - name: not-exempt\n    expression: \"!has(object.metadata.annotations)"
                   f" || !('policy.example.com/exempt-{i}' in object.metadata.annotations)\"")
    if "variables.images" in expression:
        out.append("  variables:\n  - name: images\n    expression: \"object.spec.containers.map(c, c.image)"
                   " + (has(object.spec.initContainers) ? object.spec.initContainers.map(c, c.image) : [])\"")
    out.append("  validations:\n  - expression: >-\n      " + expression)
    out.append(f"    messageExpression: \"'policy {i} denied ' + object.kind\"")
    out.append("    reason: Forbidden")
    out.append("---")
    out.append("apiVersion: admissionregistration.k8s.io/v1")
    out.append("kind: ValidatingAdmissionPolicyBinding")
    out.append(f"metadata:\n  name: {name.replace('.bench', '-binding.bench')}")
    out.append(f"spec:\n  policyName: {name}\n  validationActions: {ACTIONS[i % len(ACTIONS)]}")
    return "\n".join(out) + "\n"


NAMESPACES = """apiVersion: v1
kind: Namespace
metadata:
  name: shop
  labels: {environment: production, team: shop, tier: backend}
---
apiVersion: v1
kind: Namespace
metadata:
  name: sandbox
  labels: {environment: sandbox}
"""


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: policy-set.py N DIR")
    n, target = int(sys.argv[1]), sys.argv[2]
    os.makedirs(target, exist_ok=True)
    with open(os.path.join(target, "policies.yaml"), "w") as f:
        f.write("---\n".join(policy(i) for i in range(n)))
    with open(os.path.join(target, "namespaces.yaml"), "w") as f:
        f.write(NAMESPACES)


if __name__ == "__main__":
    main()
