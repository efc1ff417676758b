# Functions run on AWS Lambda behind function URLs; their webhook configurations go to an external cluster.
# Lambda's URLs feed the configurations, and the configurations' timeouts feed Lambda (no cycle: the timeouts do not
# depend on the URLs).

provider "aws" {
  region = var.aws_region
}

locals {
  catalog   = jsondecode(file(coalesce(var.catalog_file, "${path.module}/../../catalog/catalog.json")))
  repo_root = "${path.module}/../../.."
  # The reviewed exceptions file: compiled into the webhooks where the cluster's version can express them, and
  # handed to the functions for the rest.
  exceptions = yamldecode(var.exceptions_file == null ? "exceptions: []" : file(var.exceptions_file)).exceptions
}

module "webhooks" {
  source = "../../modules/webhook-configurations"

  catalog            = local.catalog
  kubernetes_version = var.kubernetes_version
  functions          = keys(var.functions)
  function_urls      = module.functions.function_urls
  path_tokens        = var.path_tokens
  overrides          = var.overrides
  exceptions         = local.exceptions
  timing             = var.timing
  # Nothing of Tollgate runs inside the external cluster.
  functions_namespace = null
}

module "functions" {
  source = "../../modules/aws-lambda-functions"

  functions = {
    for name, f in var.functions : name => merge(f, {
      package_file = coalesce(f.package_file, "${local.repo_root}/functions/${name}/target/function.zip")
    })
  }
  timeouts      = module.webhooks.timeouts
  path_tokens   = var.path_tokens
  bearer_tokens = var.bearer_tokens
  enforcement   = var.enforcement
  exceptions    = local.exceptions
  tags          = var.tags
}

output "function_urls" {
  description = "The Lambda function URLs (without tokens)."
  value       = module.functions.function_urls
}

output "timeouts" {
  description = "Per function: webhook timeoutSeconds, Lambda timeout and the function's deadline."
  value       = module.webhooks.timeouts
}

output "webhooks" {
  description = "What is registered: function, type, path, failurePolicy, timeoutSeconds per webhook."
  value       = module.webhooks.webhooks
}

output "manifests_yaml" {
  description = "The configurations as YAML, for kubectl or a GitOps repository."
  value       = module.webhooks.manifests_yaml
  sensitive   = true
}

output "exceptions_applied_by_function" {
  description = "Per function: exceptions the cluster's API server cannot apply on its version (the requests reach the function)."
  value       = module.webhooks.exceptions_applied_by_function
}

output "exceptions_expired" {
  description = "Exceptions past their expiry, dropped from every webhook: remove or renew them."
  value       = module.webhooks.exceptions_expired
}
