# The configurations carry the functions' URLs, and with them any path token: they are sensitive. Read them with
# `terraform output -raw validating_configuration_yaml` or `terraform output -json`.
# Checks that need merged values are output preconditions; every output of a module is evaluated, used or not.

output "mutating_configuration" {
  description = "The MutatingWebhookConfiguration object, or null when no selected function mutates."
  value       = lookup(local.configurations, "MutatingWebhookConfiguration", null)
  sensitive   = true
}

output "validating_configuration" {
  description = "The ValidatingWebhookConfiguration object, or null when no selected function validates."
  value       = lookup(local.configurations, "ValidatingWebhookConfiguration", null)
  sensitive   = true
}

output "mutating_configuration_yaml" {
  description = "The MutatingWebhookConfiguration as YAML (empty string when there is none)."
  value       = contains(keys(local.configurations), "MutatingWebhookConfiguration") ? yamlencode(local.configurations["MutatingWebhookConfiguration"]) : ""
  sensitive   = true
}

output "validating_configuration_yaml" {
  description = "The ValidatingWebhookConfiguration as YAML (empty string when there is none)."
  value       = contains(keys(local.configurations), "ValidatingWebhookConfiguration") ? yamlencode(local.configurations["ValidatingWebhookConfiguration"]) : ""
  sensitive   = true
}

output "manifests" {
  description = "The configurations that have webhooks, by kind: the input of the cluster-registration module."
  value       = local.configurations
  sensitive   = true

  # Checked once here: Terraform evaluates every output of a module, so no other output escapes these.
  precondition {
    condition     = length(local.label_conflicts) == 0
    error_message = "Selector additions contradict declared matchLabels (no object could match both): ${join(", ", local.label_conflicts)}."
  }
  precondition {
    condition     = length(local.policy_sources_changed) == 0
    error_message = "policy_rules: these policy files changed since their registration was derived, so it may not send the functions what the policies now select: ${join(", ", local.policy_sources_changed)}. Run the command in the registration's generated_by again."
  }
  precondition {
    condition     = length(local.version_problems) == 0
    error_message = "The cluster's Kubernetes version cannot honour these configurations: ${join("; ", local.version_problems)}."
  }
  precondition {
    condition     = length(local.match_condition_problems) == 0
    error_message = "With the added match_conditions and the exceptions' conditions these webhooks exceed 64 conditions or repeat a name (the API server's limits): ${join(", ", local.match_condition_problems)}."
  }
}

output "manifests_yaml" {
  description = "Every configuration as one multi-document YAML stream, for kubectl apply -f - or a GitOps repository."
  value       = join("---\n", [for kind in local.manifest_kinds : yamlencode(local.configurations[kind])])
  sensitive   = true
}

output "manifest_kinds" {
  description = "Kinds present in manifests (not sensitive, known at plan time): use it for for_each."
  value       = local.manifest_kinds
}

output "timeouts" {
  description = "Per function: the webhook timeoutSeconds, the request timeout its Knative Service or Lambda function must use, and the internal deadline the function must be given (TOLLGATE_DEADLINE_TIMEOUT), derived from one budget."
  value = {
    for f in local.enabled : f => {
      webhook_timeout_seconds = local.function_timeout_seconds[f]
      request_timeout_seconds = local.request_timeout_seconds[f]
      internal_deadline_ms    = local.internal_deadline_ms[f]
      environment = {
        TOLLGATE_DEADLINE_TIMEOUT = "${local.internal_deadline_ms[f]}ms"
      }
    }
  }

  precondition {
    condition     = length(local.fail_shortfalls) == 0
    error_message = "A failurePolicy Fail webhook must outlast a cold start, or every cold call is rejected: ${join("; ", local.fail_shortfalls)}. Raise timeoutSeconds in the function's webhook.yaml or overrides[name].timeout_seconds, shrink the timing budget, or set failure_policy = \"Ignore\"."
  }
}

output "webhooks" {
  description = "Summary per webhook name (no URLs): function, type, path, failurePolicy, timeoutSeconds as rendered and as declared."
  value = {
    for e in local.entries : e.name => {
      function                 = e.function
      type                     = e.type
      path                     = e.path
      failure_policy           = e.failure_policy
      timeout_seconds          = e.timeout_seconds
      declared_timeout_seconds = e.declared.timeoutSeconds
    }
  }
}

output "budget" {
  description = "The timing budget and the webhook timeout it yields when not overridden."
  value = {
    cold_start_seconds     = local.cold_start
    evaluation_seconds     = local.evaluation
    network_seconds        = local.network
    needed_timeout_seconds = local.needed_timeout_seconds
    timeout_seconds        = local.budget_timeout_seconds
  }
}

output "exceptions_compiled" {
  description = "Per webhook name: how each of its function's unexpired exceptions is applied on this cluster's version (matchConditions, namespaceSelector, objectSelector, or function: sent to the function)."
  value       = { for w, p in local.exception_plan : w => p.modes if length(p.modes) > 0 }
}

output "exceptions_applied_by_function" {
  description = "Per function: the exceptions neither matchConditions nor a selector can express on this cluster's version; the API server sends their requests to the function."
  value       = local.exceptions_applied_by_function
}

output "exceptions_advice" {
  description = "Per exception the function applies on a version older than 1.28: what it excepts by, that its requests still reach the function, and the label form (namespaceSelector, objectSelector) that keeps them away."
  value       = local.exception_advice
}

output "exceptions_expired" {
  description = "Exceptions whose expiry is not after the plan's time (plantimestamp()): dropped from every webhook. Name => expires, functions, reason."
  value       = local.exception_expired
}

output "policy_rules" {
  description = "Per function registered from policy_rules: the command that derived it, the policies it covers, and what the webhook cannot select on this cluster's version and the function applies (their requests reach it)."
  value       = local.policy_rules_summary
}
