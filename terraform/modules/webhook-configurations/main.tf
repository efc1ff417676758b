# Renders the catalog into one MutatingWebhookConfiguration and one ValidatingWebhookConfiguration.
# Nothing here talks to a provider: the outputs are plain objects (and YAML) for cluster-registration, kubectl or a
# GitOps repository.

locals {
  cold_start = var.timing.cold_start_seconds
  evaluation = var.timing.evaluation_seconds
  network    = var.timing.network_seconds

  # A cold call: the platform must wait for a cold start plus the evaluation, and the API server that long plus the
  # network round trip. Each part is rounded up to whole seconds because Knative, Lambda and the API server all take
  # whole seconds.
  needed_timeout_seconds = ceil(local.cold_start + local.evaluation) + ceil(local.network)
  budget_timeout_seconds = min(30, local.needed_timeout_seconds)

  selected = toset(var.functions == null ? keys(var.catalog.functions) : var.functions)
  enabled = [
    for f in sort(keys(var.catalog.functions)) : f
    if contains(local.selected, f) && (contains(keys(var.overrides), f) ? var.overrides[f].enabled : true)
  ]
  override = { for f in local.enabled : f => contains(keys(var.overrides), f) ? var.overrides[f] : null }

  excluded_namespaces = sort(distinct(concat(var.excluded_namespaces, var.functions_namespace == null ? [] : [var.functions_namespace])))

  # The timeoutSeconds a function declares in its webhook.yaml (the smallest, when its webhooks differ). The Knative
  # manifests derive their request timeout from the same declaration, so the two agree without extra wiring.
  declared_timeout_seconds = {
    for f in local.enabled : f => try(min([
      for e in var.catalog.functions[f].webhooks : e.webhook.timeoutSeconds if try(e.webhook.timeoutSeconds, null) != null
    ]...), null)
  }

  # Per function: the webhook timeout (an override, else the declared value, else the budget), the platform's request
  # timeout and the function's internal deadline. The Fail check below holds whichever value wins to the budget.
  function_timeout_seconds = {
    for f in local.enabled : f => coalesce(
      try(local.override[f].timeout_seconds, null), local.declared_timeout_seconds[f], local.budget_timeout_seconds
    )
  }
  request_timeout_seconds = {
    for f, t in local.function_timeout_seconds : f => max(1, t - ceil(local.network))
  }
  # After a full cold start the function still answers before the platform gives up; when the timeout is too short for
  # that (allowed for Ignore webhooks only) a warm call keeps its evaluation budget.
  internal_deadline_ms = {
    for f, r in local.request_timeout_seconds : f => floor(1000 * max(r - local.cold_start, min(local.evaluation, r)))
  }

  # One element per webhook of an enabled function, in catalog order. No URLs here, so the timeouts never wait for
  # the functions' URLs to be known.
  entries = flatten([for f in local.enabled : [for e in var.catalog.functions[f].webhooks : {
    function        = f
    type            = e.type
    path            = e.path
    name            = e.webhook.name
    declared        = contains(keys(local.policy_webhook), f) ? local.policy_webhook[f] : e.webhook
    failure_policy  = coalesce(try(local.override[f].failure_policy, null), e.webhook.failurePolicy, "Fail")
    timeout_seconds = local.function_timeout_seconds[f]
    added_ns        = try(local.override[f].namespace_selector, { matchLabels = {}, matchExpressions = [] })
    added_obj       = try(local.override[f].object_selector, { matchLabels = {}, matchExpressions = [] })
    added_mc        = try(local.override[f].match_conditions, [])
  }]])

  # Declared fields this module rebuilds; every other declared field is copied as it is.
  rebuilt_fields = ["rules", "namespaceSelector", "objectSelector", "matchConditions", "timeoutSeconds", "failurePolicy"]

  exclusion = length(local.excluded_namespaces) == 0 ? [] : [{
    key      = "kubernetes.io/metadata.name"
    operator = "NotIn"
    values   = local.excluded_namespaces
  }]

  webhooks = [for e in local.entries : {
    function = e.function
    type     = e.type
    object = merge(
      { for k, v in e.declared : k => v if v != null && !contains(local.rebuilt_fields, k) },
      {
        failurePolicy  = e.failure_policy
        timeoutSeconds = e.timeout_seconds
        clientConfig = { for k, v in {
          url = join("", [
            trimsuffix(lookup(var.function_urls, e.function, var.default_url == null ? "" : var.default_url), "/"),
            contains(keys(var.path_tokens), e.function) ? "/${var.path_tokens[e.function]}" : "",
            e.path,
          ])
          caBundle = var.ca_bundle == null ? null : base64encode(var.ca_bundle)
        } : k => v if v != null }
      },
      e.declared.rules == null ? {} : {
        rules = [for r in e.declared.rules : { for k, v in r : k => v if v != null }]
      },
      { for k, v in {
        namespaceSelector = { for k, v in {
          matchLabels = merge(coalesce(try(e.declared.namespaceSelector.matchLabels, null), {}), e.added_ns.matchLabels)
          matchExpressions = concat(
            [for x in coalesce(try(e.declared.namespaceSelector.matchExpressions, null), []) : { for k, v in x : k => v if v != null }],
            local.exclusion,
            [for x in e.added_ns.matchExpressions : { for k, v in x : k => v if v != null }],
            local.exception_namespace_expressions[e.name],
          )
        } : k => v if length(v) > 0 }
        objectSelector = { for k, v in {
          matchLabels = merge(coalesce(try(e.declared.objectSelector.matchLabels, null), {}), e.added_obj.matchLabels)
          matchExpressions = concat(
            [for x in coalesce(try(e.declared.objectSelector.matchExpressions, null), []) : { for k, v in x : k => v if v != null }],
            [for x in e.added_obj.matchExpressions : { for k, v in x : k => v if v != null }],
            local.exception_object_expressions[e.name],
          )
        } : k => v if length(v) > 0 }
        matchConditions = local.match_conditions[e.name]
      } : k => v if length(v) > 0 },
    )
  }]

  # Checks that need the merged values (reported by output preconditions, with the names involved).
  label_conflicts = flatten([for e in local.entries : concat(
    [for k, v in e.added_ns.matchLabels : "${e.name}: namespaceSelector.matchLabels.${k}"
    if lookup(coalesce(try(e.declared.namespaceSelector.matchLabels, null), {}), k, v) != v],
    [for k, v in e.added_obj.matchLabels : "${e.name}: objectSelector.matchLabels.${k}"
    if lookup(coalesce(try(e.declared.objectSelector.matchLabels, null), {}), k, v) != v],
  )])
  # Declared, then added by overrides, then the exceptions' (exceptions.tf).
  match_conditions = { for e in local.entries : e.name => concat(
    coalesce(e.declared.matchConditions, []), e.added_mc, local.exception_match_conditions[e.name]
  ) }
  match_condition_problems = [
    for e in local.entries : "${e.name} (${length(local.match_conditions[e.name])} conditions)"
    if length(local.match_conditions[e.name]) > 64 || length(distinct([
      for c in local.match_conditions[e.name] : c.name
    ])) != length(local.match_conditions[e.name])
  ]
  fail_shortfalls = [
    for f in local.enabled : format(
      "%s: failurePolicy Fail webhook(s) %s have timeoutSeconds %d, but a cold call needs cold start %gs + evaluation %gs + network %gs, i.e. timeoutSeconds >= %d%s",
      f, join(", ", [for e in local.entries : e.name if e.function == f && e.failure_policy == "Fail"]),
      local.function_timeout_seconds[f], local.cold_start, local.evaluation, local.network, local.needed_timeout_seconds,
      local.needed_timeout_seconds > 30 ? " (more than the API server's maximum of 30: shrink the budget, e.g. a native build's cold start)" : "",
    )
    if anytrue([for e in local.entries : e.function == f && e.failure_policy == "Fail"])
    && local.function_timeout_seconds[f] < local.needed_timeout_seconds
  ]
  ignore_shortfalls = [
    for f in local.enabled : "${f} (timeoutSeconds ${local.function_timeout_seconds[f]} < ${local.needed_timeout_seconds})"
    if !anytrue([for e in local.entries : e.function == f && e.failure_policy == "Fail"])
    && local.function_timeout_seconds[f] < local.needed_timeout_seconds
  ]

  # What the cluster's version can honour (the features' versions from the Kubernetes changelogs and the API
  # reference: the kubernetes.io/metadata.name label is set on every namespace from 1.21 (NamespaceDefaultLabelName);
  # webhook matchConditions are alpha in 1.27 (off by default), beta in 1.28 (on by default), GA in 1.30).
  kubernetes_minor = try(tonumber(regex("^v?1\\.([0-9]+)", var.kubernetes_version)[0]), 0)
  with_match_conditions = [
    for e in local.entries : e.name if length(local.match_conditions[e.name]) > 0
  ]
  version_problems = concat(
    local.kubernetes_minor < 21 && length(local.excluded_namespaces) > 0 ? [
      "the namespace exclusions (${join(", ", local.excluded_namespaces)}) select on the kubernetes.io/metadata.name label, which the API server puts on namespaces only from Kubernetes 1.21: on ${var.kubernetes_version} they would exclude nothing (set excluded_namespaces = [] and functions_namespace = null to go without them, and exclude the control plane another way)"
    ] : [],
    local.kubernetes_minor < 28 && length(local.with_match_conditions) > 0 ? [
      "webhooks ${join(", ", local.with_match_conditions)} use matchConditions, which the API server honours from Kubernetes 1.28 (beta, on by default; GA in 1.30): ${var.kubernetes_version} would drop them and send these webhooks every request their rules match (remove the conditions: leave the function out, or drop the match_conditions overrides)"
    ] : [],
  )

  configurations = {
    for kind, type in { MutatingWebhookConfiguration = "mutating", ValidatingWebhookConfiguration = "validating" } : kind => {
      apiVersion                                     = "admissionregistration.k8s.io/v1"
      kind                                           = kind
      metadata = {
        name = var.configuration_name
        labels = merge(var.labels, {
          "app.kubernetes.io/managed-by" = "terraform"
          "app.kubernetes.io/part-of"    = "tollgate"
        })
      }
      webhooks = [for w in local.webhooks : w.object if w.type == type]
    } if anytrue([for e in local.entries : e.type == type])
  }
  # Known without the URLs, so callers can for_each over it.
  manifest_kinds = sort([
    for kind, type in { MutatingWebhookConfiguration = "mutating", ValidatingWebhookConfiguration = "validating" } : kind
    if anytrue([for e in local.entries : e.type == type])
  ])
}

# matchConditions are beta in 1.28 and 1.29: on by default, but a cluster that turned the
# AdmissionWebhookMatchConditions feature gate off drops them. Say so without failing the plan.
check "match_conditions_are_ga" {
  assert {
    condition     = local.kubernetes_minor >= 30 || local.kubernetes_minor < 28 || length(local.with_match_conditions) == 0
    error_message = "Webhooks ${join(", ", local.with_match_conditions)} use matchConditions, beta in Kubernetes ${var.kubernetes_version}: honoured unless the AdmissionWebhookMatchConditions feature gate was turned off (GA from 1.30)."
  }
}

# Ignore webhooks may time out on a cold start (the call is then skipped); say so without failing the plan.
check "ignore_webhooks_cover_cold_starts" {
  assert {
    condition     = length(local.ignore_shortfalls) == 0
    error_message = "These functions' Ignore webhooks will be skipped on cold calls, their timeout cannot cover the timing budget: ${join(", ", local.ignore_shortfalls)}."
  }
}
