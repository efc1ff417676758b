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
  }))
}

variable "path_tokens" {
  description = "Secret path token per function (a Lambda function URL is public): the URL's first segment and the function's TOLLGATE_AUTH_PATH_TOKEN_VALUES."
  type        = map(string)
  default     = {}
  sensitive   = true
}

variable "bearer_tokens" {
  description = "Bearer tokens per function, for API servers whose AdmissionConfiguration kubeconfig can send one."
  type        = map(list(string))
  default     = {}
  sensitive   = true
}

variable "overrides" {
  description = "Per-function overrides, as in the webhook-configurations module."
  type        = any
  default     = {}
}

variable "kubernetes_version" {
  description = "The external cluster's Kubernetes version (kubectl version: Server Version); the plan fails when the configurations use what it cannot honour."
  type        = string
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
  description = "kubeconfig of the external cluster that gets the webhook configurations."
  type        = string
  default     = "~/.kube/config"
}

variable "kube_context" {
  description = "Context in that kubeconfig (null: its current context)."
  type        = string
  default     = null
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
