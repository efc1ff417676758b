# Functions run on AWS Lambda behind function URLs and govern any number of external clusters, each calling with its
# own path tokens: each cluster gets its own webhook configurations (for_each, as cluster-registration does for
# Knative), and each function every cluster's tokens, so it knows which cluster calls. Lambda's URLs feed the
# configurations, and the configurations' timeouts feed Lambda (no cycle: the timeouts do not depend on the URLs).

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
  source   = "../../modules/webhook-configurations"
  for_each = var.clusters

  catalog            = local.catalog
  kubernetes_version = each.value.kubernetes_version
  functions          = keys(var.functions)
  function_urls      = module.functions.function_urls
  # Only this cluster's tokens: its URLs never carry another cluster's.
  path_tokens         = try(var.path_tokens[each.key], {})
  overrides           = var.overrides
  exceptions          = local.exceptions
  timing              = var.timing
  excluded_namespaces = each.value.namespace_exclusions ? null : []
  # Nothing of Tollgate runs inside the external clusters.
  functions_namespace = null
}

# The timing budget alone, for Lambda's timeouts and the functions' deadlines: the same for every cluster (one set of
# functions serves them all) and independent of the URLs. Read from a for_each instance by a computed key, the
# timeouts would depend on all of module.webhooks, whose URLs are Lambda's: a cycle. This instance renders with a
# placeholder URL that goes nowhere; only its timeouts are used.
module "budget" {
  source = "../../modules/webhook-configurations"

  catalog             = local.catalog
  kubernetes_version  = var.clusters[sort(keys(var.clusters))[0]].kubernetes_version
  functions           = keys(var.functions)
  default_url         = "https://budget.invalid"
  overrides           = var.overrides
  timing              = var.timing
  functions_namespace = null
}

locals {
  timeouts = module.budget.timeouts
}

module "functions" {
  source = "../../modules/aws-lambda-functions"

  functions = {
    for name, f in var.functions : name => merge(f, {
      package_file = coalesce(f.package_file, "${local.repo_root}/functions/${name}/target/function.zip")
    })
  }
  timeouts      = local.timeouts
  path_tokens   = var.path_tokens
  bearer_tokens = var.bearer_tokens
  enforcement   = var.enforcement

  cluster_connections         = var.cluster_connections
  secrets_extension_layer_arn = var.secrets_extension_layer_arn
  exceptions                  = local.exceptions
  tags                        = var.tags
}

output "function_urls" {
  description = "The Lambda function URLs (without tokens)."
  value       = module.functions.function_urls
}

output "timeouts" {
  description = "Per function: webhook timeoutSeconds, Lambda timeout and the function's deadline (the same for every cluster)."
  value       = local.timeouts
}

output "webhooks" {
  description = "Per cluster, what is registered: function, type, path, failurePolicy, timeoutSeconds per webhook."
  value       = { for c, m in module.webhooks : c => m.webhooks }
}

output "cluster_manifests_yaml" {
  description = "Per cluster, its configurations as YAML, its own path tokens in the URLs: terraform output -json cluster_manifests_yaml | jq -r .<cluster> | kubectl --context <cluster> apply -f -"
  value       = { for c, m in module.webhooks : c => m.manifests_yaml }
  sensitive   = true
}

output "exceptions_applied_by_function" {
  description = "Per cluster, per function: exceptions its API server cannot apply on its version (the requests reach the function)."
  value       = { for c, m in module.webhooks : c => m.exceptions_applied_by_function }
}

output "exceptions_expired" {
  description = "Exceptions past their expiry, dropped from every webhook: remove or renew them."
  value       = merge([for m in values(module.webhooks) : m.exceptions_expired]...)
}
