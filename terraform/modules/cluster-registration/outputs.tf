output "cluster_manifests" {
  description = "Per governed cluster: the read-only ServiceAccount, its token Secret and RBAC, then the webhook configurations with that cluster's path tokens (apply in this order)."
  value       = { for n, m in module.webhooks : n => concat(local.rbac, [for k in m.manifest_kinds : m.manifests[k]]) }
  sensitive   = true
}

output "cluster_manifests_yaml" {
  description = "cluster_manifests as YAML per cluster: terraform output -json cluster_manifests_yaml | jq -r .<cluster> | kubectl --context <cluster> apply -f -"
  value       = { for n, m in module.webhooks : n => join("---\n", [for o in concat(local.rbac, [for k in m.manifest_kinds : m.manifests[k]]) : yamlencode(o)]) }
  sensitive   = true
}

output "rbac_manifests" {
  description = "The read-only ServiceAccount, token Secret and RBAC rendered in every governed cluster (no secret in them)."
  value       = local.rbac
}

output "clusters_secret" {
  description = "For the functions' cluster: the Secret with one <cluster>.kubeconfig per governed cluster that has a reader token (mount it at the directory tollgate.clusters.dir names)."
  value       = local.clusters_secret
  sensitive   = true
}

output "clusters_secret_yaml" {
  description = "clusters_secret as YAML: terraform output -raw clusters_secret_yaml | kubectl --context <functions' cluster> apply -f -"
  value       = yamlencode(local.clusters_secret)
  sensitive   = true
}

output "path_token_files" {
  description = "For the functions: per function, one token file per governed cluster (<cluster>.path-tokens => that cluster's token and a newline), the files tollgate.auth.clusters-dir reads, so each call is its cluster's and rotating or revoking one cluster's file touches no other. A Service serving several functions joins their files of the same name."
  value       = module.tokens.path_token_files
  sensitive   = true

  precondition {
    # The functions map each token to its cluster and refuse to start when one token is two clusters'; the plan says
    # so first, naming the clusters and never the token.
    condition     = length([for s in module.tokens.shared_tokens : s if endswith(s, "(path token)")]) == 0
    error_message = "A path token belongs to one cluster, but these clusters share one: ${join("; ", [for s in module.tokens.shared_tokens : s if endswith(s, "(path token)")])}. Give each cluster its own."
  }
}

output "bearer_token_files" {
  description = "For the functions: per function, one file per governed cluster with a bearer token (<cluster>.bearer-tokens => that cluster's token and a newline), read from tollgate.auth.clusters-dir beside the path-token files."
  value       = module.tokens.bearer_token_files
  sensitive   = true

  precondition {
    condition     = length([for s in module.tokens.shared_tokens : s if endswith(s, "(bearer token)")]) == 0
    error_message = "A bearer token belongs to one cluster, but these clusters share one: ${join("; ", [for s in module.tokens.shared_tokens : s if endswith(s, "(bearer token)")])}. Give each cluster its own."
  }
}

output "admission_kubeconfigs" {
  description = "Per governed cluster with bearer_tokens: the kubeconfig its API server's webhook admission plugins read (one user per function host, holding that cluster's token); put it at admission_kubeconfig_path on the control plane."
  value       = local.admission_kubeconfigs
  sensitive   = true

  precondition {
    condition     = length(local.bearer_host_conflicts) == 0
    error_message = "Functions served from one host get one bearer token per cluster (the API server picks it by host), but these have different ones: ${join("; ", local.bearer_host_conflicts)}."
  }
}

output "admission_configuration_yaml" {
  description = "The AdmissionConfiguration for the API server's --admission-control-config-file: both webhook admission plugins read admission_kubeconfig_path. The same for every cluster."
  value       = local.admission_configuration
}

output "connected_clusters" {
  description = "The clusters whose connection is in clusters_secret."
  value       = local.connected
}

output "missing_reader_tokens" {
  description = "Clusters without a reader token yet, with the command that reads it after their manifests are applied (pass it in reader_tokens)."
  value = {
    for n in keys(var.clusters) : n => "kubectl --context ${n} -n ${var.reader_namespace} get secret ${var.reader_name}-token -o jsonpath='{.data.token}' | base64 -d"
    if !contains(local.connected, n)
  }
}

output "timeouts" {
  description = "Per function: webhook timeoutSeconds, request timeout and internal deadline (the same for every cluster: one set of functions serves them all)."
  value       = module.webhooks[sort(keys(var.clusters))[0]].timeouts
}

output "webhooks" {
  description = "Per cluster, what is registered (no URLs)."
  value       = { for n, m in module.webhooks : n => m.webhooks }
}

output "exceptions_applied_by_function" {
  description = "Per cluster, per function: the exceptions neither matchConditions nor a selector can express on that cluster's version; its API server sends their requests to the function."
  value       = { for n, m in module.webhooks : n => m.exceptions_applied_by_function }
}

output "policy_rules" {
  description = "Per cluster, per function registered from policy_rules: the policies it covers and what that cluster's webhook cannot select and the function applies."
  value       = { for n, m in module.webhooks : n => m.policy_rules }
}

output "exceptions_advice" {
  description = "Per cluster older than 1.28, per exception its function applies: what it excepts by (namespace name, user, ...), that the requests still reach the function, and the label form that keeps them away."
  value       = { for n, m in module.webhooks : n => m.exceptions_advice if length(m.exceptions_advice) > 0 }
}

output "exceptions_compiled" {
  description = "Per cluster, per webhook: how each unexpired exception is applied (matchConditions, namespaceSelector, objectSelector or function)."
  value       = { for n, m in module.webhooks : n => m.exceptions_compiled }
}

output "exceptions_expired" {
  description = "Exceptions whose expiry is not after the plan's time: dropped on every cluster (name => expires, functions, reason)."
  value       = module.webhooks[sort(keys(var.clusters))[0]].exceptions_expired
}
