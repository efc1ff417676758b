variable "catalog_file" {
  description = "The registration catalog; null: the one in this repository (terraform/catalog/catalog.json)."
  type        = string
  default     = null
}

variable "aws_region" {
  description = "Region of the Lambda functions."
  type        = string
}

variable "functions" {
  description = "Functions to deploy and register (function name => Lambda settings, as in the aws-lambda-functions module). package_file defaults to <repository>/functions/<name>/target/function.zip."
  type = map(object({
    package_file         = optional(string)
    build                = optional(string, "native")
    memory_mb            = optional(number)
    architecture         = optional(string, "x86_64")
    reserved_concurrency = optional(number)
    environment          = optional(map(string), {})
    cluster_context      = optional(bool, false)
  }))
}

variable "cluster_connections" {
  description = "Per governed cluster, the kubeconfig of a read-only identity there (cluster => kubeconfig YAML: get on namespaces, and on the params' resources), for the functions with cluster_context (cel-policy, cel-mutate): one Secrets Manager secret the functions read through the Parameters and Secrets extension."
  type        = map(string)
  default     = {}
  sensitive   = true
}

variable "secrets_extension_layer_arn" {
  description = "The AWS Parameters and Secrets Lambda Extension layer for aws_region and the functions' architecture (its ARN per region is in the AWS documentation); needed with cluster_connections."
  type        = string
  default     = null
}

variable "clusters" {
  description = "The governed clusters by name (a DNS label: the name the functions know the cluster by, in their decision log, metrics and enforcement modes): kubernetes_version (kubectl version: Server Version; the plan fails when the configurations use what it cannot honour) and namespace_exclusions (false before 1.21, which does not label namespaces with their name)."
  type = map(object({
    kubernetes_version   = string
    namespace_exclusions = optional(bool, true)
  }))

  validation {
    condition     = length(var.clusters) > 0
    error_message = "clusters must name at least one cluster."
  }
  validation {
    condition     = alltrue([for n in keys(var.clusters) : can(regex("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$", n))])
    error_message = "Cluster names must be DNS labels (lower-case letters, digits and '-', at most 63): the functions name clusters so."
  }
}

variable "path_tokens" {
  description = "Per cluster, a secret path token per function (cluster => function => token; a Lambda function URL is public): the first segment of that cluster's URLs, and in the function's TOLLGATE_AUTH_CLUSTERS_JSON under the cluster's name. A token belongs to one cluster."
  type        = map(map(string))
  default     = {}
  sensitive   = true
  nullable    = false

  validation {
    condition     = length(setsubtract(nonsensitive(keys(var.path_tokens)), keys(var.clusters))) == 0
    error_message = "path_tokens names clusters that are not in clusters: ${join(", ", setsubtract(nonsensitive(keys(var.path_tokens)), keys(var.clusters)))}."
  }
  # A function URL is public and the function answers only calls with a token: a cluster without one for a function
  # it registers would have its every call refused (401), and under failurePolicy Fail every matching request too.
  validation {
    condition = length(flatten([for c in keys(var.clusters) : [for f in keys(var.functions) : f
    if !contains(nonsensitive(keys(try(var.path_tokens[c], {}))), f) && nonsensitive(length(try(var.bearer_tokens[c][f], []))) == 0]])) == 0
    error_message = "Every cluster calls every function with a token of its own, but these have none (path_tokens or bearer_tokens): ${join("; ", [for c in keys(var.clusters) : "cluster ${c}: ${join(", ", [for f in keys(var.functions) : f if !contains(nonsensitive(keys(try(var.path_tokens[c], {}))), f) && nonsensitive(length(try(var.bearer_tokens[c][f], []))) == 0])}" if length([for f in keys(var.functions) : f if !contains(nonsensitive(keys(try(var.path_tokens[c], {}))), f) && nonsensitive(length(try(var.bearer_tokens[c][f], []))) == 0]) > 0])}."
  }
}

variable "bearer_tokens" {
  description = "Per cluster, bearer tokens per function (cluster => function => tokens), for API servers whose AdmissionConfiguration kubeconfig can send one; in the function's TOLLGATE_AUTH_CLUSTERS_JSON with the path tokens."
  type        = map(map(list(string)))
  default     = {}
  sensitive   = true
  nullable    = false

  validation {
    condition     = length(setsubtract(nonsensitive(keys(var.bearer_tokens)), keys(var.clusters))) == 0
    error_message = "bearer_tokens names clusters that are not in clusters: ${join(", ", setsubtract(nonsensitive(keys(var.bearer_tokens)), keys(var.clusters)))}."
  }
}

variable "overrides" {
  description = "Per-function overrides, as in the webhook-configurations module."
  type        = any
  default     = {}
}

variable "timing" {
  description = "Timing budget in seconds; a Lambda cold start includes the init phase. Measured process start to the first answered review (knative/cold-start/README.md), on an idle 2-CPU machine: native 42-80 ms, JVM AOT jar 0.62-0.95 s, JVM fast-jar 1.6-3.0 s (several times that on a loaded machine); Lambda's own environment start comes on top."
  type = object({
    cold_start_seconds = optional(number, 3)
    evaluation_seconds = optional(number, 1)
    network_seconds    = optional(number, 1)
  })
  default = {}
}

variable "kubeconfig_path" {
  description = "kubeconfig reaching applied_cluster (cluster.tf)."
  type        = string
  default     = "~/.kube/config"
}

variable "kube_context" {
  description = "Context in that kubeconfig (null: its current context)."
  type        = string
  default     = null
}

variable "applied_cluster" {
  description = "The one governed cluster whose configurations cluster.tf applies with the kubernetes provider (kubeconfig_path, kube_context); null: none. A provider cannot be repeated per cluster, so the others get theirs with kubectl (output cluster_manifests_yaml)."
  type        = string
  default     = null

  validation {
    condition     = var.applied_cluster == null || contains(keys(var.clusters), coalesce(var.applied_cluster, "-"))
    error_message = "applied_cluster must be one of clusters."
  }
}

variable "tags" {
  description = "Tags for the AWS resources."
  type        = map(string)
  default     = { "app.kubernetes.io/part-of" = "tollgate" }
}

variable "exceptions_file" {
  description = "The reviewed exceptions file (YAML, terraform/README.md \"Exceptions\"); null: no exceptions."
  type        = string
  default     = null
}

variable "enforcement" {
  description = "Enforcement modes, written into each function's environment without a rebuild: mode (enforce, warn or audit), functions (name => mode), clusters (governed cluster => mode, overriding both), function_clusters (function => governed cluster => mode, overriding all for that function and cluster). See the enforcement module."
  type = object({
    mode              = optional(string, "enforce")
    functions         = optional(map(string), {})
    clusters          = optional(map(string), {})
    function_clusters = optional(map(map(string)), {})
  })
  default  = {}
  nullable = false
}
