# Test-only root module: the Lambda path end to end with the real catalog. The Lambda URLs feed the webhook
# configurations and the configurations' timeouts feed the Lambda functions, without a dependency cycle.

variable "package_file" {
  type = string
}

variable "token_suffix" {
  type      = string
  sensitive = true
}

locals {
  catalog     = jsondecode(file("${path.module}/../../../../catalog/catalog.json"))
  path_tokens = { for f in keys(local.catalog.functions) : f => "${f}-${var.token_suffix}" }
}

module "webhooks" {
  source             = "../../../webhook-configurations"
  catalog            = local.catalog
  kubernetes_version = "1.30"
  function_urls      = module.lambda.function_urls
  path_tokens        = local.path_tokens
  timing             = { cold_start_seconds = 2.5, evaluation_seconds = 1, network_seconds = 0.5 }
}

module "lambda" {
  source      = "../.."
  functions   = { for f in keys(local.catalog.functions) : f => { package_file = var.package_file } }
  timeouts    = module.webhooks.timeouts
  path_tokens = local.path_tokens
}

output "manifests" {
  value     = module.webhooks.manifests
  sensitive = true
}

output "timeouts" {
  value = module.webhooks.timeouts
}

output "catalog_functions" {
  value = keys(local.catalog.functions)
}
