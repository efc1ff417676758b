# The registration of a CEL function derived from the policies it serves (`tollgate registration <policy files>`,
# shared/gatekeeper RegistrationRules): its rules, namespaceSelector and objectSelector replace the ones the catalog
# declares for the function's webhook, so the API server sends the function what its policies select, no more.

locals {
  # The policies' requirements on the namespace's name label need it on every namespace, which the API server sets
  # from Kubernetes 1.21: before that they are left to the function (it applies the full match anyway).
  policy_name_requirements_dropped = {
    for f, p in var.policy_rules : f => local.kubernetes_minor >= 21 ? [] : [
      for x in coalesce(try(p.namespaceSelector.matchExpressions, null), []) :
      "namespaceSelector ${x.key} ${x.operator} [${join(", ", coalesce(x.values, []))}] (needs Kubernetes 1.21)"
      if x.key == "kubernetes.io/metadata.name"
    ]
  }

  # The catalog entry of each function with a derived registration, its fields replaced.
  policy_webhook = {
    for f, p in var.policy_rules : f => merge(var.catalog.functions[f].webhooks[0].webhook, {
      rules = p.rules
      namespaceSelector = p.namespaceSelector == null ? null : {
        matchLabels = p.namespaceSelector.matchLabels
        matchExpressions = p.namespaceSelector.matchExpressions == null ? null : [
          for x in p.namespaceSelector.matchExpressions : x
          if local.kubernetes_minor >= 21 || x.key != "kubernetes.io/metadata.name"
        ]
      }
      objectSelector = p.objectSelector
    }) if contains(keys(var.catalog.functions), f)
  }

  # Sources whose content is not what the registration was derived from (changed since), and those not found here.
  policy_sources_changed = flatten([for f, p in var.policy_rules : [
    for s in p.sources : "${f}: ${s.file}" if fileexists(s.file) && try(filesha256(s.file), "") != s.sha256
  ]])
  policy_sources_missing = flatten([for f, p in var.policy_rules : [
    for s in p.sources : "${f}: ${s.file}" if !fileexists(s.file)
  ]])

  policy_rules_summary = {
    for f, p in var.policy_rules : f => {
      generated_by        = p.generated_by
      policies            = p.policies
      applied_by_function = concat(p.applied_by_function, local.policy_name_requirements_dropped[f])
    }
  }
}

# A registration whose policy files are not beside the plan cannot be compared with them: say so without failing.
check "policy_rules_sources_found" {
  assert {
    condition     = length(local.policy_sources_missing) == 0
    error_message = "policy_rules: these policy files are not found from the working directory, so the plan cannot tell whether the registration still matches them: ${join(", ", local.policy_sources_missing)} (run tollgate registration from the directory Terraform runs in)."
  }
}
