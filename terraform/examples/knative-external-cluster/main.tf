# Functions run as Knative Services (cluster A); their webhook configurations go to an external cluster (cluster B)
# that calls them over HTTPS through the Knative external domain.

locals {
  catalog = jsondecode(file(coalesce(var.catalog_file, "${path.module}/../../catalog/catalog.json")))
}

module "webhooks" {
  source = "../../modules/webhook-configurations"

  catalog             = local.catalog
  kubernetes_version  = var.kubernetes_version
  function_urls       = var.function_urls
  default_url         = var.default_url
  functions           = var.functions
  ca_bundle           = var.ca_bundle_file == null ? null : file(var.ca_bundle_file)
  path_tokens         = var.path_tokens
  overrides           = var.overrides
  timing              = var.timing
  functions_namespace = var.functions_namespace
}

output "timeouts" {
  description = "Per function: webhook timeoutSeconds, the Knative request timeout and the function's deadline."
  value       = module.webhooks.timeouts
}

output "knative_updates" {
  description = "Commands that give each Knative Service the request timeout and deadline the webhooks were built for."
  value = {
    for f, t in module.webhooks.timeouts : f => join(" ", [
      "kn service update ${f} --namespace ${var.functions_namespace}",
      "--timeout ${t.request_timeout_seconds}",
      "--env TOLLGATE_DEADLINE_TIMEOUT=${t.environment.TOLLGATE_DEADLINE_TIMEOUT}",
    ])
  }
}

output "webhooks" {
  description = "What is registered: function, type, path, failurePolicy, timeoutSeconds per webhook."
  value       = module.webhooks.webhooks
}

output "manifests_yaml" {
  description = "The configurations as YAML (terraform output -raw manifests_yaml | kubectl apply -f - is the kubectl route)."
  value       = module.webhooks.manifests_yaml
  sensitive   = true
}
