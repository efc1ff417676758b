# Test-only root module: the Lambda path end to end with the real catalog, for two governed clusters. The Lambda URLs
# feed each cluster's webhook configurations and the configurations' timeouts feed the Lambda functions, without a
# dependency cycle; each cluster's URLs carry its own path tokens, and each function holds every cluster's.

variable "package_file" {
  type = string
}

variable "token_suffix" {
  type      = string
  sensitive = true
}

locals {
  catalog     = jsondecode(file("${path.module}/../../../../catalog/catalog.json"))
  clusters    = toset(["east", "west"])
  path_tokens = { for c in local.clusters : c => { for f in keys(local.catalog.functions) : f => "${c}-${f}-${var.token_suffix}" } }
  # The exceptions file feeds both modules (the webhooks' matchConditions, the functions' environment): no cycle.
  exceptions = [
    { name = "sandboxes", functions = ["require-labels"], match = { namespace_labels = { matchLabels = { "tollgate.dev/sandbox" = "true" } } }, reason = "deleted nightly", expires = "2099-12-31T00:00:00Z" },
    { name = "ci-bot", functions = ["require-labels"], match = { users = ["ci-bot"] }, reason = "CI redeploys", expires = "2099-12-31T00:00:00Z" },
  ]
}

module "webhooks" {
  source             = "../../../webhook-configurations"
  for_each           = local.clusters
  catalog            = local.catalog
  kubernetes_version = "1.30"
  function_urls      = module.lambda.function_urls
  exceptions         = local.exceptions
  path_tokens        = local.path_tokens[each.key]
  timing             = { cold_start_seconds = 2.5, evaluation_seconds = 1, network_seconds = 0.5 }
}

module "lambda" {
  source      = "../.."
  functions   = { for f in keys(local.catalog.functions) : f => { package_file = var.package_file } }
  timeouts    = module.webhooks["east"].timeouts # the same for every cluster
  path_tokens = local.path_tokens
  exceptions  = local.exceptions
}

output "manifests" {
  value     = { for c, m in module.webhooks : c => m.manifests }
  sensitive = true
}

output "timeouts" {
  value = module.webhooks["east"].timeouts
}

output "catalog_functions" {
  value = keys(local.catalog.functions)
}
